#pragma once

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QStringList>

#include <optional>

namespace Loopscope::Internal {

/*!
    The first problem found in an untrusted JSON document, as a sentence that
    names the value by its path ("messages[3].role must be a string, not a
    number."). Later problems are dropped: they are usually consequences.
*/
class JsonProblem final
{
public:
    bool ok() const { return m_message.isEmpty(); }
    const QString &message() const { return m_message; }
    void set(const QString &message)
    {
        if (ok())
            m_message = message;
    }

private:
    QString m_message;
};

enum class Need { Required, Optional };

/*!
    How a kind of document words the problems JsonFields finds. Session
    files name a value by its path ("messages[3].role must be a string, not a
    number."); a wording may phrase them its own way, and error messages are
    part of what users and tests rely on, so each document keeps its voice
    while sharing one reader.
*/
class JsonWording
{
public:
    virtual ~JsonWording() = default;
    virtual QString missing(const QString &path) const;
    virtual QString wrongType(const QString &path, const QString &expected, const QJsonValue &actual) const;
    // What a whole number from \a min to \a max is called in wrongType().
    virtual QString wholeNumber(qint64 min, qint64 max) const;
    virtual QString notInRange(const QString &path, qint64 min, qint64 max, const QJsonValue &actual) const;
    // The element at \a index of the array at \a path is not \a element, so
    // the array is not \a array ("an array of strings").
    virtual QString wrongElement(const QString &path, qsizetype index, const QString &element,
                                 const QString &array, const QJsonValue &actual) const;
};

/*!
    Strict, typed reads of one JSON object of an untrusted file (sessions,
    traces). A read that fails records the problem and returns the fallback,
    so a reader reads every field it needs and checks the problem once.
    Absent optional fields return the fallback silently; unknown fields are
    not looked at.
*/
class JsonFields final
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::JsonFields)

public:
    // \a wording, when given, must outlive the reader.
    JsonFields(const QJsonObject &object, const QString &where, JsonProblem &problem,
               const JsonWording *wording = nullptr)
        : m_object(object)
        , m_where(where)
        , m_problem(problem)
        , m_wording(wording ? wording : &pathWording())
    {}

    const QJsonObject &object() const { return m_object; }
    bool ok() const { return m_problem.ok(); }
    bool has(QStringView key) const { return m_object.contains(key); }
    QString path(QStringView key) const { return member(m_where, key); }
    void fail(const QString &message) { m_problem.set(message); }

    QJsonValue value(QStringView key, Need need);
    QString string(QStringView key, Need need, const QString &fallback = {});
    bool boolean(QStringView key, Need need, bool fallback = false);
    qint64 integer(QStringView key, Need need, qint64 fallback, qint64 min, qint64 max);
    std::optional<double> number(QStringView key, double min, double max); // always optional
    QJsonObject object(QStringView key, Need need);
    QJsonArray array(QStringView key, Need need);
    QStringList strings(QStringView key, Need need);
    QList<QJsonObject> objects(QStringView key, Need need);
    // One of \a names; the fallback when absent.
    QString name(QStringView key, Need need, const QStringList &names, const QString &fallback = {});
    // ISO 8601 with an explicit zone (Z or an offset), returned in UTC. An
    // empty string is an unknown time: an invalid QDateTime.
    QDateTime timestamp(QStringView key, Need need);
    // A field that must not appear here, e.g. tool calls on a user message.
    void forbid(QStringView key, const QString &where);

    // Paths: "messages" + "role" -> "messages.role", "messages" + 3 -> "messages[3]".
    static QString member(const QString &where, QStringView key);
    static QString element(const QString &where, qsizetype index);
    // "a string", "a number", ... for messages.
    static QString typeName(const QJsonValue &value);
    static QString mustBe(const QString &path, const QString &expected, const QJsonValue &actual);
    // A value for a message: quoted and cut to a readable length.
    static QString quoted(const QString &text);
    // The whole numbers JSON carries exactly; nullopt for 1.5, 1e300 or a string.
    static std::optional<qint64> wholeNumber(const QJsonValue &value);

private:
    static const JsonWording &pathWording();
    // The value at \a key if it has \a type, else the fallback (and a problem unless absent).
    template<typename T, typename Convert>
    T typed(QStringView key, Need need, QJsonValue::Type type, const QString &expected, const T &fallback,
            Convert convert);
    template<typename T, typename Convert>
    QList<T> elements(QStringView key, Need need, QJsonValue::Type type, const QString &element,
                      const QString &array, Convert convert);

    QJsonObject m_object;
    QString m_where;
    JsonProblem &m_problem;
    const JsonWording *m_wording;
};

} // namespace Loopscope::Internal
