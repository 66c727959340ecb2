#pragma once

#include "agent/trace/jsonfields.h"

#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

#include <simdjson.h>

#include <optional>
#include <string>
#include <unordered_map>

namespace Loopscope::Internal {

/*!
    Typed reads from a simdjson DOM: the fast path of loading a session. It
    words no problem: a value of an unexpected type, a missing field or a
    number out of range only marks the reader surprised, and the caller then
    reads the file again with JsonFields, which names the problem. So the fast
    path may be strict where the checked one is lenient, never the other way.
*/
class DomFields final
{
public:
    DomFields(simdjson::dom::object object, bool &surprised)
        : m_object(object)
        , m_surprised(surprised)
    {}

    bool ok() const { return !m_surprised; }
    void fail() { m_surprised = true; }
    bool &surprised() { return m_surprised; }

    std::optional<simdjson::dom::element> find(QStringView key) const;
    bool has(QStringView key) const { return find(key).has_value(); }

    // Absent optional fields give the fallback; anything else unexpected fails.
    QString string(QStringView key, Need need, const QString &fallback = {});
    bool boolean(QStringView key, Need need, bool fallback = false);
    qint64 integer(QStringView key, Need need, qint64 fallback, qint64 min, qint64 max);
    std::optional<double> number(QStringView key);
    std::optional<simdjson::dom::object> object(QStringView key, Need need);
    std::optional<simdjson::dom::array> array(QStringView key, Need need);
    QStringList strings(QStringView key);
    // Rarely large parts kept as JSON: converted to Qt's types.
    QJsonObject jsonObject(QStringView key);
    QJsonValue jsonValue(QStringView key) const;

private:
    template<typename Container>
    std::optional<Container> container(QStringView key, Need need);

    simdjson::dom::object m_object;
    bool &m_surprised;
};

/*!
    While it lives, toQString() gives equal text as one shared QString: a
    session repeats most of its text (a question is a message, the turn's
    input, a shield's subject and part of every request of the turn), and one
    copy saves both the conversion and the memory. The views it keys on must
    outlive it: it lives as long as the DOM it reads. One per thread.
*/
class DomStringPool final
{
public:
    DomStringPool();
    ~DomStringPool();
    DomStringPool(const DomStringPool &) = delete;
    DomStringPool &operator=(const DomStringPool &) = delete;

    QString string(QByteArrayView utf8);
    // The same for small objects kept as JSON (a tool's parameters, an attempt's headers).
    QJsonObject object(simdjson::dom::object json);

private:
    DomStringPool *m_outer;
    QHash<QByteArrayView, QString> m_strings;
    std::unordered_map<std::string, QJsonObject> m_objects; // by their minified text
};

QString toQString(std::string_view utf8);
QJsonValue toQJsonValue(simdjson::dom::element element);
QJsonObject toQJsonObject(simdjson::dom::object object);

} // namespace Loopscope::Internal
