#include "agent/tools/builtin/currenttimetool.h"

#include <QJsonArray>
#include <QLocale>

#include <optional>

using namespace Qt::StringLiterals;

namespace Loopscope {

CurrentTimeTool::CurrentTimeTool(Clock clock, QTimeZone defaultZone)
    : m_clock(std::move(clock))
    , m_defaultZone(std::move(defaultZone))
{
    if (!m_clock)
        m_clock = &QDateTime::currentDateTimeUtc;
    // A container without /etc/localtime can leave the system zone invalid.
    if (!m_defaultZone.isValid())
        m_defaultZone = QTimeZone(QByteArray("UTC"));
}

ToolSchema CurrentTimeTool::schema() const
{
    const QJsonObject timezone{
        {u"type"_s, u"string"_s},
        {u"description"_s, u"IANA time zone name such as \"Europe/Berlin\", \"America/New_York\" or \"UTC\". "
                           "Omit it for the user's local time zone."_s},
    };
    return {Name,
            u"Returns the current date and time as ISO 8601 with the UTC offset, followed by the "
            "time zone and the weekday, e.g. \"2026-11-21T14:03:05+01:00 (Europe/Berlin, "
            "Saturday)\". Use it whenever the answer depends on today's date or the time."_s,
            QJsonObject{
                {u"type"_s, u"object"_s},
                {u"properties"_s, QJsonObject{{u"timezone"_s, timezone}}},
                // No "required": nothing is, and an empty list is invalid in JSON Schema draft 4.
                {u"additionalProperties"_s, false},
            }};
}

// QTimeZone's tz backend also accepts POSIX TZ rules, so "ABC" or "utc" would be
// "valid" zones with made-up names. Accept what Qt lists as available, plus real
// Area/Location names it leaves out of that list (e.g. "Etc/GMT+1"); the syntax
// check (letters, digits, _+-: between single slashes) keeps the name from being read as a file path.
static bool hasZoneNameSyntax(const QString &name)
{
    for (const QString &part : name.split(u'/')) {
        if (part.isEmpty())
            return false;
        for (QChar c : part) {
            const char16_t u = c.unicode();
            const bool allowed = (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z')
                                 || (u >= u'0' && u <= u'9') || u == u'_' || u == u'+' || u == u'-'
                                 || u == u':';
            if (!allowed)
                return false;
        }
    }
    return true;
}

static std::optional<QTimeZone> zoneNamed(const QString &name)
{
    if (!hasZoneNameSyntax(name))
        return std::nullopt;
    const QByteArray id = name.toUtf8();
    if (!QTimeZone::isTimeZoneIdAvailable(id) && !name.contains(u'/'))
        return std::nullopt;
    QTimeZone zone(id);
    if (!zone.isValid())
        return std::nullopt;
    return zone;
}

// Written out rather than Qt::ISODate, which says "Z" for UTC date-times and
// drops the offset for local ones: the model always gets "+hh:mm".
static QString isoWithOffset(const QDateTime &time)
{
    const int offsetSeconds = time.offsetFromUtc();
    const int offsetMinutes = qAbs(offsetSeconds) / 60;
    return time.toString(u"yyyy-MM-ddTHH:mm:ss"_s) + (offsetSeconds < 0 ? u'-' : u'+')
           + u"%1:%2"_s.arg(offsetMinutes / 60, 2, 10, QChar(u'0'))
                 .arg(offsetMinutes % 60, 2, 10, QChar(u'0'));
}

ToolResult CurrentTimeTool::invoke(const QJsonObject &arguments, ToolContext &) const
{
    QTimeZone zone = m_defaultZone;
    const QString requested = arguments.value(u"timezone"_s).toString().trimmed();
    if (!requested.isEmpty()) {
        const std::optional<QTimeZone> found = zoneNamed(requested);
        if (!found) {
            return ToolResult::failure(
                u"Unknown time zone '%1'. Give an IANA name such as \"Europe/Berlin\", "
                "\"Asia/Tokyo\" or \"UTC\", or omit the timezone for local time."_s.arg(requested));
        }
        zone = *found;
    }

    const QDateTime now = m_clock().toTimeZone(zone);
    return ToolResult::success(u"%1 (%2, %3)"_s.arg(isoWithOffset(now), QString::fromUtf8(zone.id()),
                                                    QLocale::c().dayName(now.date().dayOfWeek())));
}

} // namespace Loopscope
