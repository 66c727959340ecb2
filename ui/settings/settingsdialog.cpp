#include "ui/settings/settingsdialog.h"

#include "agent/config/apikeyresolver.h"
#include "agent/config/appsettings.h"
#include "agent/config/secretstore.h"
#include "agent/debug/toolapprovalpolicy.h"
#include "agent/providers/connectiontester.h"
#include "agent/tools/builtin/builtintools.h"
#include "ui/settings/mcpserverspage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTabWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

using KeyState = ProviderProfileEditor::KeyState;

QLabel *hintLabel(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setForegroundRole(QPalette::PlaceholderText);
    return label;
}

template<typename Widget>
Widget *named(Widget *widget, const QString &objectName, const QString &accessibleName)
{
    widget->setObjectName(objectName);
    widget->setAccessibleName(accessibleName);
    return widget;
}

} // namespace

SettingsDialog::SettingsDialog(ProviderProfileStore *profiles, AppSettings *settings, SecretStore *secrets,
                               ConnectionTester *tester, QWidget *parent)
    : QDialog(parent)
    , m_profiles(profiles)
    , m_settings(settings)
    , m_secrets(secrets)
    , m_tester(tester)
{
    Q_ASSERT(profiles && settings && secrets && tester);
    setWindowTitle(tr("Settings"));

    m_tabs = named(new QTabWidget(this), u"pages"_s, tr("Settings pages"));
    m_tabs->addTab(createProvidersPage(), tr("Providers"));
    m_tabs->addTab(createLoopPage(), tr("Loop"));
    // Nine tools, the rules from the chat and the workspace are taller than a small screen allows the
    // dialog: the page scrolls rather than squeezing its rows into each other.
    auto *toolsScroll = new QScrollArea;
    toolsScroll->setWidgetResizable(true);
    toolsScroll->setFrameShape(QFrame::NoFrame);
    toolsScroll->setWidget(createToolsPage());
    m_tabs->addTab(toolsScroll, tr("Tools"));
    m_tabs->addTab(createAppearancePage(), tr("Appearance"));

    m_status = named(new QLabel(this), u"statusLabel"_s, tr("Settings status"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_status->hide();

    m_buttons = new QDialogButtonBox(
        QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::Apply, this);
    m_buttons->setObjectName(u"buttonBox"_s);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    connect(m_buttons->button(QDialogButtonBox::Apply), &QPushButton::clicked, this, [this] { save(false); });

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_status);
    layout->addWidget(m_buttons);

    const QFontMetrics metrics = fontMetrics();
    setMinimumSize(metrics.averageCharWidth() * 120, metrics.lineSpacing() * 32);
    // Tall enough for the Tools page whole where the screen allows; it scrolls on a small one.
    QSize preferred(metrics.averageCharWidth() * 120, metrics.lineSpacing() * 46);
    if (const QScreen *screen = parent ? parent->screen() : this->screen())
        preferred = preferred.boundedTo(screen->availableSize() * 0.9);
    resize(preferred.expandedTo(minimumSize()));

    connect(m_tester, &ConnectionTester::succeeded, this,
            [this](const QString &message) { m_editor->setTestResult(true, message); });
    connect(m_tester, &ConnectionTester::failed, this,
            [this](const QString &message) { m_editor->setTestResult(false, message); });

    load();
}

SettingsDialog::~SettingsDialog() = default;

QWidget *SettingsDialog::createProvidersPage()
{
    auto *page = new QWidget;
    m_providerList = named(new QListWidget(page), u"providerList"_s, tr("Provider profiles"));
    m_addButton
        = named(new QPushButton(tr("A&dd"), page), u"addProviderButton"_s, tr("Add a provider profile"));
    m_removeButton = named(new QPushButton(tr("&Remove"), page), u"removeProviderButton"_s,
                           tr("Remove the selected provider profile"));
    m_defaultButton = named(new QPushButton(tr("Make de&fault"), page), u"makeDefaultButton"_s,
                            tr("Make the selected profile the default"));
    m_defaultButton->setToolTip(tr("New conversations use the default profile."));

    m_editorStack = new QStackedWidget(page);
    auto *empty = hintLabel(tr("No provider yet. Press Add to set one up: an OpenAI-compatible service, "
                               "Anthropic, Google Gemini, or an Ollama server on this computer."),
                            m_editorStack);
    empty->setObjectName(u"noProviderLabel"_s);
    empty->setAlignment(Qt::AlignCenter);
    m_editor = new ProviderProfileEditor(m_editorStack);
    m_editor->setObjectName(u"profileEditor"_s);
    m_editorStack->addWidget(empty);
    // On a small screen the form scrolls rather than squeezing its wrapped
    // help and the connection test's message out of sight.
    auto *editorScroll = new QScrollArea(m_editorStack);
    editorScroll->setWidget(m_editor);
    editorScroll->setWidgetResizable(true);
    editorScroll->setFrameShape(QFrame::NoFrame);
    editorScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_editorStack->addWidget(editorScroll);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_addButton);
    buttons->addWidget(m_removeButton);
    auto *left = new QVBoxLayout;
    left->addWidget(m_providerList, 1);
    left->addLayout(buttons);
    left->addWidget(m_defaultButton);

    auto *layout = new QHBoxLayout(page);
    layout->addLayout(left, 2);
    layout->addWidget(m_editorStack, 5);

    connect(m_providerList, &QListWidget::currentRowChanged, this, &SettingsDialog::selectProvider);
    connect(m_addButton, &QPushButton::clicked, this, &SettingsDialog::addProvider);
    connect(m_removeButton, &QPushButton::clicked, this, &SettingsDialog::removeProvider);
    connect(m_defaultButton, &QPushButton::clicked, this, &SettingsDialog::makeDefault);
    connect(m_editor, &ProviderProfileEditor::testRequested, this, &SettingsDialog::testConnection);
    connect(m_editor, &ProviderProfileEditor::edited, this, [this] {
        commitEditor();
        if (QListWidgetItem *item = m_providerList->item(m_current)) {
            const Draft &draft = m_drafts.at(m_current);
            const QString name = draft.profile.name.isEmpty() ? tr("(no name)") : draft.profile.name;
            item->setText(draft.isDefault ? tr("%1 (default)").arg(name) : name);
        }
    });
    return page;
}

