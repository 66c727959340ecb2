#include "agent/trace/domfields.h"

#include <QJsonArray>

#include <array>
#include <utility>

namespace Loopscope::Internal {

using simdjson::dom::element_type;

namespace {
QJsonObject convertObject(simdjson::dom::object object);
} // namespace

namespace {
thread_local DomStringPool *currentPool = nullptr;

// QString::fromUtf8() drops a byte order mark at the start, which here is text: keep it.
QString decodeUtf8(QByteArrayView utf8)
{
    const QByteArrayView byteOrderMark("\xEF\xBB\xBF");
    if (!utf8.startsWith(byteOrderMark))
        return QString::fromUtf8(utf8);
    return QChar(0xFEFF) + QString::fromUtf8(utf8.sliced(byteOrderMark.size()));
}
} // namespace

DomStringPool::DomStringPool()
    : m_outer(std::exchange(currentPool, this))
{}

DomStringPool::~DomStringPool()
{
    currentPool = m_outer;
}

QString DomStringPool::string(QByteArrayView utf8)
{
    auto found = m_strings.constFind(utf8);
    if (found == m_strings.cend())
        found = m_strings.insert(utf8, decodeUtf8(utf8));
    return *found;
}

QJsonObject DomStringPool::object(simdjson::dom::object json)
{
    const std::string text = simdjson::minify(json);
    auto found = m_objects.find(text);
    if (found == m_objects.end())
        found = m_objects.emplace(text, convertObject(json)).first;
    return found->second;
}

QString toQString(std::string_view utf8)
{
    // Short text costs less to convert again than to look up.
    constexpr qsizetype PooledFrom = 64; // bytes
    const QByteArrayView view(utf8.data(), qsizetype(utf8.size()));
    return currentPool && view.size() >= PooledFrom ? currentPool->string(view) : decodeUtf8(view);
}

QJsonObject toQJsonObject(simdjson::dom::object object)
{
    return currentPool ? currentPool->object(object) : convertObject(object);
}

namespace {
QJsonObject convertObject(simdjson::dom::object object)
{
    QJsonObject json;
    for (const simdjson::dom::key_value_pair member : object)
        json.insert(toQString(member.key), toQJsonValue(member.value));
    return json;
}
} // namespace

QJsonValue toQJsonValue(simdjson::dom::element element)
{
    switch (element.type()) {
    case element_type::ARRAY: {
        QJsonArray array;
        for (const simdjson::dom::element item : simdjson::dom::array(element))
            array.append(toQJsonValue(item));
        return array;
    }
    case element_type::OBJECT: return toQJsonObject(simdjson::dom::object(element));
    case element_type::INT64: return QJsonValue(qint64(int64_t(element)));
    // Qt's parser reads integers beyond qint64 as doubles too.
    case element_type::UINT64: return QJsonValue(double(uint64_t(element)));
    case element_type::DOUBLE: return QJsonValue(double(element));
    case element_type::STRING: return QJsonValue(toQString(std::string_view(element)));
    case element_type::BOOL: return QJsonValue(bool(element));
    case element_type::NULL_VALUE: return QJsonValue(QJsonValue::Null);
    }
    return QJsonValue(QJsonValue::Undefined);
}

std::optional<simdjson::dom::element> DomFields::find(QStringView key) const
{
    // The keys asked for are short and ASCII: as UTF-8 they are compared byte by byte.
    std::array<char, 64> utf8{};
    if (key.size() > qsizetype(utf8.size()))
        return std::nullopt;
    for (qsizetype i = 0; i < key.size(); ++i)
        utf8[size_t(i)] = char(key[i].unicode());
    simdjson::dom::element value;
    if (m_object.at_key(std::string_view(utf8.data(), size_t(key.size()))).get(value) != simdjson::SUCCESS)
        return std::nullopt;
    return value;
}

QString DomFields::string(QStringView key, Need need, const QString &fallback)
{
    const auto value = find(key);
    if (!value) {
        if (need == Need::Required)
            fail();
        return fallback;
    }
    std::string_view text;
    if (value->get_string().get(text) != simdjson::SUCCESS) {
        fail();
        return fallback;
    }
    return toQString(text);
}

bool DomFields::boolean(QStringView key, Need need, bool fallback)
{
    const auto value = find(key);
    bool result = fallback;
    if ((!value && need == Need::Required) || (value && value->get_bool().get(result) != simdjson::SUCCESS))
        fail();
    return result;
}

qint64 DomFields::integer(QStringView key, Need need, qint64 fallback, qint64 min, qint64 max)
{
    const auto value = find(key);
    if (!value) {
        if (need == Need::Required)
            fail();
        return fallback;
    }
    // Only integers written as such: 2.0 and 1e3 take the checked path.
    int64_t number = 0;
    if (value->type() != element_type::INT64 || value->get_int64().get(number) != simdjson::SUCCESS
        || number < min || number > max) {
        fail();
        return fallback;
    }
    return number;
}

std::optional<double> DomFields::number(QStringView key)
{
    const auto value = find(key);
    if (!value)
        return std::nullopt;
    switch (value->type()) {
    case element_type::INT64: return double(int64_t(*value));
    case element_type::UINT64: return double(uint64_t(*value));
    case element_type::DOUBLE: return double(*value);
    default: fail(); return std::nullopt;
    }
}

template<typename Container>
std::optional<Container> DomFields::container(QStringView key, Need need)
{
    const auto value = find(key);
    Container container;
    if (value && value->get<Container>().get(container) == simdjson::SUCCESS)
        return container;
    if (value || need == Need::Required)
        fail();
    return std::nullopt;
}

std::optional<simdjson::dom::object> DomFields::object(QStringView key, Need need)
{
    return container<simdjson::dom::object>(key, need);
}

std::optional<simdjson::dom::array> DomFields::array(QStringView key, Need need)
{
    return container<simdjson::dom::array>(key, need);
}

QStringList DomFields::strings(QStringView key)
{
    QStringList result;
    const auto items = array(key, Need::Optional);
    if (!items)
        return result;
    result.reserve(qsizetype(items->size()));
    for (const simdjson::dom::element item : *items) {
        std::string_view text;
        if (item.get_string().get(text) != simdjson::SUCCESS) {
            fail();
            return {};
        }
        result.append(toQString(text));
    }
    return result;
}

QJsonObject DomFields::jsonObject(QStringView key)
{
    const auto value = object(key, Need::Optional);
    return value ? toQJsonObject(*value) : QJsonObject();
}

QJsonValue DomFields::jsonValue(QStringView key) const
{
    const auto value = find(key);
    return value ? toQJsonValue(*value) : QJsonValue(QJsonValue::Undefined);
}

} // namespace Loopscope::Internal
