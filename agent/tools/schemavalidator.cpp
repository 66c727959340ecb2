#include "agent/tools/schemavalidator.h"

#include <QJsonArray>
#include <QStringList>

#include <valijson/adapters/qtjson_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <stdexcept>

using namespace Qt::StringLiterals;

namespace Loopscope {

SchemaValidator::SchemaValidator(const QJsonObject &schema)
    : m_schema(std::make_unique<valijson::Schema>())
    , m_schemaJson(schema)
{
    try {
        valijson::SchemaParser parser;
        const QJsonValue root(schema);
        parser.populateSchema(valijson::adapters::QtJsonAdapter(root), *m_schema);
    } catch (const std::exception &e) {
        m_schemaError = QString::fromStdString(e.what());
        m_schema.reset();
    }
}

SchemaValidator::~SchemaValidator() = default;

// valijson names the path as ["<root>", "[items]", "[0]"]; models read JSON Pointers better.
static QString jsonPointer(const std::vector<std::string> &context)
{
    QString pointer;
    for (const std::string &part : context) {
        QString segment = QString::fromStdString(part);
        if (segment == u"<root>")
            continue;
        if (segment.startsWith(u'[') && segment.endsWith(u']'))
            segment = segment.mid(1, segment.size() - 2);
        if (segment.size() >= 2 && segment.startsWith(u'"') && segment.endsWith(u'"'))
            segment = segment.mid(1, segment.size() - 2);
        pointer += u'/' + segment;
    }
    return pointer.isEmpty() ? u"/"_s : pointer;
}

static QString jsonTypeName(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null: return u"null"_s;
    case QJsonValue::Bool: return u"boolean"_s;
    case QJsonValue::Double:
        return value.toDouble() == double(value.toInteger()) ? u"integer"_s : u"number"_s;
    case QJsonValue::String: return u"string"_s;
    case QJsonValue::Array: return u"array"_s;
    case QJsonValue::Object: return u"object"_s;
    case QJsonValue::Undefined: break;
    }
    return u"nothing"_s;
}

// valijson's "Value type not permitted" does not say which type was wanted;
// a model fixes its call faster when told "expected string, got integer".
static QString describeTypeMismatch(const QJsonObject &schema, const QJsonValue &root, const QString &pointer)
{
    QJsonValue subschema = schema;
    QJsonValue value = root;
    const QStringList segments = pointer.split(u'/', Qt::SkipEmptyParts);
    for (const QString &segment : segments) {
        const QJsonObject current = subschema.toObject();
        if (value.isObject()) {
            subschema = current.value(u"properties"_s).toObject().value(segment);
            value = value.toObject().value(segment);
        } else if (value.isArray()) {
            subschema = current.value(u"items"_s);
            value = value.toArray().at(segment.toInt());
        } else {
            return {};
        }
    }
    const QJsonValue expected = subschema.toObject().value(u"type"_s);
    QString expectedText = expected.toString();
    if (expected.isArray()) {
        QStringList names;
        for (const QJsonValue &name : expected.toArray())
            names.append(name.toString());
        expectedText = names.join(u" or "_s);
    }
    if (expectedText.isEmpty())
        return {};
    return u" (expected %1, got %2)"_s.arg(expectedText, jsonTypeName(value));
}

QString SchemaValidator::validate(const QJsonValue &value) const
{
    if (!m_schema)
        return u"the tool's parameter schema is invalid: %1"_s.arg(m_schemaError);

    valijson::Validator validator;
    valijson::ValidationResults results;
    try {
        if (validator.validate(*m_schema, valijson::adapters::QtJsonAdapter(value), &results))
            return {};
    } catch (const std::exception &e) {
        return u"the arguments could not be validated: %1"_s.arg(QString::fromUtf8(e.what()));
    }

    // valijson reports a failing leaf and then each enclosing rule that failed
    // because of it; keep every distinct line so the model sees the leaf and its context.
    QStringList lines;
    valijson::ValidationResults::Error error;
    while (results.popError(error)) {
        const QString path = jsonPointer(error.context);
        QString line = u"at %1: %2"_s.arg(path, QString::fromStdString(error.description));
        if (line.contains(u"'type' constraint"_s))
            line += describeTypeMismatch(m_schemaJson, value, path);
        if (!lines.contains(line))
            lines.append(line);
    }
    return lines.join(u'\n');
}

} // namespace Loopscope
