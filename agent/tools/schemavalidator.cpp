#include "schemavalidator.h"

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
        const QString line = u"at %1: %2"_s.arg(path, QString::fromStdString(error.description));
        if (!lines.contains(line))
            lines.append(line);
    }
    return lines.join(u'\n');
}

} // namespace Loopscope
