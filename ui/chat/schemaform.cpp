#include "ui/chat/schemaform.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDate>
#include <QDateTime>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QUrl>
#include <QVBoxLayout>

#include <limits>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

// Choices of a string field: enum (with enumNames as labels) or oneOf [{const, title}].
QList<std::pair<QString, QString>> choicesOf(const QJsonObject &schema)
{
    QList<std::pair<QString, QString>> choices;
    const QJsonArray values = schema.value("enum"_L1).toArray();
    const QJsonArray labels = schema.value("enumNames"_L1).toArray();
    for (qsizetype i = 0; i < values.size(); ++i) {
        const QString value = values.at(i).toVariant().toString();
        choices.append({value, labels.at(i).toString(value)});
    }
    for (const QLatin1StringView key : {"oneOf"_L1, "anyOf"_L1}) {
        for (const QJsonValue &option : schema.value(key).toArray()) {
            const QString value = option.toObject().value("const"_L1).toVariant().toString();
            choices.append({value, option.toObject().value("title"_L1).toString(value)});
        }
    }
    return choices;
}

// An object, or an array whose items are not a list of choices: typed as JSON.
bool isJsonField(const QJsonObject &schema)
{
    const QString type = schema.value("type"_L1).toString();
    if (type == "object"_L1)
        return true;
    return type == "array"_L1 && choicesOf(schema.value("items"_L1).toObject()).isEmpty();
}

} // namespace

SchemaForm::SchemaForm(const QJsonObject &schema, QWidget *parent)
    : QWidget(parent)
    , m_properties(schema.value("properties"_L1).toObject())
    , m_form(new QFormLayout(this))
{
    m_form->setContentsMargins(0, 0, 0, 0);
    for (const QJsonValue &name : schema.value("required"_L1).toArray())
        m_required.append(name.toString());

    // QJsonObject keeps its keys sorted: required fields first, then the rest, each in that order.
    for (const QString &name : std::as_const(m_required)) {
        if (m_properties.contains(name))
            m_order.append(name);
    }
    for (auto it = m_properties.constBegin(); it != m_properties.constEnd(); ++it) {
        if (!m_order.contains(it.key()))
            m_order.append(it.key());
    }
    for (const QString &name : std::as_const(m_order))
        addField(name, m_properties.value(name).toObject(), m_required.contains(name));
    validate();
}

SchemaForm::~SchemaForm() = default;

