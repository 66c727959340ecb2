#include "agent/mcp/mcptoolnames.h"

#include <QCryptographicHash>
#include <QHash>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace Loopscope::McpToolNames {

namespace {

bool isAllowed(QChar c)
{
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9') || c == u'_'
           || c == u'-';
}

// Six hex digits that tell apart two pairs whose names came out the same.
QString shortHash(const Source &source, int salt)
{
    const QByteArray key
        = source.server.toUtf8() + '\n' + source.tool.toUtf8() + '\n' + QByteArray::number(salt);
    return QString::fromLatin1(QCryptographicHash::hash(key, QCryptographicHash::Sha1).toHex().left(6));
}

QString withHash(const QString &name, const Source &source, int salt)
{
    const QString suffix = u'_' + shortHash(source, salt);
    return name.left(MaxLength - suffix.size()) + suffix;
}

} // namespace

QString sanitise(const QString &name)
{
    QString result;
    result.reserve(name.size());
    for (const QChar c : name)
        result.append(isAllowed(c) ? c : u'_');
    return result.isEmpty() ? u"_"_s : result;
}

bool isValid(const QString &name)
{
    static const QRegularExpression pattern(u"^[a-zA-Z0-9_-]{1,64}$"_s);
    return pattern.match(name).hasMatch();
}

QStringList assign(const QList<Source> &sources, const QSet<QString> &taken)
{
    // How many distinct servers offer each sanitised name.
    QHash<QString, QSet<QString>> offeredBy;
    for (const Source &source : sources)
        offeredBy[sanitise(source.tool)].insert(source.server);

    QSet<QString> used = taken;
    QStringList names;
    names.reserve(sources.size());
    for (const Source &source : sources) {
        const QString base = sanitise(source.tool);
        QString name = base;
        if (offeredBy.value(base).size() > 1 || taken.contains(base))
            name = sanitise(source.server) + u'_' + base;
        if (name.size() > MaxLength)
            name = withHash(name, source, 0);
        // Still taken (two servers with the same sanitised name, or "a.b" and "a_b" on one server).
        const QString candidate = name;
        for (int salt = 1; used.contains(name); ++salt)
            name = withHash(candidate, source, salt);
        used.insert(name);
        names.append(name);
    }
    return names;
}

} // namespace Loopscope::McpToolNames
