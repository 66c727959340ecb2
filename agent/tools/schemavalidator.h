#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <memory>

namespace valijson {
class Schema;
}

namespace Loopscope {

/*!
    A tool's parameter schema, compiled once, that checks arguments and says
    in words where they break it ("at /items/0: expected type integer...").
    Wraps valijson so that no other file needs its headers.
*/
class SchemaValidator final
{
public:
    explicit SchemaValidator(const QJsonObject &schema);
    ~SchemaValidator();
    SchemaValidator(const SchemaValidator &) = delete;
    SchemaValidator &operator=(const SchemaValidator &) = delete;

    // Empty when the schema itself could be compiled.
    QString schemaError() const { return m_schemaError; }

    // Empty when the value satisfies the schema; else one line per violation.
    QString validate(const QJsonValue &value) const;

private:
    std::unique_ptr<valijson::Schema> m_schema;
    QJsonObject m_schemaJson;
    QString m_schemaError;
};

} // namespace Loopscope
