#pragma once

#include <QHash>
#include <QJsonObject>
#include <QSet>
#include <QStringList>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QFormLayout;
QT_END_NAMESPACE

namespace Loopscope::Ui {

/*!
    A form built from a JSON object schema, as MCP uses them for an
    elicitation's requested schema and a tool's input schema: a field per
    property (text, number, yes/no, choice, multi-choice; an object or a free
    array as a line of JSON), required ones first and marked, defaults
    filled in. It validates as the user types and says what to fix first;
    content() holds the values the user set. Shared by the chat's
    elicitation card and the MCP Inspector.
*/
class SchemaForm final : public QWidget
{
    Q_OBJECT

public:
    explicit SchemaForm(const QJsonObject &schema, QWidget *parent = nullptr);
    ~SchemaForm() override;

    // The form's values: required fields always, optional ones once set.
    QJsonObject content() const;
    // Empty when the values are complete and valid; else what to fix first.
    QString problem() const { return m_problem; }
    bool isEmpty() const { return m_fields.isEmpty(); }
    // The field widget of a property (a QLineEdit, QSpinBox, QDoubleSpinBox, QCheckBox, QComboBox or,
    // for a multi-choice, a QWidget of check boxes).
    QWidget *field(const QString &property) const { return m_fields.value(property); }
    void setFieldsEnabled(bool enabled);

signals:
    // A value changed and problem() is current again.
    void validated();

private:
    void addField(const QString &property, const QJsonObject &schema, bool required);
    void validate();
    QString problemOf(const QString &property) const;

    QJsonObject m_properties;
    QStringList m_required;
    QStringList m_order; // the fields as shown: required first
    QHash<QString, QWidget *> m_fields;
    QSet<QString> m_touched; // optional numbers are sent only once set
    QString m_problem;
    QFormLayout *m_form;
};

} // namespace Loopscope::Ui
