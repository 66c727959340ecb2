#include "agent/trace/jsonfields.h"

#include <QLocale>

#include <cmath>

using namespace Qt::StringLiterals;

namespace Loopscope::Internal {

QString JsonFields::member(const QString &where, QStringView key)
{
    return where.isEmpty() ? key.toString() : where + u'.' + key;
}

QString JsonFields::element(const QString &where, qsizetype index)
{
    return where + u'[' + QString::number(index) + u']';
}

QString JsonFields::typeName(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null: return tr("null");
    case QJsonValue::Bool: return tr("true or false");
    case QJsonValue::Double: return tr("a number");
    case QJsonValue::String: return tr("a string");
    case QJsonValue::Array: return tr("an array");
    case QJsonValue::Object: return tr("an object");
    case QJsonValue::Undefined: break;
    }
    return tr("missing");
}

QString JsonFields::mustBe(const QString &path, const QString &expected, const QJsonValue &actual)
{
    return tr("%1 must be %2, not %3.").arg(path, expected, typeName(actual));
}

QString JsonFields::quoted(const QString &text)
{
    constexpr qsizetype MaxLength = 40;
    if (text.size() <= MaxLength)
        return u'"' + text + u'"';
    return u'"' + text.left(MaxLength) + u"…\""_s;
}

std::optional<qint64> JsonFields::wholeNumber(const QJsonValue &value)
{
    if (!value.isDouble())
        return std::nullopt;
    // Whole numbers beyond 64 bits, and fractions, convert differently with two fallbacks.
    const qint64 number = value.toInteger(0);
    if (number != value.toInteger(1))
        return std::nullopt;
    return number;
}

QString JsonWording::missing(const QString &path) const
{
    return JsonFields::tr("%1 is missing.").arg(path);
}

QString JsonWording::wrongType(const QString &path, const QString &expected, const QJsonValue &actual) const
{
    return JsonFields::mustBe(path, expected, actual);
}

QString JsonWording::wholeNumber(qint64, qint64) const
{
    return JsonFields::tr("a whole number");
}

QString JsonWording::notInRange(const QString &path, qint64 min, qint64 max, const QJsonValue &actual) const
{
    return JsonFields::tr("%1 must be a whole number from %2 to %3; it is %4.")
        .arg(path, QString::number(min), QString::number(max), QString::number(actual.toDouble(), 'g', 17));
}

QString JsonWording::wrongElement(const QString &path, qsizetype index, const QString &element,
                                  const QString &, const QJsonValue &actual) const
{
    return wrongType(JsonFields::element(path, index), element, actual);
}

const JsonWording &JsonFields::pathWording()
{
    static const JsonWording wording;
    return wording;
}

QJsonValue JsonFields::value(QStringView key, Need need)
{
    if (!ok())
        return QJsonValue(QJsonValue::Undefined);
    const QJsonValue value = m_object.value(key);
    if (value.isUndefined() && need == Need::Required)
        fail(m_wording->missing(path(key)));
    return value;
}

template<typename T, typename Convert>
T JsonFields::typed(QStringView key, Need need, QJsonValue::Type type, const QString &expected,
                    const T &fallback, Convert convert)
{
    const QJsonValue v = value(key, need);
    if (v.type() == type)
        return convert(v);
    if (!v.isUndefined())
        fail(m_wording->wrongType(path(key), expected, v));
    return fallback;
}

QString JsonFields::string(QStringView key, Need need, const QString &fallback)
{
    return typed(key, need, QJsonValue::String, tr("a string"), fallback,
                 [](const QJsonValue &v) { return v.toString(); });
}

bool JsonFields::boolean(QStringView key, Need need, bool fallback)
{
    return typed(key, need, QJsonValue::Bool, tr("true or false"), fallback,
                 [](const QJsonValue &v) { return v.toBool(); });
}

