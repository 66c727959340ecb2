#include "ui/chat/elicitationcard.h"

#include "ui/chat/chatsurface.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDate>
#include <QDateTime>
#include <QDesktopServices>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
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

} // namespace

ElicitationCard::ElicitationCard(const McpElicitation &request, QWidget *parent)
    : QWidget(parent)
    , m_properties(request.requestedSchema.value("properties"_L1).toObject())
    , m_form(new QFormLayout)
    , m_problemLabel(new QLabel(this))
    , m_outcome(new QLabel(this))
    , m_accept(new QPushButton(tr("Accept"), this))
    , m_decline(new QPushButton(tr("Decline"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
{
    setAccessibleName(tr("Question from the MCP server %1").arg(request.serverName));
    for (const QJsonValue &name : request.requestedSchema.value("required"_L1).toArray())
        m_required.append(name.toString());

    auto *title
        = new QLabel(tr("The MCP server <b>%1</b> asks:").arg(request.serverName.toHtmlEscaped()), this);
    title->setTextFormat(Qt::RichText);
    title->setWordWrap(true);
    auto *message = new QLabel(request.message, this);
    message->setObjectName(u"elicitationMessage"_s);
    message->setTextFormat(Qt::PlainText);
    message->setWordWrap(true);
    message->setTextInteractionFlags(Qt::TextSelectableByMouse);

    QLabel *link = nullptr;
    if (request.isUrl()) {
        // URL mode: the whole address is shown before anything is opened, never a shortened one.
        m_url = request.url;
        link = new QLabel(tr("It asks you to open: %1").arg(m_url.toString()), this);
        link->setObjectName(u"elicitationUrl"_s);
        link->setTextFormat(Qt::PlainText);
        link->setWordWrap(true);
        link->setTextInteractionFlags(Qt::TextSelectableByMouse);
        m_accept->setText(tr("Open"));
    }

    // QJsonObject keeps its keys sorted: required fields first, then the rest, each in that order.
    QStringList order;
    for (const QString &name : std::as_const(m_required)) {
        if (m_properties.contains(name))
            order.append(name);
    }
    for (auto it = m_properties.constBegin(); it != m_properties.constEnd(); ++it) {
        if (!order.contains(it.key()))
            order.append(it.key());
    }
    for (const QString &name : std::as_const(order))
        addField(name, m_properties.value(name).toObject(), m_required.contains(name));
    m_order = order;

    m_problemLabel->setWordWrap(true);
    m_problemLabel->setForegroundRole(QPalette::PlaceholderText);
    m_problemLabel->setAccessibleName(tr("What the answer still needs"));
    m_outcome->setWordWrap(true);
    m_outcome->setForegroundRole(QPalette::PlaceholderText);
    m_outcome->hide();

    m_accept->setToolTip(m_url.isEmpty()
                             ? tr("Send these values to the server")
                             : tr("Open the address in your browser and tell the server you did"));
    m_decline->setToolTip(tr("Tell the server you do not want to answer"));
    m_cancel->setToolTip(tr("Dismiss the question without an answer"));
    connect(m_accept, &QPushButton::clicked, this, [this] { answer(McpElicitationAnswer::Action::Accept); });
    connect(m_decline, &QPushButton::clicked, this,
            [this] { answer(McpElicitationAnswer::Action::Decline); });
    connect(m_cancel, &QPushButton::clicked, this, [this] { answer(McpElicitationAnswer::Action::Cancel); });

    auto *buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->addWidget(m_accept);
    buttons->addStretch(1);
    buttons->addWidget(m_decline);
    buttons->addWidget(m_cancel);

    const int padding = chatSpacing(this, 0.5);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(padding, padding, padding, padding);
    layout->setSpacing(chatSpacing(this, 0.4));
    layout->addWidget(title);
    layout->addWidget(message);
    if (link)
        layout->addWidget(link);
    layout->addLayout(m_form);
    layout->addWidget(m_problemLabel);
    layout->addWidget(m_outcome);
    layout->addLayout(buttons);
    validate();
}

ElicitationCard::~ElicitationCard() = default;

void ElicitationCard::addField(const QString &property, const QJsonObject &schema, bool required)
{
    const QString type = schema.value("type"_L1).toString();
    const QString description = schema.value("description"_L1).toString();
    const QJsonValue initial = schema.value("default"_L1);
    QWidget *field = nullptr;
    const QList<std::pair<QString, QString>> choices = choicesOf(schema);

    if (type == "array"_L1) {
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
            connect(check, &QCheckBox::toggled, this, &ElicitationCard::validate);
            boxLayout->addWidget(check);
        }
        field = box;
    } else if (!choices.isEmpty()) {
        auto *combo = new QComboBox(this);
        if (!required)
            combo->addItem(tr("(none)"), QString());
        for (const auto &[value, label] : choices)
            combo->addItem(label, value);
        if (initial.isString())
            combo->setCurrentIndex(qMax(0, combo->findData(initial.toString())));
        connect(combo, &QComboBox::currentIndexChanged, this, &ElicitationCard::validate);
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
        connect(edit, &QLineEdit::textChanged, this, &ElicitationCard::validate);
        field = edit;
    }
    const QString title = schema.value("title"_L1).toString(property);
    field->setObjectName(u"elicitationField_"_s + property);
    field->setAccessibleName(required ? tr("%1 (required)").arg(title) : title);
    field->setToolTip(description);
    auto *label = new QLabel(required ? tr("%1 *").arg(title) : title, this);
    label->setBuddy(field);
    if (required)
        label->setToolTip(tr("Required"));
    m_form->addRow(label, field);
    m_fields.insert(property, field);
}

QJsonObject ElicitationCard::content() const
{
    QJsonObject content;
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it) {
        const QString &name = it.key();
        const bool required = m_required.contains(name);
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
            const QJsonObject schema = m_properties.value(name).toObject();
            const QString type = schema.value("type"_L1).toString();
            if (type == "integer"_L1 || type == "number"_L1)
                content.insert(name, value.toDouble());
            else
                content.insert(name, value);
        } else if (auto *check = qobject_cast<QCheckBox *>(it.value())) {
            content.insert(name, check->isChecked());
        } else if (auto *spin = qobject_cast<QSpinBox *>(it.value())) {
            if (required || m_touched.contains(name)
                || m_properties.value(name).toObject().contains("default"_L1))
                content.insert(name, spin->value());
        } else if (auto *spin = qobject_cast<QDoubleSpinBox *>(it.value())) {
            if (required || m_touched.contains(name)
                || m_properties.value(name).toObject().contains("default"_L1))
                content.insert(name, spin->value());
        } else if (auto *edit = qobject_cast<QLineEdit *>(it.value())) {
            const QString text = edit->text().trimmed();
            if (!text.isEmpty() || required)
                content.insert(name, text);
        }
    }
    return content;
}

