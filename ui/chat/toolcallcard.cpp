#include "ui/chat/toolcallcard.h"

#include "ui/chat/approvalcard.h"
#include "ui/chat/codeblockview.h"
#include "ui/trace/traceicons.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

QString compact(const QString &text);

// JSON indented for reading; anything else as it came.
QString readable(const QString &text)
{
    const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8());
    if (document.isNull())
        return text;
    if ((document.isObject() && document.object().isEmpty())
        || (document.isArray() && document.array().isEmpty()))
        return compact(text); // "{}" rather than "{\n}"
    return QString::fromUtf8(document.toJson(QJsonDocument::Indented)).trimmed();
}

// A call without arguments still shows its (empty) object.
QString argumentsText(const QString &arguments)
{
    return arguments.trimmed().isEmpty() ? u"{}"_s : arguments;
}

QString compact(const QString &text)
{
    const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8());
    if (document.isNull())
        return text.simplified();
    return QString::fromUtf8(document.toJson(QJsonDocument::Compact));
}

QLabel *sectionTitle(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setForegroundRole(QPalette::PlaceholderText);
    return label;
}

} // namespace

// One line, shortened with an ellipsis to the width the header leaves it.
class ElidedLabel final : public QLabel
{
public:
    using QLabel::QLabel;

    void setFullText(const QString &text)
    {
        m_fullText = text;
        setToolTip(text);
        elide();
    }

protected:
    void resizeEvent(QResizeEvent *event) override
    {
        QLabel::resizeEvent(event);
        elide();
    }

private:
    void elide() { setText(fontMetrics().elidedText(m_fullText, Qt::ElideRight, std::max(0, width()))); }

    QString m_fullText;
};

ToolCallCard::ToolCallCard(const ToolCall &call, QWidget *parent)
    : ChatItem(Kind::ToolCall, parent)
    , m_call(call)
    , m_toggle(new QToolButton(this))
    , m_preview(new ElidedLabel(this))
    , m_statusLabel(new QLabel(this))
    , m_busy(new QProgressBar(this))
    , m_body(new QWidget(this))
    , m_bodyLayout(new QVBoxLayout(m_body))
    , m_argumentsTitle(sectionTitle(tr("Arguments"), m_body))
    , m_progressLabel(new QLabel(m_body))
    , m_resultTitle(sectionTitle(tr("Result"), m_body))
{
    setSurface(ChatSurface::Card);
    setAccessibleName(tr("Tool call %1").arg(call.name));

    m_toggle->setText(call.name);
    m_toggle->setAutoRaise(true);
    m_toggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toggle->setArrowType(Qt::RightArrow);
    m_toggle->setAccessibleName(tr("Show the details of %1").arg(call.name));
    m_toggle->setToolTip(tr("Show or hide the arguments and the result"));
    QFont bold = m_toggle->font();
    bold.setBold(true);
    m_toggle->setFont(bold);
    connect(m_toggle, &QToolButton::clicked, this, [this] { setExpanded(!isExpanded()); });

    // The preview takes what room is left.
    m_preview->setForegroundRole(QPalette::PlaceholderText);
    m_preview->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_preview->setMinimumWidth(0);
    m_statusLabel->setAccessibleName(tr("Status"));

    m_busy->setRange(0, 0);
    m_busy->setTextVisible(false);
    m_busy->setAccessibleName(tr("%1 is running").arg(call.name));
    m_busy->setMaximumWidth(fontMetrics().averageCharWidth() * 10);
    m_busy->setMaximumHeight(std::max(fontMetrics().height() / 2, 2));

    auto *header = new QHBoxLayout;
    header->setContentsMargins(0, 0, 0, 0);
    header->setSpacing(chatSpacing(this, 0.4));
    header->addWidget(m_toggle);
    header->addWidget(m_preview, 1);
    header->addWidget(m_busy);
    header->addWidget(m_statusLabel);

    m_progressLabel->setWordWrap(true);
    m_progressLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progressLabel->setAccessibleName(tr("Progress"));
    m_progressLabel->hide();
    m_resultTitle->hide();

    m_bodyLayout->setContentsMargins(0, 0, 0, 0);
    m_bodyLayout->setSpacing(chatSpacing(this, 0.3));
    m_bodyLayout->addWidget(m_argumentsTitle);
    m_bodyLayout->addWidget(m_progressLabel);
    m_bodyLayout->addWidget(m_resultTitle);
    m_body->hide();

    const int padding = chatSpacing(this, 0.4);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(padding, padding / 2, padding, padding / 2);
    layout->setSpacing(padding);
    layout->addLayout(header);
    layout->addWidget(m_body);

    showArguments();
    setStatus(Status::Running);
}

void ToolCallCard::setCall(const ToolCall &call)
{
    m_call = call;
    showArguments();
}

void ToolCallCard::showArguments()
{
    if (m_arguments)
        m_arguments->setCode(readable(argumentsText(m_call.arguments)), u"json"_s);
    m_preview->setFullText(compact(argumentsText(m_call.arguments)));
}

