#include "ui/chat/samplingcard.h"

#include "agent/mcp/mcpsampling.h"
#include "ui/chat/chatsurface.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

// A message whose content is one text block (or an array of text blocks) can be edited as text.
bool isPlainText(const QJsonObject &message)
{
    const QJsonValue content = message.value("content"_L1);
    const QJsonArray blocks = content.isArray() ? content.toArray() : QJsonArray{content};
    for (const QJsonValue &block : blocks) {
        if (block.toObject().value("type"_L1).toString() != "text"_L1)
            return false;
    }
    return !blocks.isEmpty();
}

QPlainTextEdit *textEdit(const QString &text, const QString &name, QWidget *parent)
{
    auto *edit = new QPlainTextEdit(text, parent);
    edit->setAccessibleName(name);
    edit->setTabChangesFocus(true);
    const int lines = std::clamp(int(text.count(u'\n')) + 2, 2, 8);
    edit->setFixedHeight(edit->fontMetrics().lineSpacing() * lines + 2 * edit->frameWidth() + 8);
    return edit;
}

} // namespace

SamplingCard::SamplingCard(const McpSamplingRequest &request, const QString &sessionModel, QWidget *parent)
    : QWidget(parent)
    , m_request(request)
    , m_sessionModel(sessionModel)
    , m_systemPrompt(textEdit(request.systemPrompt, tr("System prompt"), this))
    , m_maxTokens(new QSpinBox(this))
    , m_model(new QLineEdit(sessionModel, this))
    , m_outcome(new QLabel(this))
    , m_run(new QPushButton(tr("Run"), this))
    , m_decline(new QPushButton(tr("Decline"), this))
{
    setAccessibleName(tr("Model call asked for by the MCP server %1").arg(request.serverName));
    auto *title = new QLabel(
        tr("The MCP server <b>%1</b> asks for a model call:").arg(request.serverName.toHtmlEscaped()), this);
    title->setTextFormat(Qt::RichText);
    title->setWordWrap(true);

    auto *form = new QFormLayout;
    if (const QString preferred = request.preferredModel(); !preferred.isEmpty()) {
        auto *hint = new QLabel(preferred, this);
        hint->setTextInteractionFlags(Qt::TextSelectableByMouse);
        form->addRow(tr("It prefers:"), hint);
    }
    m_systemPrompt->setPlaceholderText(tr("No system prompt"));
    form->addRow(tr("System prompt:"), m_systemPrompt);
    for (int i = 0; i < request.messages.size(); ++i) {
        const QJsonObject message = request.messages.at(i).toObject();
        const bool assistant = message.value("role"_L1).toString() == "assistant"_L1;
        const QString role = assistant ? tr("Assistant:") : tr("User:");
        const QString text = McpSampling::messageText(message);
        if (isPlainText(message)) {
            QPlainTextEdit *edit = textEdit(text, tr("Message %1").arg(i + 1), this);
            m_messages.append(edit);
            form->addRow(role, edit);
        } else {
            // Images, tool calls and their results are shown, not edited: they go as the server sent them.
            auto *shown = new QLabel(text, this);
            shown->setTextFormat(Qt::PlainText);
            shown->setWordWrap(true);
            shown->setTextInteractionFlags(Qt::TextSelectableByMouse);
            m_messages.append(nullptr);
            form->addRow(role, shown);
        }
    }
    if (!request.tools.isEmpty()) {
        QStringList names;
        for (const QJsonValue &tool : request.tools)
            names.append(tool.toObject().value("name"_L1).toString());
        auto *tools = new QLabel(names.join(", "_L1), this);
        tools->setWordWrap(true);
        tools->setToolTip(tr("The model may ask for these tools; the server runs them, not Loopscope."));
        form->addRow(tr("Tools offered:"), tools);
    }
    m_maxTokens->setRange(1, 1'000'000);
    m_maxTokens->setValue(request.maxTokens > 0 ? request.maxTokens : 1000);
    m_maxTokens->setAccessibleName(tr("Most tokens the model may answer with"));
    form->addRow(tr("At most:"), m_maxTokens);
    m_model->setPlaceholderText(tr("The session's model"));
    m_model->setAccessibleName(tr("Model to run on"));
    form->addRow(tr("Model:"), m_model);

    m_outcome->setWordWrap(true);
    m_outcome->setForegroundRole(QPalette::PlaceholderText);
    m_outcome->hide();
    m_run->setToolTip(tr("Send this to the model on your provider and give the server its answer"));
    m_decline->setToolTip(tr("Tell the server you do not allow this model call"));
    connect(m_run, &QPushButton::clicked, this, [this] { decide(true); });
    connect(m_decline, &QPushButton::clicked, this, [this] { decide(false); });

    auto *buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->addWidget(m_run);
    buttons->addStretch(1);
    buttons->addWidget(m_decline);

    const int padding = chatSpacing(this, 0.5);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(padding, padding, padding, padding);
    layout->setSpacing(chatSpacing(this, 0.4));
    layout->addWidget(title);
    layout->addLayout(form);
    layout->addWidget(m_outcome);
    layout->addLayout(buttons);
}

McpSamplingDecision SamplingCard::decision(bool accepted) const
{
    McpSamplingDecision decision;
    decision.accepted = accepted;
    decision.request = m_request;
    decision.request.systemPrompt = m_systemPrompt->toPlainText();
    decision.request.maxTokens = m_maxTokens->value();
    QJsonArray messages;
    for (int i = 0; i < m_request.messages.size(); ++i) {
        QJsonObject message = m_request.messages.at(i).toObject();
        if (const QPlainTextEdit *edit = m_messages.value(i);
            edit && edit->toPlainText() != McpSampling::messageText(message))
            message.insert("content"_L1,
                           QJsonObject{{"type"_L1, "text"_L1}, {"text"_L1, edit->toPlainText()}});
        messages.append(message);
    }
    decision.request.messages = messages;
    const QString model = m_model->text().trimmed();
    decision.model = model == m_sessionModel ? QString() : model;
    return decision;
}

void SamplingCard::decide(bool accepted)
{
    if (m_closed)
        return;
    const McpSamplingDecision chosen = decision(accepted);
    finish(accepted ? tr("You allowed the model call.") : tr("You declined the model call."));
    emit decided(chosen);
}

void SamplingCard::finish(const QString &outcome)
{
    m_closed = true;
    for (QWidget *field : findChildren<QWidget *>()) {
        if (field != m_outcome && !qobject_cast<QLabel *>(field))
            field->setEnabled(false);
    }
    m_run->hide();
    m_decline->hide();
    m_outcome->setText(outcome);
    m_outcome->show();
}

void SamplingCard::paintEvent(QPaintEvent *event)
{
    Q_UNUSED(event);
    QPainter painter(this);
    paintSurface(painter, this, ChatSurface::Approval);
}

} // namespace Loopscope::Ui
