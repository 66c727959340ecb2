#include "ui/chat/approvalcard.h"

#include "ui/chat/chatsurface.h"

#include "agent/tools/schemavalidator.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

QString prettyArguments(const QString &arguments)
{
    const QJsonDocument document = QJsonDocument::fromJson(arguments.toUtf8());
    if (document.isNull())
        return arguments; // not JSON: show what the model sent, to be fixed
    return QString::fromUtf8(document.toJson(QJsonDocument::Indented)).trimmed();
}

} // namespace

ApprovalCard::ApprovalCard(const QString &toolName, const QString &arguments, const QJsonObject &schema,
                           QWidget *parent)
    : QWidget(parent)
    , m_original(QJsonDocument::fromJson(arguments.toUtf8()).object())
    , m_title(new QLabel(this))
    , m_editor(new QPlainTextEdit(this))
    , m_problemLabel(new QLabel(this))
    , m_allowOnce(new QPushButton(tr("Allow once"), this))
    , m_alwaysAllow(new QPushButton(tr("Always allow %1").arg(toolName), this))
    , m_deny(new QPushButton(tr("Deny"), this))
{
    setAccessibleName(tr("Approval for %1").arg(toolName));
    if (!schema.isEmpty()) {
        m_validator = std::make_unique<SchemaValidator>(schema);
        if (!m_validator->schemaError().isEmpty())
            m_validator.reset(); // a broken schema is the tool's problem, not the user's
    }

    m_title->setText(tr("The agent wants to run <b>%1</b>. Check the arguments, edit them if needed, "
                        "and decide.")
                         .arg(toolName.toHtmlEscaped()));
    m_title->setTextFormat(Qt::RichText);
    m_title->setWordWrap(true);

    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setStyleHint(QFont::Monospace);
    if (font().pointSizeF() > 0)
        mono.setPointSizeF(font().pointSizeF());
    m_editor->setFont(mono);
    m_editor->setAccessibleName(tr("Arguments of %1").arg(toolName));
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_editor->setTabChangesFocus(true);
    m_editor->setPlainText(prettyArguments(arguments));

    m_problemLabel->setWordWrap(true);
    m_problemLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problemLabel->setAccessibleName(tr("Problem with the arguments"));

    m_allowOnce->setAccessibleName(tr("Allow this call once"));
    m_allowOnce->setToolTip(tr("Run this call with the arguments above"));
    m_alwaysAllow->setAccessibleName(tr("Always allow %1").arg(toolName));
    m_alwaysAllow->setToolTip(tr("Run this call and never ask again for %1").arg(toolName));
    m_deny->setAccessibleName(tr("Deny this call"));
    m_deny->setToolTip(tr("Do not run it; the model is told that you refused"));

    connect(m_editor, &QPlainTextEdit::textChanged, this, &ApprovalCard::validate);
    connect(m_editor, &QPlainTextEdit::blockCountChanged, this, &ApprovalCard::fitEditor);
    connect(m_allowOnce, &QPushButton::clicked, this, [this] { emit allowOnceRequested(editedArguments()); });
    connect(m_alwaysAllow, &QPushButton::clicked, this,
            [this] { emit alwaysAllowRequested(editedArguments()); });
    connect(m_deny, &QPushButton::clicked, this, &ApprovalCard::denyRequested);

    auto *buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->addWidget(m_allowOnce);
    buttons->addWidget(m_alwaysAllow);
    buttons->addStretch(1);
    buttons->addWidget(m_deny);

    const int padding = chatSpacing(this, 0.5);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(padding, padding, padding, padding);
    layout->setSpacing(chatSpacing(this, 0.4));
    layout->addWidget(m_title);
    layout->addWidget(m_editor);
    layout->addWidget(m_problemLabel);
    layout->addLayout(buttons);

    validate();
    fitEditor();
}

ApprovalCard::~ApprovalCard() = default;

QString ApprovalCard::arguments() const
{
    return m_editor->toPlainText();
}

void ApprovalCard::setArguments(const QString &arguments)
{
    m_editor->setPlainText(arguments);
}

std::optional<QString> ApprovalCard::editedArguments() const
{
    const QJsonDocument document = QJsonDocument::fromJson(arguments().toUtf8());
    if (!document.isObject())
        return std::nullopt;
    // Reformatting is not editing: the trace should not record a change.
    if (document.object() == m_original)
        return std::nullopt;
    return QString::fromUtf8(document.toJson(QJsonDocument::Compact));
}

void ApprovalCard::validate()
{
    QJsonParseError error;
    const QString text = arguments().trimmed();
    const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError)
        m_problem = tr("Not valid JSON: %1 at offset %2.").arg(error.errorString()).arg(error.offset);
    else if (!document.isObject())
        m_problem = tr("The arguments must be a JSON object.");
    else if (m_validator)
        m_problem = m_validator->validate(document.object());
    else
        m_problem.clear();

    m_problemLabel->setText(m_problem);
    m_problemLabel->setVisible(!m_problem.isEmpty());
    m_allowOnce->setEnabled(m_problem.isEmpty());
    m_alwaysAllow->setEnabled(m_problem.isEmpty());
}

// As tall as the arguments, up to a dozen lines; then it scrolls.
void ApprovalCard::fitEditor()
{
    const int lines = std::clamp(m_editor->blockCount(), 2, 12);
    const QMargins margins = m_editor->contentsMargins();
    const int height = lines * m_editor->fontMetrics().lineSpacing()
                       + int(2 * m_editor->document()->documentMargin()) + 2 * m_editor->frameWidth()
                       + margins.top() + margins.bottom()
                       + m_editor->horizontalScrollBar()->sizeHint().height();
    m_editor->setFixedHeight(height);
}

void ApprovalCard::paintEvent(QPaintEvent *event)
{
    Q_UNUSED(event);
    QPainter painter(this);
    paintSurface(painter, this, ChatSurface::Approval);
}

} // namespace Loopscope::Ui
