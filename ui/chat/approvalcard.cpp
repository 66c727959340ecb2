#include "ui/chat/approvalcard.h"

#include "ui/chat/chatsurface.h"
#include "ui/chat/diffview.h"

#include "agent/tools/schemavalidator.h"

#include <QDir>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

// Typing in the arguments recomputes the preview once the user pauses.
constexpr int PreviewDelayMs = 250;

QString prettyArguments(const QString &arguments)
{
    const QJsonDocument document = QJsonDocument::fromJson(arguments.toUtf8());
    if (document.isNull())
        return arguments; // not JSON: show what the model sent, to be fixed
    return QString::fromUtf8(document.toJson(QJsonDocument::Indented)).trimmed();
}

QFont monospaceLike(const QFont &base)
{
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setStyleHint(QFont::Monospace);
    if (base.pointSizeF() > 0)
        mono.setPointSizeF(base.pointSizeF());
    return mono;
}

} // namespace

ApprovalCard::ApprovalCard(const QString &toolName, const QString &arguments, const QJsonObject &schema,
                           const Workspace &workspace, QWidget *parent)
    : QWidget(parent)
    , m_toolName(toolName)
    , m_workspace(workspace)
    , m_original(QJsonDocument::fromJson(arguments.toUtf8()).object())
    , m_previewTimer(new QTimer(this))
    , m_title(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_diffView(new DiffView(this))
    , m_details(new QLabel(this))
    , m_warning(new QLabel(this))
    , m_editToggle(new QToolButton(this))
    , m_editor(new QPlainTextEdit(this))
    , m_problemLabel(new QLabel(this))
    , m_allowOnce(new QPushButton(tr("Allow once"), this))
    , m_alwaysAllow(new QPushButton(this))
    , m_alwaysMenu(new QMenu(this))
    , m_deny(new QPushButton(tr("Deny"), this))
{
    const bool previewed = hasToolCallPreview(toolName);
    setAccessibleName(tr("Approval for %1").arg(toolName));
    if (!schema.isEmpty()) {
        m_validator = std::make_unique<SchemaValidator>(schema);
        if (!m_validator->schemaError().isEmpty())
            m_validator.reset(); // a broken schema is the tool's problem, not the user's
    }

    updateTitle();
    m_title->setTextFormat(Qt::RichText);
    m_title->setWordWrap(true);

    m_summary->setTextFormat(Qt::RichText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setAccessibleName(tr("What the call will do"));
    // What the model wrote is shown as written, never as markup.
    m_details->setTextFormat(Qt::PlainText);
    m_details->setFont(monospaceLike(font()));
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setAccessibleName(tr("Command or address"));
    m_warning->setTextFormat(Qt::PlainText);
    m_warning->setWordWrap(true);
    m_warning->setAccessibleName(tr("Warning"));
    m_summary->setVisible(previewed);
    m_summary->setText(tr("Working out what it will do…"));
    m_diffView->hide();
    m_details->hide();
    m_warning->hide();

    m_editToggle->setText(tr("Edit arguments"));
    m_editToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_editToggle->setAutoRaise(true);
    m_editToggle->setCheckable(true);
    m_editToggle->setVisible(previewed);
    m_editToggle->setAccessibleName(tr("Edit the arguments of %1").arg(toolName));

    m_editor->setFont(monospaceLike(font()));
    m_editor->setAccessibleName(tr("Arguments of %1").arg(toolName));
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_editor->setTabChangesFocus(true);
    m_editor->setPlainText(prettyArguments(arguments));

    m_problemLabel->setWordWrap(true);
    m_problemLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problemLabel->setAccessibleName(tr("Problem with the arguments"));

    m_allowOnce->setAccessibleName(tr("Allow this call once"));
    m_allowOnce->setToolTip(tr("Run this call with the arguments shown"));
    m_deny->setAccessibleName(tr("Deny this call"));
    m_deny->setToolTip(tr("Do not run it; the model is told that you refused"));

    m_previewTimer->setSingleShot(true);
    m_previewTimer->setInterval(PreviewDelayMs);
    connect(m_previewTimer, &QTimer::timeout, this, &ApprovalCard::startPreview);
    connect(&m_previewWatcher, &QFutureWatcher<Computed>::finished, this, [this] {
        m_computing = false;
        showPreview(m_previewWatcher.result());
        if (std::exchange(m_rerunPreview, false))
            startPreview();
    });

    connect(m_editor, &QPlainTextEdit::textChanged, this, &ApprovalCard::validate);
    connect(m_editor, &QPlainTextEdit::blockCountChanged, this, &ApprovalCard::fitEditor);
    connect(m_editToggle, &QToolButton::toggled, this, &ApprovalCard::setEditorShown);
    connect(m_allowOnce, &QPushButton::clicked, this, [this] { emit allowOnceRequested(editedArguments()); });
    connect(m_alwaysAllow, &QPushButton::clicked, this, [this] {
        if (!m_alwaysAllow->menu()) // with a menu the user picks a scope there
            emit alwaysAllowRequested(ApprovalScope::tool(), editedArguments());
    });
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
    layout->addWidget(m_details); // the command or the URL first, then where it runs or goes
    layout->addWidget(m_summary);
    layout->addWidget(m_diffView);
    layout->addWidget(m_warning);
    layout->addWidget(m_editToggle);
    layout->addWidget(m_editor);
    layout->addWidget(m_problemLabel);
    layout->addLayout(buttons);

    validate();
    fitEditor();
    updateAlwaysAllow();
    // A tool with a preview shows the effect first; the JSON waits under "Edit arguments",
    // unless it needs fixing before anything can run.
    setEditorShown(!previewed || !m_problem.isEmpty());
    m_editToggle->setChecked(m_editor->isVisibleTo(this) && previewed);
    if (previewed) {
        m_previewTimer->stop(); // validate() scheduled one; no need to wait for it
        startPreview();
    }
}

void ApprovalCard::setServerName(const QString &serverName)
{
    m_serverName = serverName;
    updateTitle();
}

void ApprovalCard::updateTitle()
{
    // An MCP tool says which of the user's servers it comes from: the same name may be on several.
    const QString tool = m_serverName.isEmpty()
                             ? u"<b>%1</b>"_s.arg(m_toolName.toHtmlEscaped())
                             : tr("<b>%1</b> of the MCP server <b>%2</b>")
                                   .arg(m_toolName.toHtmlEscaped(), m_serverName.toHtmlEscaped());
    m_title->setText(hasToolCallPreview(m_toolName)
                         ? tr("The agent wants to run %1. Check what it will do, and decide.").arg(tool)
                         : tr("The agent wants to run %1. Check the arguments, edit them if needed, and "
                              "decide.")
                               .arg(tool));
    setAccessibleName(m_serverName.isEmpty()
                          ? tr("Approval for %1").arg(m_toolName)
                          : tr("Approval for %1 of the MCP server %2").arg(m_toolName, m_serverName));
}

ApprovalCard::~ApprovalCard()
{
    // The preview reads files on a worker thread; it must not report to a card that is gone.
    m_previewWatcher.disconnect(this);
    m_previewWatcher.waitForFinished();
}

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

bool ApprovalCard::isPreviewPending() const
{
    return m_previewTimer->isActive() || m_computing;
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
    if (hasToolCallPreview(m_toolName) && document.isObject())
        schedulePreview();
}

void ApprovalCard::schedulePreview()
{
    m_previewTimer->start();
}

void ApprovalCard::startPreview()
{
    if (m_computing) {
        m_rerunPreview = true; // the newest arguments win, once the running preview is in
        return;
    }
    const QJsonDocument document = QJsonDocument::fromJson(arguments().toUtf8());
    if (!document.isObject())
        return; // the problem label says why; the last good preview stays
    m_computing = true;
    m_previewWatcher.setFuture(QtConcurrent::run(&ApprovalCard::compute, m_toolName, document.object(),
                                                 m_workspace,
                                                 QString::fromUtf8(document.toJson(QJsonDocument::Compact))));
}

ApprovalCard::Computed ApprovalCard::compute(const QString &toolName, const QJsonObject &arguments,
                                             const Workspace &workspace, const QString &callArguments)
{
    return {previewToolCall(toolName, arguments, workspace),
            narrowScopesFor(ToolCall{{}, toolName, callArguments}, workspace)};
}

void ApprovalCard::showPreview(const Computed &computed)
{
    m_preview = computed.preview;
    m_offeredScopes = computed.scopes;
    const ToolCallPreview &preview = m_preview;
    const QString errorStyle = u"<span style=\"color:%1\">%2</span>"_s.arg(
        palette().color(QPalette::Text).lightness() < 128 ? u"#b3261e"_s : u"#ff8a80"_s);
    m_diffView->setVisible(preview.kind == ToolCallPreview::Kind::FileChange && preview.error.isEmpty()
                           && !preview.diff.isEmpty());
    m_details->setVisible(preview.kind == ToolCallPreview::Kind::Command
                          || preview.kind == ToolCallPreview::Kind::Fetch);
    m_warning->hide();

    switch (preview.kind) {
    case ToolCallPreview::Kind::None: m_summary->hide(); break;
    case ToolCallPreview::Kind::FileChange: {
        const QString path = u"<b>%1</b>"_s.arg(preview.path.toHtmlEscaped());
        if (!preview.error.isEmpty())
            m_summary->setText(path + u" — "_s + errorStyle.arg(preview.error.toHtmlEscaped()));
        else if (preview.newFile)
            m_summary->setText(tr("%1 — new file, %n line(s)", nullptr, preview.diff.added).arg(path));
        else if (preview.diff.isEmpty())
            m_summary->setText(tr("%1 — no change: the file already reads like this").arg(path));
        else
            m_summary->setText(
                tr("%1 — %n line(s) changed (+%2 −%3)", nullptr, preview.diff.added + preview.diff.removed)
                    .arg(path)
                    .arg(preview.diff.added)
                    .arg(preview.diff.removed));
        // A third of the window at most, so the buttons stay in sight on a small screen.
        m_diffView->setMaxVisibleLines(
            std::clamp(window()->height() / (3 * fontMetrics().lineSpacing()), 8, 30));
        m_diffView->setDiff(preview.diff);
        break;
    }
    case ToolCallPreview::Kind::Command:
        m_details->setText(u"$ "_s + preview.command);
        m_summary->setText(tr("In <b>%1</b>, stopped after %n second(s)", nullptr, preview.timeoutSeconds)
                               .arg(preview.folder.toHtmlEscaped()));
        m_warning->setText(
            tr("A command can do anything you can: change or delete files anywhere, not only in "
               "the workspace, and reach the network. Allow only what you understand."));
        m_warning->show();
        break;
    case ToolCallPreview::Kind::Fetch:
        m_details->setText(u"GET "_s + preview.url);
        m_summary->setText(preview.error.isEmpty() ? tr("Host: <b>%1</b>").arg(preview.host.toHtmlEscaped())
                                                   : errorStyle.arg(preview.error.toHtmlEscaped()));
        if (preview.privateAddress) {
            m_warning->setText(tr("This address is on your own computer or local network."));
            m_warning->show();
        }
        break;
    }
    updateAlwaysAllow();
    emit previewChanged();
}

QString ApprovalCard::scopeLabel(const ApprovalScope &scope) const
{
    switch (scope.kind) {
    case ApprovalScope::Kind::Tool: return tr("%1 everywhere").arg(m_toolName);
    case ApprovalScope::Kind::Folder: {
        const QString root = m_workspace.canonicalRoot();
        const QString relative = Workspace::relativePath(root, scope.value);
        return relative == u"."_s ? tr("%1 in the workspace folder").arg(m_toolName)
                                  : tr("%1 in %2/").arg(m_toolName, QDir::toNativeSeparators(relative));
    }
    case ApprovalScope::Kind::CommandPrefix: return tr("Commands starting with “%1”").arg(scope.value);
    case ApprovalScope::Kind::Host: return tr("%1 for %2").arg(m_toolName, scope.value);
    }
    return {};
}

void ApprovalCard::updateAlwaysAllow()
{
    m_alwaysMenu->clear();
    if (m_offeredScopes.isEmpty()) {
        m_alwaysAllow->setMenu(nullptr);
        m_alwaysAllow->setText(tr("Always allow %1").arg(m_toolName));
        m_alwaysAllow->setAccessibleName(tr("Always allow %1").arg(m_toolName));
        m_alwaysAllow->setToolTip(tr("Run this call and never ask again for %1").arg(m_toolName));
        return;
    }
    for (const ApprovalScope &scope : m_offeredScopes + QList{ApprovalScope::tool()}) {
        QAction *action = m_alwaysMenu->addAction(scopeLabel(scope));
        connect(action, &QAction::triggered, this,
                [this, scope] { emit alwaysAllowRequested(scope, editedArguments()); });
    }
    m_alwaysAllow->setText(tr("Always allow"));
    m_alwaysAllow->setAccessibleName(tr("Always allow, choosing how far"));
    m_alwaysAllow->setToolTip(tr("Run this call and stop asking for calls like it; rules are listed in "
                                 "Settings → Tools"));
    m_alwaysAllow->setMenu(m_alwaysMenu);
}

void ApprovalCard::setEditorShown(bool shown)
{
    m_editor->setVisible(shown);
    m_editToggle->setArrowType(shown ? Qt::DownArrow : Qt::RightArrow);
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