void ElicitationCard::validate()
{
    m_problem.clear();
    // The first problem in the form's order.
    for (const QString &property : std::as_const(m_order)) {
        if (!m_problem.isEmpty())
            break;
        QWidget *field = m_fields.value(property);
        const QJsonObject schema = m_properties.value(property).toObject();
        const QString title = schema.value("title"_L1).toString(property);
        auto *edit = qobject_cast<QLineEdit *>(field);
        auto *combo = qobject_cast<QComboBox *>(field);
        if (field->property("multiSelect").toBool()) {
            int chosen = 0;
            for (const QCheckBox *check : field->findChildren<QCheckBox *>())
                chosen += check->isChecked() ? 1 : 0;
            const int minItems = schema.value("minItems"_L1).toInt(m_required.contains(property) ? 1 : 0);
            const int maxItems = schema.value("maxItems"_L1).toInt(std::numeric_limits<int>::max());
            if (chosen < minItems)
                m_problem = tr("Choose at least %1 for %2.").arg(minItems).arg(title);
            else if (chosen > maxItems)
                m_problem = tr("Choose at most %1 for %2.").arg(maxItems).arg(title);
            continue;
        }
        if (combo && m_required.contains(property) && combo->currentData().toString().isEmpty()) {
            m_problem = tr("Choose %1.").arg(title);
            continue;
        }
        if (!edit)
            continue;
        const QString text = edit->text().trimmed();
        if (text.isEmpty()) {
            if (m_required.contains(property))
                m_problem = tr("Fill in %1.").arg(title);
            continue;
        }
        const QString format = schema.value("format"_L1).toString();
        static const QRegularExpression email(u"^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$"_s);
        if (format == "email"_L1 && !email.match(text).hasMatch())
            m_problem = tr("%1 must be an email address.").arg(title);
        else if (format == "uri"_L1
                 && (!QUrl(text, QUrl::StrictMode).isValid() || QUrl(text).scheme().isEmpty()))
            m_problem = tr("%1 must be an address such as https://example.com.").arg(title);
        else if (format == "date"_L1 && !QDate::fromString(text, Qt::ISODate).isValid())
            m_problem = tr("%1 must be a date such as 2026-01-31.").arg(title);
        else if (format == "date-time"_L1 && !QDateTime::fromString(text, Qt::ISODate).isValid())
            m_problem = tr("%1 must be a date and time such as 2026-01-31T09:00:00Z.").arg(title);
        else if (const int minLength = schema.value("minLength"_L1).toInt(0); text.size() < minLength)
            m_problem = tr("%1 needs at least %n character(s).", nullptr, minLength).arg(title);
    }
    m_problemLabel->setText(m_problem);
    m_problemLabel->setVisible(!m_problem.isEmpty());
    m_accept->setEnabled(!m_closed && m_problem.isEmpty());
}

void ElicitationCard::answer(McpElicitationAnswer::Action action)
{
    if (m_closed)
        return;
    McpElicitationAnswer reply;
    reply.action = action;
    if (action == McpElicitationAnswer::Action::Accept && !m_url.isEmpty())
        QDesktopServices::openUrl(m_url); // the server only learns that the user agreed
    else if (action == McpElicitationAnswer::Action::Accept)
        reply.content = content();
    switch (action) {
    case McpElicitationAnswer::Action::Accept: finish(tr("You answered.")); break;
    case McpElicitationAnswer::Action::Decline: finish(tr("You declined.")); break;
    case McpElicitationAnswer::Action::Cancel: finish(tr("You dismissed the question.")); break;
    }
    emit answered(reply);
}

void ElicitationCard::finish(const QString &outcome)
{
    m_closed = true;
    for (QWidget *field : std::as_const(m_fields))
        field->setEnabled(false);
    for (QPushButton *button : {m_accept, m_decline, m_cancel})
        button->hide();
    m_problemLabel->hide();
    m_outcome->setText(outcome);
    m_outcome->show();
}

void ElicitationCard::paintEvent(QPaintEvent *event)
{
    Q_UNUSED(event);
    QPainter painter(this);
    paintSurface(painter, this, ChatSurface::Approval);
}

} // namespace Loopscope::Ui