QWidget *SettingsDialog::createLoopPage()
{
    auto *page = new QWidget;
    m_maxIterations = named(new QSpinBox(page), u"maxIterationsSpin"_s, tr("Maximum iterations"));
    m_maxIterations->setRange(1, 1000);
    m_maxIterations->setToolTip(tr("Model calls in one turn before the loop must answer."));

    m_parallelTools = named(new QSpinBox(page), u"parallelToolsSpin"_s, tr("Parallel tool calls"));
    m_parallelTools->setRange(1, 64);
    m_parallelTools->setToolTip(tr("1 runs a response's tool calls one after another."));

    m_postLoop = named(new QComboBox(page), u"postLoopCombo"_s, tr("When the loop ends without an answer"));
    m_postLoop->addItem(tr("Reflect: one more model call, without tools"),
                        postLoopModeName(PostLoopMode::Reflect));
    m_postLoop->addItem(tr("Summary: list what the tools returned"), postLoopModeName(PostLoopMode::Summary));
    m_postLoop->addItem(tr("Nothing: say that the loop stopped"), postLoopModeName(PostLoopMode::None));

    m_toolTimeout = named(new QSpinBox(page), u"toolTimeoutSpin"_s, tr("Tool timeout in seconds"));
    m_toolTimeout->setRange(1, 86'400);
    m_toolTimeout->setSuffix(tr(" s"));

    m_readTimeout = named(new QSpinBox(page), u"readTimeoutSpin"_s, tr("Provider read timeout in seconds"));
    m_readTimeout->setRange(1, 86'400);
    m_readTimeout->setSuffix(tr(" s"));
    m_readTimeout->setToolTip(tr("How long a provider may stay silent in the middle of an answer before the "
                                 "call fails."));

    m_systemPrompt = named(new QPlainTextEdit(page), u"systemPromptEdit"_s, tr("System prompt"));
    m_systemPrompt->setTabChangesFocus(true);
    m_systemPrompt->setPlaceholderText(tr("Optional instructions the model gets before every conversation."));

    auto *form = new QFormLayout(page);
    form->addRow(tr("&Maximum iterations:"), m_maxIterations);
    form->addRow(tr("&Parallel tool calls:"), m_parallelTools);
    form->addRow(tr("When the loop &ends:"), m_postLoop);
    form->addRow(tr("Tool &timeout:"), m_toolTimeout);
    form->addRow(tr("Provider &read timeout:"), m_readTimeout);
    form->addRow(tr("&System prompt:"), m_systemPrompt);
    return page;
}

QWidget *SettingsDialog::createToolsPage()
{
    auto *page = new QWidget;
    auto *group = new QGroupBox(tr("Built-in tools"), page);
    auto *grid = new QGridLayout(group);
    grid->addWidget(new QLabel(tr("Enabled"), group), 0, 0);
    grid->addWidget(new QLabel(tr("Before it runs"), group), 0, 1);
    int row = 1;
    for (const QString &name : builtinToolNames()) {
        auto *enabled
            = named(new QCheckBox(name, group), u"toolEnabled_"_s + name, tr("Enable %1").arg(name));
        if (const auto tool = createBuiltinTool(name, Workspace()))
            enabled->setToolTip(tool->schema().description);
        auto *rule = named(new QComboBox(group), u"toolRule_"_s + name, tr("Approval for %1").arg(name));
        using Rule = ToolApprovalPolicy::Rule;
        rule->addItem(tr("Run without asking"), ToolApprovalPolicy::ruleName(Rule::Always));
        rule->addItem(tr("Ask me first"), ToolApprovalPolicy::ruleName(Rule::Ask));
        rule->addItem(tr("Never run"), ToolApprovalPolicy::ruleName(Rule::Never));
        connect(enabled, &QCheckBox::toggled, rule, &QWidget::setEnabled);
        grid->addWidget(enabled, row, 0);
        grid->addWidget(rule, row, 1);
        m_toolEnabled.insert(name, enabled);
        m_toolRule.insert(name, rule);
        ++row;
    }
    grid->setColumnStretch(2, 1);

    // The "Always allow" choices made in the chat that reach only part of a tool.
    auto *scopedGroup = new QGroupBox(tr("Always allowed from the chat"), page);
    m_scopedList = named(new QListWidget(scopedGroup), u"scopedApprovalsList"_s,
                         tr("Tool calls always allowed within a folder, command prefix or host"));
    m_scopedList->setMaximumHeight(fontMetrics().lineSpacing() * 7);
    m_removeScopedButton = named(new QPushButton(tr("Remo&ve"), scopedGroup), u"removeScopedApprovalButton"_s,
                                 tr("Remove the selected rule: its calls are asked about again"));
    connect(m_removeScopedButton, &QPushButton::clicked, this, &SettingsDialog::removeScopedApproval);
    connect(m_scopedList, &QListWidget::currentRowChanged, this,
            [this](int row) { m_removeScopedButton->setEnabled(row >= 0); });
    auto *scopedLayout = new QVBoxLayout(scopedGroup);
    scopedLayout->addWidget(
        hintLabel(tr("Added when you choose “Always allow” for a folder, a command prefix "
                     "or a host on an approval in the chat."),
                  scopedGroup));
    auto *scopedRow = new QHBoxLayout;
    scopedRow->addWidget(m_scopedList, 1);
    scopedRow->addWidget(m_removeScopedButton, 0, Qt::AlignTop);
    scopedLayout->addLayout(scopedRow);

    m_workspace = named(new QLineEdit(page), u"workspaceEdit"_s, tr("Workspace folder"));
    m_browseButton = named(new QPushButton(tr("&Browse…"), page), u"browseWorkspaceButton"_s,
                           tr("Choose the workspace folder"));
    connect(m_browseButton, &QPushButton::clicked, this, &SettingsDialog::chooseWorkspace);
    auto *workspaceRow = new QHBoxLayout;
    workspaceRow->addWidget(m_workspace, 1);
    workspaceRow->addWidget(m_browseButton);

    auto *workspaceLabel = new QLabel(tr("Workspace &folder:"), page);
    workspaceLabel->setBuddy(m_workspace);
    auto *form = new QFormLayout;
    form->addRow(workspaceLabel, workspaceRow);
    form->addRow(
        QString(),
        hintLabel(tr("The file tools read and write only inside this folder; run_command starts in it."),
                  page));
    m_fetchPrivate
        = named(new QCheckBox(tr("fetch_url may reach this computer and the &local network"), page),
                u"fetchPrivateCheck"_s, tr("Allow fetch_url to reach private addresses"));
    m_fetchPrivate->setToolTip(
        tr("Off: fetch_url refuses loopback and private network addresses (localhost, "
           "192.168.x.x, 10.x.x.x, …), so a model cannot reach your router or services "
           "running on this computer."));
    form->addRow(QString(), m_fetchPrivate);

    auto *layout = new QVBoxLayout(page);
    layout->addWidget(group);
    layout->addWidget(scopedGroup);
    layout->addLayout(form);
    layout->addStretch(1);
    return page;
}

QString SettingsDialog::describeScopedApproval(const ScopedApproval &approval)
{
    const QString where = QDir::toNativeSeparators(approval.scope.value);
    switch (approval.scope.kind) {
    case ApprovalScope::Kind::Folder: return tr("%1 in %2").arg(approval.tool, where);
    case ApprovalScope::Kind::CommandPrefix:
        return tr("%1: commands starting with “%2”").arg(approval.tool, approval.scope.value);
    case ApprovalScope::Kind::Host: return tr("%1 for %2").arg(approval.tool, approval.scope.value);
    case ApprovalScope::Kind::Tool: break;
    }
    return approval.tool;
}

void SettingsDialog::refreshScopedApprovals()
{
    m_scopedList->clear();
    for (const ScopedApproval &approval : std::as_const(m_scopedApprovals))
        m_scopedList->addItem(describeScopedApproval(approval));
    if (m_scopedApprovals.isEmpty()) {
        auto *none = new QListWidgetItem(tr("None yet"), m_scopedList);
        none->setFlags(Qt::NoItemFlags);
    }
    m_removeScopedButton->setEnabled(false);
}

void SettingsDialog::removeScopedApproval()
{
    const int row = m_scopedList->currentRow();
    if (row < 0 || row >= m_scopedApprovals.size())
        return;
    m_scopedApprovals.removeAt(row);
    refreshScopedApprovals();
}

QWidget *SettingsDialog::createAppearancePage()
{
    auto *page = new QWidget;
    m_sendOnEnter = named(new QCheckBox(tr("Send with &Enter (Shift+Enter starts a new line)"), page),
                          u"sendOnEnterCheck"_s, tr("Send with Enter"));
    auto *layout = new QVBoxLayout(page);
    layout->addWidget(m_sendOnEnter);
    layout->addWidget(hintLabel(tr("Ctrl+Enter always sends."), page));
    layout->addSpacing(fontMetrics().lineSpacing());
    m_reopenLastSession = named(new QCheckBox(tr("&Reopen the last session on start"), page),
                                u"reopenLastSessionCheck"_s, tr("Reopen the last session on start"));
    layout->addWidget(m_reopenLastSession);
    layout->addWidget(hintLabel(tr("Otherwise Loopscope starts with a new session; every session stays in "
                                   "the session library."),
                                page));
    layout->addSpacing(fontMetrics().lineSpacing());
    auto *palette = hintLabel(tr("Loopscope follows your system's light or dark palette. "
                                 "To switch, change the colour scheme in your desktop settings."),
                              page);
    palette->setObjectName(u"paletteNote"_s);
    palette->setForegroundRole(QPalette::WindowText); // information, not a hint

    layout->addWidget(palette);
    layout->addStretch(1);
    return page;
}

void SettingsDialog::addMcpServersPage(McpSettings *settings, McpHub *hub)
{
    if (m_mcpPage)
        return;
    m_mcpPage = new McpServersPage(settings, m_secrets, hub);
    m_mcpPage->setObjectName(u"mcpServersPage"_s);
    m_tabs->addTab(m_mcpPage, tr("&MCP Servers"));
    m_mcpPage->load();
}

void SettingsDialog::showPage(Page page)
{
    if (page == Page::McpServers && !m_mcpPage)
        return;
    m_tabs->setCurrentIndex(int(page));
}

void SettingsDialog::load()
{
    const QString defaultId = m_profiles->defaultProfileId();
    m_drafts.clear();
    for (const ProviderProfile &profile : m_profiles->profiles()) {
        Draft draft;
        draft.profile = profile;
        draft.saved = true;
        draft.isDefault = profile.id == defaultId;
        draft.keyState = KeyState::Checking;
        m_drafts.append(draft);
    }
    m_current = -1;
    refreshProviderList();
    m_providerList->setCurrentRow(m_drafts.isEmpty() ? -1 : 0);
    if (m_drafts.isEmpty())
        selectProvider(-1);
    for (const Draft &draft : std::as_const(m_drafts))
        checkStoredKey(draft.profile.id);

    const AgentConfig config = m_settings->agentConfig();
    m_maxIterations->setValue(config.maxIterations);
    m_parallelTools->setValue(config.maxParallelTools);
    m_postLoop->setCurrentIndex(qMax(0, m_postLoop->findData(postLoopModeName(config.postLoop))));
    m_loadedToolTimeoutS = qMax(1, (config.toolTimeoutMs + 500) / 1000);
    m_toolTimeout->setValue(m_loadedToolTimeoutS);
    m_loadedReadTimeoutS = qMax(1, (m_settings->providerReadTimeoutMs() + 500) / 1000);
    m_readTimeout->setValue(m_loadedReadTimeoutS);
    m_systemPrompt->setPlainText(config.systemPrompt);

    const QStringList enabled = m_settings->enabledTools();
    const QHash<QString, QString> rules = m_settings->toolApprovalRules();
    for (auto it = m_toolEnabled.cbegin(); it != m_toolEnabled.cend(); ++it) {
        it.value()->setChecked(enabled.contains(it.key()));
        m_toolRule.value(it.key())->setEnabled(it.value()->isChecked());
        QComboBox *rule = m_toolRule.value(it.key());
        // Without a rule of the user's, what the policy does: ask for the tools that ask first.
        const auto tool = createBuiltinTool(it.key(), Workspace());
        const QString fallback = ToolApprovalPolicy::ruleName(tool && tool->behaviour().asksFirst
                                                                  ? ToolApprovalPolicy::Rule::Ask
                                                                  : ToolApprovalPolicy::Rule::Always);
        rule->setCurrentIndex(qMax(0, rule->findData(rules.value(it.key(), fallback))));
    }
    m_scopedApprovals = m_settings->scopedApprovals();
    refreshScopedApprovals();
    m_workspace->setText(QDir::toNativeSeparators(m_settings->workspaceFolder()));
    m_fetchPrivate->setChecked(m_settings->fetchAllowsPrivateAddresses());
    m_sendOnEnter->setChecked(m_settings->sendOnEnter());
    m_reopenLastSession->setChecked(m_settings->reopenLastSession());
}

void SettingsDialog::checkStoredKey(const QString &id)
{
    // Only whether a key exists is kept; the key itself goes out of scope here.
    m_secrets->read(id, this, [this, id](const SecretStore::Result &result) {
        for (int row = 0; row < m_drafts.size(); ++row) {
            Draft &draft = m_drafts[row];
            if (!draft.saved || draft.profile.id != id)
                continue;
            draft.keyState = result.secret
                                 ? KeyState::Stored
                                 : (result.error.isEmpty() ? KeyState::Missing : KeyState::Unreadable);
            draft.keyError = result.error;
            if (row == m_current)
                m_editor->setKeyState(draft.keyState, draft.keyError);
        }
    });
}

void SettingsDialog::refreshProviderList()
{
    const QSignalBlocker blocker(m_providerList);
    m_providerList->clear();
    for (const Draft &draft : std::as_const(m_drafts)) {
        const QString name = draft.profile.name.isEmpty() ? tr("(no name)") : draft.profile.name;
        auto *item = new QListWidgetItem(draft.isDefault ? tr("%1 (default)").arg(name) : name);
        if (draft.isDefault) {
            QFont font = item->font();
            font.setBold(true);
            item->setFont(font);
        }
        m_providerList->addItem(item);
    }
    m_providerList->setCurrentRow(m_current);
    updateProviderButtons();
}

void SettingsDialog::selectProvider(int row)
{
    commitEditor();
    m_tester->cancel();
    ++m_testGeneration;
    m_current = row >= 0 && row < m_drafts.size() ? row : -1;
    if (m_current < 0) {
        m_editorStack->setCurrentIndex(0);
        m_editor->setProfile(ProviderProfile());
    } else {
        const Draft &draft = m_drafts.at(m_current);
        m_editor->setProfile(draft.profile);
        m_editor->setKeyState(draft.keyState, draft.keyError);
        m_editor->setTypedKey(draft.newKey);
        m_editorStack->setCurrentIndex(1);
    }
    updateProviderButtons();
}

void SettingsDialog::commitEditor()
{
    if (m_current < 0 || m_current >= m_drafts.size())
        return;
    Draft &draft = m_drafts[m_current];
    const QString id = draft.profile.id; // the editor does not own the id: a new one is given on save
    draft.profile = m_editor->profile();
    draft.profile.id = id;
    draft.newKey = m_editor->typedKey();
    draft.invalidReason = m_editor->validationError();
}

void SettingsDialog::addProvider()
{
    commitEditor();
    Draft draft;
    draft.profile.name = tr("New provider");
    draft.profile.kind = ProviderKind::OpenAi;
    draft.keyState = KeyState::Missing;
    draft.isDefault = m_drafts.isEmpty();
    m_drafts.append(draft);
    refreshProviderList();
    m_providerList->setCurrentRow(int(m_drafts.size()) - 1);
    m_drafts.last().invalidReason = m_editor->validationError();
    if (auto *name = m_editor->findChild<QLineEdit *>(u"nameEdit"_s)) {
        name->setFocus();
        name->selectAll();
    }
}

void SettingsDialog::removeProvider()
{
    const int row = m_current;
    if (row < 0)
        return;
    const Draft removed = m_drafts.takeAt(row);
    if (removed.saved)
        m_removedIds.append(removed.profile.id);
    if (removed.isDefault && !m_drafts.isEmpty())
        m_drafts.first().isDefault = true;
    m_current = -1; // nothing to commit: the edited profile is gone
    refreshProviderList();
    const int next = qMin(row, int(m_drafts.size()) - 1);
    m_providerList->setCurrentRow(next);
    if (next < 0)
        selectProvider(-1);
}

void SettingsDialog::makeDefault()
{
    if (m_current < 0)
        return;
    commitEditor();
    for (int row = 0; row < m_drafts.size(); ++row)
        m_drafts[row].isDefault = row == m_current;
    refreshProviderList();
}

void SettingsDialog::updateProviderButtons()
{
    m_removeButton->setEnabled(m_current >= 0);
    m_defaultButton->setEnabled(m_current >= 0 && !m_drafts.at(m_current).isDefault);
}

void SettingsDialog::testConnection()
{
    commitEditor();
    if (m_current < 0)
        return;
    const Draft &draft = m_drafts.at(m_current);
    if (!draft.invalidReason.isEmpty()) {
        m_editor->setTestResult(false, draft.invalidReason);
        return;
    }
    m_editor->setTestRunning();
    const int generation = ++m_testGeneration;
    const ProviderProfile profile = draft.profile;
    const int timeoutMs = qMin(ConnectionTester::DefaultTimeoutMs, m_readTimeout->value() * 1000);

    // The key the chat would use: one typed here first, then what the chat's resolver finds.
    if (!draft.newKey.isEmpty()) {
        startTest(profile, draft.newKey, timeoutMs);
        return;
    }
    // The keychain only for a profile it may hold a key for, so testing a new one asks no unlock.
    const bool keychainMayHoldKey = draft.saved && draft.keyState != KeyState::Missing;
    ApiKeyResolver(keychainMayHoldKey ? m_secrets : nullptr)
        .resolve(profile, this, [this, generation, profile, timeoutMs](const ApiKeyResolver::Result &key) {
            if (generation == m_testGeneration) // else another profile is shown now
                testWithKey(profile, key, timeoutMs);
        });
}

void SettingsDialog::startTest(const ProviderProfile &profile, const QString &apiKey, int timeoutMs)
{
    m_tester->test(profile.kind, profile.effectiveBaseUrl(), profile.model, apiKey, timeoutMs);
}

void SettingsDialog::testWithKey(const ProviderProfile &profile, const ApiKeyResolver::Result &key,
                                 int timeoutMs)
{
    using Status = ApiKeyResolver::Result::Status;
    switch (key.status) {
    case Status::Found:
    case Status::NotNeeded: startTest(profile, key.key, timeoutMs); return;
    case Status::EnvironmentUnset:
        m_editor->setTestResult(false, tr("the environment variable %1 is not set.").arg(profile.apiKeyEnv));
        return;
    case Status::NotStored:
        // Without a key: a local OpenAI-compatible server may not want one; the answer will say.
        startTest(profile, QString(), timeoutMs);
        return;
    case Status::KeychainUnreadable:
        m_editor->setTestResult(false, tr("the keychain could not be read: %1").arg(key.keychainError));
        return;
    }
}

void SettingsDialog::chooseWorkspace()
{
    // Window-modal and asynchronous: no nested event loop.
    auto *dialog = new QFileDialog(this, tr("Choose the Workspace Folder"),
                                   QDir::fromNativeSeparators(m_workspace->text()));
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this,
            [this](const QString &path) { m_workspace->setText(QDir::toNativeSeparators(path)); });
    dialog->open();
}

void SettingsDialog::accept()
{
    save(true);
}

void SettingsDialog::reject()
{
    m_closeWhenSaved = false; // a key write still running finishes, but no longer closes with "accepted"
    m_tester->cancel();
    QDialog::reject();
}

bool SettingsDialog::save(bool closeWhenDone)
{
    if (isSaving())
        return false;
    commitEditor();

    for (int row = 0; row < m_drafts.size(); ++row) {
        const Draft &draft = m_drafts.at(row);
        if (draft.invalidReason.isEmpty())
            continue;
        showPage(Page::Providers);
        m_providerList->setCurrentRow(row);
        setStatus(tr("Provider “%1”: %2").arg(draft.profile.name, draft.invalidReason));
        return false;
    }
    const QString workspace = QDir::fromNativeSeparators(m_workspace->text().trimmed());
    if (!workspace.isEmpty() && !QFileInfo(workspace).isDir()) {
        showPage(Page::Tools);
        m_workspace->setFocus();
        setStatus(tr("The workspace folder %1 does not exist.").arg(QDir::toNativeSeparators(workspace)));
        return false;
    }
    if (m_mcpPage) {
        if (const QString problem = m_mcpPage->validationError(); !problem.isEmpty()) {
            showPage(Page::McpServers);
            setStatus(problem);
            return false;
        }
    }

    // Profiles. New ones get their id (also their keychain account) now.
    for (Draft &draft : m_drafts) {
        if (!draft.saved)
            draft.profile.id = newProfileId(draft.profile);
    }
    for (const QString &id : std::as_const(m_removedIds))
        m_profiles->remove(id);
    bool hasDefault = false;
    for (Draft &draft : m_drafts) {
        m_profiles->save(draft.profile);
        draft.saved = true;
        hasDefault = hasDefault || draft.isDefault;
    }
    if (!hasDefault && !m_drafts.isEmpty())
        m_drafts.first().isDefault = true;
    for (const Draft &draft : std::as_const(m_drafts)) {
        if (draft.isDefault)
            m_profiles->setDefaultProfileId(draft.profile.id);
    }
    refreshProviderList();

    // Loop. A timeout whose field was not touched keeps its exact stored value.
    AgentConfig config = m_settings->agentConfig();
    config.maxIterations = m_maxIterations->value();
    config.maxParallelTools = m_parallelTools->value();
    config.postLoop = postLoopModeFromName(m_postLoop->currentData().toString()).value_or(config.postLoop);
    if (m_toolTimeout->value() != m_loadedToolTimeoutS)
        config.toolTimeoutMs = m_toolTimeout->value() * 1000;
    config.systemPrompt = m_systemPrompt->toPlainText();
    m_settings->setAgentConfig(config);
    if (m_readTimeout->value() != m_loadedReadTimeoutS)
        m_settings->setProviderReadTimeoutMs(m_readTimeout->value() * 1000);
    m_loadedToolTimeoutS = m_toolTimeout->value();
    m_loadedReadTimeoutS = m_readTimeout->value();

    // Tools. Rules of tools not listed here (not built in) are kept.
    QStringList enabled;
    QHash<QString, QString> rules = m_settings->toolApprovalRules();
    for (const QString &name : builtinToolNames()) {
        if (m_toolEnabled.value(name)->isChecked())
            enabled.append(name);
        rules.insert(name, m_toolRule.value(name)->currentData().toString());
    }
    m_settings->setEnabledTools(enabled);
    m_settings->setToolApprovalRules(rules);
    m_settings->setScopedApprovals(m_scopedApprovals);
    m_settings->setWorkspaceFolder(workspace);
    m_settings->setFetchAllowsPrivateAddresses(m_fetchPrivate->isChecked());
    m_settings->setSendOnEnter(m_sendOnEnter->isChecked());
    m_settings->setReopenLastSession(m_reopenLastSession->isChecked());

    // Keys. The guard count keeps a store that answers at once from finishing early.
    m_saveErrors.clear();
    m_closeWhenSaved = closeWhenDone;
    m_pendingWrites = 1;
    setSaving(true);
    const QStringList removedIds = std::exchange(m_removedIds, {});
    for (const QString &id : removedIds) {
        ++m_pendingWrites;
        m_secrets->remove(id, this, [this](const QString &error) {
            keyOperationFinished(error.isEmpty() ? QString()
                                                 : tr("a removed profile's key stayed: %1").arg(error));
        });
    }
    for (const Draft &draft : std::as_const(m_drafts)) {
        if (draft.newKey.isEmpty())
            continue;
        ++m_pendingWrites;
        const QString id = draft.profile.id;
        const QString name = draft.profile.name;
        m_secrets->write(id, draft.newKey, this, [this, id, name](const QString &error) {
            if (error.isEmpty()) {
                for (int row = 0; row < m_drafts.size(); ++row) {
                    Draft &written = m_drafts[row];
                    if (written.profile.id != id)
                        continue;
                    written.newKey.clear();
                    written.keyState = KeyState::Stored;
                    written.keyError.clear();
                    if (row == m_current) {
                        m_editor->setTypedKey(QString());
                        m_editor->setKeyState(KeyState::Stored);
                    }
                }
            }
            keyOperationFinished(error.isEmpty() ? QString()
                                                 : tr("the key for “%1” was not saved: %2").arg(name, error));
        });
    }
    if (m_mcpPage) {
        ++m_pendingWrites;
        m_mcpPage->save([this](const QStringList &errors) { keyOperationFinished(errors.join(u"; "_s)); });
    }
    keyOperationFinished(QString());
    return true;
}

void SettingsDialog::keyOperationFinished(const QString &error)
{
    if (!error.isEmpty())
        m_saveErrors.append(error);
    if (--m_pendingWrites > 0)
        return;
    setSaving(false);
    if (!m_saveErrors.isEmpty()) {
        // Settings are written; the user can retry the keys with Apply or OK.
        setStatus(tr("The keychain refused: %1").arg(m_saveErrors.join(u"; "_s)));
        return;
    }
    emit applied();
    if (m_closeWhenSaved) {
        setStatus(QString());
        QDialog::accept();
    } else {
        setStatus(tr("Saved."));
    }
}

QString SettingsDialog::newProfileId(const ProviderProfile &profile) const
{
    // Readable in the settings file: the name in lower case, e.g. "work-openai".
    QString slug;
    for (const QChar c : profile.name.toLower()) {
        if ((c >= u'a' && c <= u'z') || (c >= u'0' && c <= u'9'))
            slug.append(c);
        else if (!slug.isEmpty() && !slug.endsWith(u'-'))
            slug.append(u'-');
    }
    slug.truncate(32);
    while (slug.endsWith(u'-'))
        slug.chop(1);
    if (slug.isEmpty())
        slug = providerKindName(profile.kind);

    QStringList taken = m_removedIds;
    for (const ProviderProfile &stored : m_profiles->profiles())
        taken.append(stored.id);
    for (const Draft &draft : m_drafts)
        taken.append(draft.profile.id);
    QString id = slug;
    for (int n = 2; taken.contains(id); ++n)
        id = slug + u'-' + QString::number(n);
    return id;
}

void SettingsDialog::setStatus(const QString &text)
{
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
}

void SettingsDialog::setSaving(bool saving)
{
    m_tabs->setEnabled(!saving);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!saving);
    m_buttons->button(QDialogButtonBox::Apply)->setEnabled(!saving);
    if (saving)
        setStatus(tr("Saving…"));
}

} // namespace Loopscope::Ui