qint64 JsonFields::integer(QStringView key, Need need, qint64 fallback, qint64 min, qint64 max)
{
    const QJsonValue v = value(key, need);
    if (v.isUndefined())
        return fallback;
    if (!v.isDouble()) {
        fail(m_wording->wrongType(path(key), m_wording->wholeNumber(min, max), v));
        return fallback;
    }
    const auto number = wholeNumber(v);
    if (!number || *number < min || *number > max) {
        fail(m_wording->notInRange(path(key), min, max, v));
        return fallback;
    }
    return *number;
}

std::optional<double> JsonFields::number(QStringView key, double min, double max)
{
    const QJsonValue v = value(key, Need::Optional);
    if (v.isUndefined())
        return std::nullopt;
    if (!v.isDouble()) {
        fail(m_wording->wrongType(path(key), tr("a number"), v));
        return std::nullopt;
    }
    const double number = v.toDouble();
    if (!std::isfinite(number) || number < min || number > max) {
        fail(tr("%1 must be a number from %2 to %3; it is %4.")
                 .arg(path(key), QString::number(min), QString::number(max), QString::number(number)));
        return std::nullopt;
    }
    return number;
}

QJsonObject JsonFields::object(QStringView key, Need need)
{
    return typed(key, need, QJsonValue::Object, tr("an object"), QJsonObject(),
                 [](const QJsonValue &v) { return v.toObject(); });
}

QJsonArray JsonFields::array(QStringView key, Need need)
{
    return typed(key, need, QJsonValue::Array, tr("an array"), QJsonArray(),
                 [](const QJsonValue &v) { return v.toArray(); });
}

template<typename T, typename Convert>
QList<T> JsonFields::elements(QStringView key, Need need, QJsonValue::Type type, const QString &element,
                              const QString &array, Convert convert)
{
    const QJsonArray values = this->array(key, need);
    QList<T> result;
    result.reserve(values.size());
    for (qsizetype i = 0; i < values.size() && ok(); ++i) {
        const QJsonValue v = values.at(i);
        if (v.type() == type)
            result.append(convert(v));
        else
            fail(m_wording->wrongElement(path(key), i, element, array, v));
    }
    return result;
}

QStringList JsonFields::strings(QStringView key, Need need)
{
    return elements<QString>(key, need, QJsonValue::String, tr("a string"), tr("an array of strings"),
                             [](const QJsonValue &v) { return v.toString(); });
}

QList<QJsonObject> JsonFields::objects(QStringView key, Need need)
{
    return elements<QJsonObject>(key, need, QJsonValue::Object, tr("an object"), tr("an array of objects"),
                                 [](const QJsonValue &v) { return v.toObject(); });
}

QString JsonFields::name(QStringView key, Need need, const QStringList &names, const QString &fallback)
{
    const QJsonValue v = value(key, need);
    if (v.isUndefined())
        return fallback;
    if (!v.isString()) {
        fail(m_wording->wrongType(path(key), tr("a string"), v));
        return fallback;
    }
    const QString text = v.toString();
    if (!names.contains(text)) {
        fail(tr("%1 must be one of %2; it is %3.").arg(path(key), names.join(u", "_s), quoted(text)));
        return fallback;
    }
    return text;
}

QDateTime JsonFields::timestamp(QStringView key, Need need)
{
    const QString text = string(key, need);
    if (text.isEmpty())
        return {};
    const QDateTime parsed = QDateTime::fromString(text, Qt::ISODateWithMs);
    const QDateTime time = parsed.toUTC();
    // Without a zone the time would be read as this machine's local time; and
    // ISO 8601 has four-digit years only, in UTC too.
    if (!parsed.isValid() || parsed.timeSpec() == Qt::LocalTime || time.date().year() < 1
        || time.date().year() > 9999) {
        fail(tr("%1 must be a date and time in ISO 8601 with its zone, such as "
                "2024-05-01T09:30:00.000Z; it is %2.")
                 .arg(path(key), quoted(text)));
        return {};
    }
    return time;
}

void JsonFields::forbid(QStringView key, const QString &where)
{
    if (ok() && has(key))
        fail(tr("%1 is only allowed on %2.").arg(path(key), where));
}

} // namespace Loopscope::Internal