void SchemaForm::addField(const QString &property, const QJsonObject &schema, bool required)
{
    const QString type = schema.value("type"_L1).toString();
    const QString description = schema.value("description"_L1).toString();
    const QJsonValue initial = schema.value("default"_L1);
    QWidget *field = nullptr;
    const QList<std::pair<QString, QString>> choices = choicesOf(schema);

    if (isJsonField(schema)) {
        auto *edit = new QLineEdit(this);
        edit->setProperty("json", true);
        if (!initial.isUndefined())
            edit->setText(QString::fromUtf8(
                QJsonDocument::fromVariant(initial.toVariant()).toJson(QJsonDocument::Compact)));
        edit->setPlaceholderText(type == "object"_L1 ? tr("JSON object, e.g. {\"key\": \"value\"}")
                                                     : tr("JSON array, e.g. [1, 2]"));
        connect(edit, &QLineEdit::textChanged, this, &SchemaForm::validate);
        field = edit;
    } else if (type == "array"_L1) {
        // A multi-select: a check box per choice of its items.
        auto *box = new QWidget(this);
        box->setProperty("multiSelect", true);
        auto *boxLayout = new QVBoxLayout(box);
        boxLayout->setContentsMargins(0, 0, 0, 0);
        QStringList defaults;
        for (const QJsonValue &value : initial.toArray())
            defaults.append(value.toString());
        for (const auto &[value, label] : choicesOf(schema.value("items"_L1).toObject())) {
            auto *check = new QCheckBox(label, box);
            check->setProperty("choice", value);
            check->setChecked(defaults.contains(value));
            connect(check, &QCheckBox::toggled, this, &SchemaForm::validate);
            boxLayout->addWidget(check);
        }
        field = box;
    } else if (!choices.isEmpty()) {
        auto *combo = new QComboBox(this);
        if (!required)
            combo->addItem(tr("(none)"), QString());
        for (const auto &[value, label] : choices)
            combo->addItem(label, value);
        if (!initial.isUndefined() && !initial.isNull())
            combo->setCurrentIndex(qMax(0, combo->findData(initial.toVariant().toString())));
        connect(combo, &QComboBox::currentIndexChanged, this, &SchemaForm::validate);
        field = combo;
    } else if (type == "boolean"_L1) {
        auto *check = new QCheckBox(this);
        check->setChecked(initial.toBool(false));
        field = check;
    } else if (type == "integer"_L1) {
        auto *spin = new QSpinBox(this);
        spin->setRange(schema.value("minimum"_L1).toInt(std::numeric_limits<int>::min()),
                       schema.value("maximum"_L1).toInt(std::numeric_limits<int>::max()));
        spin->setValue(initial.isDouble() ? initial.toInt() : qBound(spin->minimum(), 0, spin->maximum()));
        connect(spin, &QSpinBox::valueChanged, this, [this, property] { m_touched.insert(property); });
        field = spin;
    } else if (type == "number"_L1) {
        auto *spin = new QDoubleSpinBox(this);
        spin->setDecimals(3);
        spin->setRange(schema.value("minimum"_L1).toDouble(-1e12), schema.value("maximum"_L1).toDouble(1e12));
        spin->setValue(initial.isDouble() ? initial.toDouble()
                                          : qBound(spin->minimum(), 0.0, spin->maximum()));
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this, property] { m_touched.insert(property); });
        field = spin;
    } else {
        auto *edit = new QLineEdit(this);
        edit->setText(initial.toString());
        const QString format = schema.value("format"_L1).toString();
        if (format == "email"_L1)
            edit->setPlaceholderText(tr("name@example.com"));
        else if (format == "uri"_L1)
            edit->setPlaceholderText(tr("https://…"));
        else if (format == "date"_L1)
            edit->setPlaceholderText(tr("YYYY-MM-DD"));
        else if (format == "date-time"_L1)
            edit->setPlaceholderText(tr("YYYY-MM-DDTHH:MM:SSZ"));
        else if (!description.isEmpty())
            edit->setPlaceholderText(description);
        if (const int maxLength = schema.value("maxLength"_L1).toInt(0); maxLength > 0)
            edit->setMaxLength(maxLength);
        connect(edit, &QLineEdit::textChanged, this, &SchemaForm::validate);
        field = edit;
    }
    const QString title = schema.value("title"_L1).toString(property);
    field->setObjectName(u"schemaField_"_s + property);
    field->setAccessibleName(required ? tr("%1 (required)").arg(title) : title);
    field->setToolTip(description);
    auto *label = new QLabel(required ? tr("%1 *").arg(title) : title, this);
    label->setBuddy(field);
    if (required)
        label->setToolTip(tr("Required"));
    m_form->addRow(label, field);
    m_fields.insert(property, field);
}

QJsonObject SchemaForm::content() const
{
    QJsonObject content;
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it) {
        const QString &name = it.key();
        const bool required = m_required.contains(name);
        const QJsonObject schema = m_properties.value(name).toObject();
        const bool hasDefault = schema.contains("default"_L1);
        if (it.value()->property("multiSelect").toBool()) {
            QJsonArray chosen;
            for (const QCheckBox *check : it.value()->findChildren<QCheckBox *>()) {
                if (check->isChecked())
                    chosen.append(check->property("choice").toString());
            }
            if (!chosen.isEmpty() || required)
                content.insert(name, chosen);
        } else if (auto *combo = qobject_cast<QComboBox *>(it.value())) {
            const QString value = combo->currentData().toString();
            if (value.isEmpty() && !required)
                continue;
            // A choice of numbers stays a number.
            const QString type = schema.value("type"_L1).toString();
            if (type == "integer"_L1 || type == "number"_L1)
                content.insert(name, value.toDouble());
            else
                content.insert(name, value);
        } else if (auto *check = qobject_cast<QCheckBox *>(it.value())) {
            content.insert(name, check->isChecked());
        } else if (auto *spin = qobject_cast<QSpinBox *>(it.value())) {
            if (required || m_touched.contains(name) || hasDefault)
                content.insert(name, spin->value());
        } else if (auto *spin = qobject_cast<QDoubleSpinBox *>(it.value())) {
            if (required || m_touched.contains(name) || hasDefault)
                content.insert(name, spin->value());
        } else if (auto *edit = qobject_cast<QLineEdit *>(it.value())) {
            const QString text = edit->text().trimmed();
            if (edit->property("json").toBool()) {
                if (!text.isEmpty())
                    content.insert(name, QJsonDocument::fromJson(u"[%1]"_s.arg(text).toUtf8()).array().at(0));
            } else if (!text.isEmpty() || required) {
                content.insert(name, text);
            }
        }
    }
    return content;
}