// The body's two code views, each a text document with its layout, are made the first time the
// body opens: most cards stay collapsed, and a long conversation would otherwise hold two of them
// per call (issue 24 item 13).
void ToolCallCard::createCodeViews()
{
    if (m_arguments)
        return;
    m_arguments = new CodeBlockView(m_body);
    m_arguments->setWrapped(false);
    m_arguments->setMaximumLines(12);
    m_arguments->setAccessibleName(tr("Arguments"));
    m_arguments->setVisible(!m_approval); // the form shows the arguments in full
    m_bodyLayout->insertWidget(m_bodyLayout->indexOf(m_argumentsTitle) + 1, m_arguments);
    m_resultView = new CodeBlockView(m_body);
    m_resultView->setWrapped(true);
    m_resultView->setMaximumLines(16);
    m_resultView->setAccessibleName(tr("Result"));
    m_bodyLayout->insertWidget(m_bodyLayout->indexOf(m_resultTitle) + 1, m_resultView);
    showArguments();
    showResult();
}

void ToolCallCard::showResult()
{
    if (!m_resultView)
        return;
    if (m_hasResult)
        m_resultView->setCode(readable(m_result));
    m_resultView->setVisible(m_hasResult && !m_resultInStatus);
}

bool ToolCallCard::isBusy() const
{
    return m_status == Status::Running;
}

void ToolCallCard::addProgress(const QString &message)
{
    m_progress.append(message);
    m_progressLabel->setText(m_progress.join(u'\n'));
    m_progressLabel->show();
}

void ToolCallCard::setResult(const QString &result, Status status)
{
    m_result = result;
    m_hasResult = true;
    m_resultTitle->setText(status == Status::Succeeded ? tr("Result") : tr("Error"));
    if (m_approval)
        closeApproval(std::nullopt);
    setStatus(status);
    // A denial's result only says so ("Denied by the user."): it replaces the
    // status instead of repeating it below.
    const bool saysTheStatus = status == Status::Denied && !result.contains(u'\n');
    if (saysTheStatus) {
        const int room = fontMetrics().averageCharWidth() * 48;
        m_statusLabel->setText(fontMetrics().elidedText(result.trimmed(), Qt::ElideRight, room));
        m_statusLabel->setToolTip(result.trimmed());
    }
    m_resultInStatus = saysTheStatus;
    m_resultTitle->setVisible(!saysTheStatus);
    showResult();
}

void ToolCallCard::setHeld(bool held)
{
    if (m_hasResult)
        return;
    if (held && m_status == Status::Running)
        setStatus(Status::Held);
    else if (!held && m_status == Status::Held)
        setStatus(Status::Running);
}

ApprovalCard *ToolCallCard::showApproval(const QJsonObject &schema, const Workspace &workspace)
{
    if (m_approval)
        return m_approval;
    createCodeViews();
    m_approval = new ApprovalCard(m_call.name, m_call.arguments, schema, workspace, m_body);
    // The form shows the arguments in full; the read-only copy would repeat them.
    m_bodyLayout->insertWidget(m_bodyLayout->indexOf(m_arguments) + 1, m_approval);
    m_argumentsTitle->hide();
    m_arguments->hide();
    setStatus(Status::AwaitingApproval);
    setExpanded(true);
    return m_approval;
}

void ToolCallCard::closeApproval(std::optional<bool> allowed)
{
    if (!m_approval)
        return;
    m_approval->deleteLater();
    m_approval = nullptr;
    m_argumentsTitle->show();
    if (m_arguments)
        m_arguments->show();
    if (m_hasResult)
        return;
    if (allowed.value_or(false)) {
        setStatus(Status::Running);
        setExpanded(false);
    } else if (allowed.has_value()) {
        setStatus(Status::Denied);
    }
}

bool ToolCallCard::isExpanded() const
{
    return !m_body->isHidden();
}

void ToolCallCard::setExpanded(bool expanded)
{
    if (expanded)
        createCodeViews();
    m_toggle->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    m_toggle->setAccessibleName(expanded ? tr("Hide the details of %1").arg(m_call.name)
                                         : tr("Show the details of %1").arg(m_call.name));
    m_body->setVisible(expanded);
}

void ToolCallCard::setAgent(const QString &agent)
{
    if (agent.isEmpty())
        return;
    //: The title of a tool call a sub-agent made: the agent's name, then the tool's
    m_toggle->setText(tr("%1 › %2").arg(agent, m_call.name));
    setAccessibleName(tr("Tool call %1 of the agent %2").arg(m_call.name, agent));
}

QString ToolCallCard::plainText() const
{
    QString text = m_call.name + u'(' + compact(argumentsText(m_call.arguments)) + u')';
    if (m_hasResult)
        text += u'\n' + m_result;
    return text;
}

QString ToolCallCard::statusText(Status status)
{
    switch (status) {
    case Status::Running: return tr("Running…");
    case Status::AwaitingApproval: return tr("Waiting for your approval");
    case Status::Held: return tr("Paused at a breakpoint");
    case Status::Succeeded: return tr("Done");
    case Status::Failed: return tr("Failed");
    case Status::Denied: return tr("Denied");
    case Status::Blocked: return tr("Blocked by a safety check");
    case Status::Skipped: return tr("Not run");
    case Status::Cancelled: return tr("Cancelled");
    }
    return {};
}

void ToolCallCard::setStatus(Status status)
{
    m_status = status;
    m_statusLabel->setText(statusText(status));
    m_busy->setVisible(status == Status::Running);
    // A failure or a block in the colour of an error, as in the trace; the rest as the card's text.
    if (status == Status::Failed || status == Status::Blocked) {
        QPalette palette = m_statusLabel->palette();
        palette.setColor(QPalette::WindowText, TraceIcons::statusColor(TraceStatus::Error, this->palette()));
        m_statusLabel->setPalette(palette);
    } else {
        m_statusLabel->setPalette(QPalette());
    }
}

} // namespace Loopscope::Ui