void SchemaForm::setFieldsEnabled(bool enabled)
{
    for (QWidget *field : std::as_const(m_fields))
        field->setEnabled(enabled);
}

void SchemaForm::validate()
{
    m_problem.clear();
    // The first problem in the form's order.
    for (const QString &property : std::as_const(m_order)) {
        m_problem = problemOf(property);
        if (!m_problem.isEmpty())
            break;
    }
    emit validated();
}

QString SchemaForm::problemOf(const QString &property) const
{
    QWidget *field = m_fields.value(property);
    const QJsonObject schema = m_properties.value(property).toObject();
    const QString title = schema.value("title"_L1).toString(property);
    const bool required = m_required.contains(property);
    auto *edit = qobject_cast<QLineEdit *>(field);
    auto *combo = qobject_cast<QComboBox *>(field);
    if (field->property("multiSelect").toBool()) {
        int chosen = 0;
        for (const QCheckBox *check : field->findChildren<QCheckBox *>())
            chosen += check->isChecked() ? 1 : 0;
        const int minItems = schema.value("minItems"_L1).toInt(required ? 1 : 0);
        const int maxItems = schema.value("maxItems"_L1).toInt(std::numeric_limits<int>::max());
        if (chosen < minItems)
            return tr("Choose at least %1 for %2.").arg(minItems).arg(title);
        if (chosen > maxItems)
            return tr("Choose at most %1 for %2.").arg(maxItems).arg(title);
        return {};
    }
    if (combo && required && combo->currentData().toString().isEmpty())
        return tr("Choose %1.").arg(title);
    if (!edit)
        return {};
    const QString text = edit->text().trimmed();
    if (text.isEmpty())
        return required ? tr("Fill in %1.").arg(title) : QString();
    if (edit->property("json").toBool()) {
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(u"[%1]"_s.arg(text).toUtf8(), &error);
        const QJsonValue value = document.array().at(0);
        const bool wantObject = schema.value("type"_L1).toString() == "object"_L1;
        if (error.error != QJsonParseError::NoError || document.array().size() != 1
            || (wantObject ? !value.isObject() : !value.isArray()))
            return wantObject ? tr("%1 must be a JSON object.").arg(title)
                              : tr("%1 must be a JSON array.").arg(title);
        return {};
    }
    const QString format = schema.value("format"_L1).toString();
    static const QRegularExpression email(u"^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$"_s);
    if (format == "email"_L1 && !email.match(text).hasMatch())
        return tr("%1 must be an email address.").arg(title);
    if (format == "uri"_L1 && (!QUrl(text, QUrl::StrictMode).isValid() || QUrl(text).scheme().isEmpty()))
        return tr("%1 must be an address such as https://example.com.").arg(title);
    if (format == "date"_L1 && !QDate::fromString(text, Qt::ISODate).isValid())
        return tr("%1 must be a date such as 2026-01-31.").arg(title);
    if (format == "date-time"_L1 && !QDateTime::fromString(text, Qt::ISODate).isValid())
        return tr("%1 must be a date and time such as 2026-01-31T09:00:00Z.").arg(title);
    if (const int minLength = schema.value("minLength"_L1).toInt(0); text.size() < minLength)
        return tr("%1 needs at least %n character(s).", nullptr, minLength).arg(title);
    return {};
}

} // namespace Loopscope::Ui
