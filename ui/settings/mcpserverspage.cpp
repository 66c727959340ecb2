#include "ui/settings/mcpserverspage.h"

#include "agent/config/secretstore.h"
#include "agent/mcp/mcpconfigimport.h"
#include "agent/mcp/mcphub.h"
#include "agent/mcp/mcpsettings.h"
#include "ui/settings/mcpservereditor.h"
#include "ui/settings/mcpsigninbar.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

template<typename Widget>
Widget *named(Widget *widget, const QString &objectName, const QString &accessibleName)
{
    widget->setObjectName(objectName);
    widget->setAccessibleName(accessibleName);
    return widget;
}

QLabel *hintLabel(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setForegroundRole(QPalette::PlaceholderText);
    return label;
}

// Whether two servers are the same one, whatever they are called.
bool sameEndpoint(const McpServerConfig &a, const McpServerConfig &b)
{
    if (a.transport != b.transport)
        return false;
    if (a.transport == McpServerConfig::Transport::Http)
        return a.url == b.url;
    return a.command == b.command && a.arguments == b.arguments;
}

QStringList namesOf(const QList<McpServerConfig> &servers)
{
    QStringList names;
    for (const McpServerConfig &server : servers)
        names.append(server.name);
    return names;
}

} // namespace

McpServersPage::McpServersPage(McpSettings *settings, SecretStore *secrets, McpHub *hub, QWidget *parent)
    : QWidget(parent)
    , m_settings(settings)
    , m_secrets(secrets)
    , m_hub(hub)
    , m_claudePath(McpConfigImport::claudeDesktopConfigPath())
{
    Q_ASSERT(settings && secrets);

    // The offer to import Claude Desktop's servers, shown only when it applies.
    m_claudeBar = new QWidget(this);
    m_claudeOffer = named(new QLabel(m_claudeBar), u"claudeImportOffer"_s, tr("Import from Claude Desktop"));
    m_claudeImportButton = named(new QPushButton(tr("Import"), m_claudeBar), u"claudeImportButton"_s,
                                 tr("Import the servers of Claude Desktop"));
    auto *claudeLayout = new QHBoxLayout(m_claudeBar);
    claudeLayout->setContentsMargins(0, 0, 0, 0);
    claudeLayout->addWidget(m_claudeOffer, 1);
    claudeLayout->addWidget(m_claudeImportButton);
    m_claudeBar->hide();
    connect(m_claudeImportButton, &QPushButton::clicked, this, [this] { importFile(m_claudePath); });

    m_list = named(new QListWidget(this), u"mcpServerList"_s, tr("MCP servers"));
    m_list->setWordWrap(true);
    m_addButton = named(new QPushButton(tr("&Add"), this), u"addMcpServerButton"_s, tr("Add an MCP server"));
    m_removeButton = named(new QPushButton(tr("&Remove"), this), u"removeMcpServerButton"_s,
                           tr("Remove the selected MCP server"));
    m_importButton = named(new QPushButton(tr("&Import…"), this), u"importMcpButton"_s,
                           tr("Import MCP servers from another app's configuration file"));
    m_importButton->setToolTip(tr("Claude Desktop, Claude Code (.mcp.json), Cursor, LM Studio or VS Code"));
    m_restartButton = named(new QPushButton(tr("Re&start"), this), u"restartMcpServerButton"_s,
                            tr("Restart the selected MCP server"));
    m_notes = named(new QLabel(this), u"mcpImportNotes"_s, tr("Import notes"));
    m_notes->setWordWrap(true);
    m_notes->setTextFormat(Qt::PlainText);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notes->hide();

    m_editorStack = new QStackedWidget(this);
    auto *empty = hintLabel(tr("No MCP server yet. Add one that runs as a command (e.g. npx with a server "
                               "package) or one reached over HTTP, or import those you set up for another "
                               "app."),
                            m_editorStack);
    empty->setAlignment(Qt::AlignCenter);
    auto *details = new QWidget(m_editorStack);
    m_editor = new McpServerEditor(details);
    m_editor->setObjectName(u"mcpServerEditor"_s);
    m_editor->setKeyFileOffered(m_secrets->keyFile() != nullptr);
    m_status = named(new QLabel(details), u"mcpStatusLabel"_s, tr("Server status"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_signInBar = new McpSignInBar(details);
    m_tools = named(new QTreeWidget(details), u"mcpToolTree"_s, tr("The server's tools"));
    m_tools->setColumnCount(2);
    m_tools->setHeaderLabels({tr("Tool"), tr("Before it runs")});
    m_tools->setRootIsDecorated(false);
    m_tools->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tools->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tools->header()->setStretchLastSection(false);
    m_toolsHint = hintLabel(tr("The tools appear here once the server is running."), details);
    m_stderr = named(new QPlainTextEdit(details), u"mcpStderrView"_s, tr("The server's last output"));
    m_stderr->setReadOnly(true);
    m_stderr->setMaximumBlockCount(200);
    m_stderr->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_stderr->setPlaceholderText(
        tr("What the server writes to stderr, and the log messages it sends, appear here."));
    m_stderr->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_logLevel = named(new QComboBox(details), u"mcpLogLevelCombo"_s, tr("Log messages from"));
    // The spec's severities; nothing chosen: the server sends what it sends by default.
    const QStringList levelNames{tr("Debug"), tr("Info"),     tr("Notice"), tr("Warning"),
                                 tr("Error"), tr("Critical"), tr("Alert"),  tr("Emergency")};
    const QStringList levels = McpLogMessage::levels();
    for (int i = 0; i < levels.size(); ++i)
        m_logLevel->addItem(tr("%1 and above").arg(levelNames.value(i, levels.at(i))), levels.at(i));
    m_logLevel->setPlaceholderText(tr("What the server chooses"));

    auto *toolsBox = new QWidget(details);
    auto *toolsLayout = new QVBoxLayout(toolsBox);
    toolsLayout->addWidget(m_toolsHint);
    toolsLayout->addWidget(m_tools, 1);
    auto *editorBox = new QWidget(details);
    auto *editorLayout = new QVBoxLayout(editorBox);
    editorLayout->addWidget(m_editor);
    editorLayout->addStretch(1);
    auto *stderrBox = new QWidget(details);
    auto *stderrLayout = new QVBoxLayout(stderrBox);
    auto *levelRow = new QHBoxLayout;
    auto *levelLabel = new QLabel(tr("&Log messages:"), stderrBox);
    levelLabel->setBuddy(m_logLevel);
    levelRow->addWidget(levelLabel);
    levelRow->addWidget(m_logLevel);
    levelRow->addStretch(1);
    stderrLayout->addLayout(levelRow);
    stderrLayout->addWidget(m_stderr, 1);
    m_detailTabs = named(new QTabWidget(details), u"mcpDetailTabs"_s, tr("The server's details"));
    m_detailTabs->addTab(editorBox, tr("Connection"));
    m_detailTabs->addTab(toolsBox, tr("Tools"));
    m_detailTabs->addTab(stderrBox, tr("Output"));

    auto *detailsLayout = new QVBoxLayout(details);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    detailsLayout->addWidget(m_status);
    detailsLayout->addWidget(m_signInBar);
    detailsLayout->addWidget(m_detailTabs, 1);
    m_editorStack->addWidget(empty);
    m_editorStack->addWidget(details);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_addButton);
    buttons->addWidget(m_removeButton);
    auto *buttons2 = new QHBoxLayout;
    buttons2->addWidget(m_importButton);
    buttons2->addWidget(m_restartButton);
    auto *left = new QVBoxLayout;
    left->addWidget(m_list, 1);
    left->addLayout(buttons);
    left->addLayout(buttons2);
    left->addWidget(m_notes);
    auto *columns = new QHBoxLayout;
    columns->addLayout(left, 2);
    columns->addWidget(m_editorStack, 5);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_claudeBar);
    layout->addLayout(columns, 1);

    connect(m_list, &QListWidget::currentRowChanged, this, &McpServersPage::selectServer);
    connect(m_addButton, &QPushButton::clicked, this, &McpServersPage::addServer);
    connect(m_removeButton, &QPushButton::clicked, this, &McpServersPage::removeServer);
    connect(m_importButton, &QPushButton::clicked, this, &McpServersPage::chooseImportFile);
    connect(m_restartButton, &QPushButton::clicked, this, &McpServersPage::restartServer);
    // Restarting signs in: the server's first request is answered 401 and the browser opens.
    connect(m_signInBar, &McpSignInBar::signInRequested, this, &McpServersPage::restartServer);
    connect(m_editor, &McpServerEditor::edited, this, [this] {
        commitEditor();
        refreshStatuses();
    });
    connect(m_logLevel, &QComboBox::activated, this, &McpServersPage::chooseLogLevel);
    connect(m_tools, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem *item, int column) {
        if (column != 0 || m_current < 0)
            return;
        const QString name = item->data(0, Qt::UserRole).toString();
        const bool enabled = item->checkState(0) == Qt::Checked;
        McpServerConfig &config = m_drafts[m_current].config;
        if (enabled)
            config.disabledTools.remove(name);
        else
            config.disabledTools.insert(name);
        if (QWidget *rule = m_tools->itemWidget(item, 1))
            rule->setEnabled(enabled);
    });
    if (m_hub) {
        connect(m_hub, &McpHub::serverStateChanged, this, [this] {
            refreshStatuses();
            attachClient();
            refreshTools();
        });
        connect(m_hub, &McpHub::toolsChanged, this, [this] {
            refreshStatuses();
            refreshTools();
        });
    }
    selectServer(-1);
}

McpServersPage::~McpServersPage() = default;

QString McpServersPage::statusText(const McpServerConfig &server, const McpClient *client)
{
    if (!server.enabled)
        return tr("Off");
    if (!client)
        return tr("Starts when saved");
    switch (client->state()) {
    case McpClient::State::Stopped: return tr("Stopped");
    case McpClient::State::Starting: return tr("Starting…");
    case McpClient::State::Ready: {
        const auto info = client->startupInfo();
        const int count = int(client->tools().size());
        const QString tools = count == 1 ? tr("1 tool") : tr("%1 tools").arg(count);
        return info && !info->protocolVersion.isEmpty()
                   ? tr("Ready · %1 · protocol %2").arg(tools, info->protocolVersion)
                   : tr("Ready · %1").arg(tools);
    }
    case McpClient::State::Failed: return tr("Failed: %1").arg(client->failureReason());
    }
    return {};
}

void McpServersPage::load()
{
    QStringList problems;
    m_stored = m_settings->servers(&problems);
    m_drafts.clear();
    for (const McpServerConfig &server : std::as_const(m_stored))
        m_drafts.append({server, server.name});
    m_current = -1;
    refreshList();
    m_list->setCurrentRow(m_drafts.isEmpty() ? -1 : 0);
    if (m_drafts.isEmpty())
        selectServer(-1);
    m_notes->setText(problems.join(u'\n'));
    m_notes->setVisible(!problems.isEmpty());
    updateClaudeOffer();

    // Only when there are secrets to read anyway: a check of its own could make a locked keyring ask
    // for its password each time Settings opens. A save that fails checks again.
    if (std::any_of(m_stored.cbegin(), m_stored.cend(), [](const McpServerConfig &server) {
            return !McpSettings::secretAccounts(server).isEmpty();
        }))
        checkForKeychain();
    // Secret values arrive later; those typed meanwhile win.
    const int generation = ++m_loadGeneration;
    McpSettings::loadSecrets(
        m_stored, m_secrets, this,
        [this, generation](const QList<McpServerConfig> &loaded, const QStringList &errors) {
            if (generation != m_loadGeneration)
                return;
            commitEditor();
            for (const McpServerConfig &server : loaded) {
                for (Draft &draft : m_drafts) {
                    if (draft.appliedName != server.name)
                        continue;
                    for (const QString &header : server.secretHeaderNames()) {
                        if (draft.config.headers.value(header).isEmpty()
                            && draft.config.headers.contains(header))
                            draft.config.headers.insert(header, server.headers.value(header));
                    }
                    for (const QString &variable : server.secretEnvironmentNames()) {
                        if (draft.config.environment.value(variable).isEmpty()
                            && draft.config.environment.contains(variable))
                            draft.config.environment.insert(variable, server.environment.value(variable));
                    }
                }
            }
            if (m_current >= 0)
                m_editor->setServer(m_drafts.at(m_current).config);
            if (!errors.isEmpty()) {
                const QString text = m_notes->text();
                m_notes->setText((text.isEmpty() ? QString() : text + u'\n') + errors.join(u'\n'));
                m_notes->show();
            }
        });
}

QList<McpServerConfig> McpServersPage::servers() const
{
    QList<McpServerConfig> servers;
    for (const Draft &draft : m_drafts)
        servers.append(draft.config);
    if (m_current >= 0 && m_current < m_drafts.size()) {
        // The editor's state, as commitEditor() would take it.
        McpServerConfig edited = m_editor->server();
        edited.disabledTools = m_drafts.at(m_current).config.disabledTools;
        edited.toolApproval = m_drafts.at(m_current).config.toolApproval;
        edited.logLevel = m_drafts.at(m_current).config.logLevel;
        servers[m_current] = edited;
    }
    return servers;
}

QString McpServersPage::validationError()
{
    commitEditor();
    QStringList taken;
    for (int row = 0; row < m_drafts.size(); ++row) {
        const McpServerConfig &server = m_drafts.at(row).config;
        QString error = row == m_current ? m_editor->validationError() : QString();
        if (error.isEmpty())
            McpServerConfig::fromJson(server.toJson(), &error); // says why a server cannot be saved
        if (error.isEmpty() && taken.contains(server.name, Qt::CaseInsensitive))
            error = tr("Two MCP servers are called “%1”; each needs a name of its own.").arg(server.name);
        taken.append(server.name);
        if (!error.isEmpty()) {
            m_list->setCurrentRow(row);
            return error;
        }
    }
    return {};
}

void McpServersPage::save(std::function<void(const QStringList &errors)> done)
{
    commitEditor();
    const QList<McpServerConfig> configs = servers();
    m_settings->setServers(configs);
    const QList<McpServerConfig> previous = m_stored;
    m_stored = configs;
    for (Draft &draft : m_drafts)
        draft.appliedName = draft.config.name;
    ++m_loadGeneration; // a keychain read still running must not bring back old values
    McpSettings::saveSecrets(configs, previous, m_secrets, this,
                             [this, done = std::move(done)](QStringList errors, const QStringList &unmoved) {
                                 errors += keepSecretsWhereTheyAre(unmoved);
                                 if (!errors.isEmpty())
                                     checkForKeychain(); // a failure may be the keychain's absence
                                 done(errors);
                             });
    refreshStatuses();
    updateButtons();
}

QStringList McpServersPage::keepSecretsWhereTheyAre(const QStringList &servers)
{
    QStringList notes;
    if (servers.isEmpty())
        return notes;
    const auto keep = [&servers](McpServerConfig &server) {
        if (!servers.contains(server.name))
            return false;
        server.secretStorage = server.secretStorage == McpServerConfig::SecretStorage::File
                                   ? McpServerConfig::SecretStorage::Keychain
                                   : McpServerConfig::SecretStorage::File;
        return true;
    };
    for (McpServerConfig &server : m_stored) {
        if (keep(server))
            notes.append(server.secretStorage == McpServerConfig::SecretStorage::File
                             ? tr("The secrets of “%1” stay in the key file.").arg(server.name)
                             : tr("The secrets of “%1” stay in the keychain.").arg(server.name));
    }
    m_settings->setServers(m_stored);
    for (Draft &draft : m_drafts)
        keep(draft.config);
    if (m_current >= 0 && m_current < m_drafts.size())
        m_editor->setServer(m_drafts.at(m_current).config);
    return notes;
}

void McpServersPage::checkForKeychain()
{
    // Any account will do: without a keychain every read says so, with one a missing entry is no error.
    // (Not the servers' own: reading one of those could bring an old value back into a draft.)
    m_secrets->read(u"mcp/keychain-check"_s, this, [this](const SecretStore::Result &result) {
        m_editor->setNoKeychain(result.problem == SecretStore::Problem::NoKeychain);
    });
}

void McpServersPage::refreshList()
{
    const QSignalBlocker blocker(m_list);
    m_list->clear();
    for (int row = 0; row < m_drafts.size(); ++row)
        m_list->addItem(new QListWidgetItem);
    m_list->setCurrentRow(m_current);
    refreshStatuses();
    updateButtons();
}

void McpServersPage::refreshStatuses()
{
    for (int row = 0; row < m_drafts.size() && row < m_list->count(); ++row) {
        const McpServerConfig &server = m_drafts.at(row).config;
        const QString status = statusText(server, clientOf(row));
        const QString name = server.name.isEmpty() ? tr("(no name)") : server.name;
        QListWidgetItem *item = m_list->item(row);
        item->setText(name + u'\n' + status);
        item->setToolTip(status);
        item->setData(Qt::AccessibleTextRole, tr("%1, %2").arg(name, status));
    }
    if (m_current >= 0 && m_current < m_drafts.size()) {
        const McpServerConfig &server = m_drafts.at(m_current).config;
        m_status->setText(statusText(server, clientOf(m_current)));
        m_signInBar->setServer(server.transport == McpServerConfig::Transport::Http, clientOf(m_current));
    }
}

McpClient *McpServersPage::clientOf(int row) const
{
    if (!m_hub || row < 0 || row >= m_drafts.size() || m_drafts.at(row).appliedName.isEmpty())
        return nullptr;
    return m_hub->client(m_drafts.at(row).appliedName);
}

void McpServersPage::selectServer(int row)
{
    commitEditor();
    m_current = row >= 0 && row < m_drafts.size() ? row : -1;
    if (m_current < 0) {
        m_editorStack->setCurrentIndex(0);
        m_editor->setServer(McpServerConfig());
    } else {
        m_editor->setServer(m_drafts.at(m_current).config);
        m_editorStack->setCurrentIndex(1);
    }
    attachClient();
    refreshStatuses();
    refreshTools();
    updateButtons();
}

void McpServersPage::commitEditor()
{
    if (m_current < 0 || m_current >= m_drafts.size())
        return;
    Draft &draft = m_drafts[m_current];
    McpServerConfig edited = m_editor->server();
    // The tool rules and the log level belong to the Tools and Output tabs, not the editor.
    edited.disabledTools = draft.config.disabledTools;
    edited.toolApproval = draft.config.toolApproval;
    edited.logLevel = draft.config.logLevel;
    draft.config = edited;
}

void McpServersPage::addServer()
{
    commitEditor();
    McpServerConfig server;
    server.name = McpConfigImport::uniqueName(tr("New server"), namesOf(servers()));
    m_drafts.append({server, QString()});
    refreshList();
    m_list->setCurrentRow(int(m_drafts.size()) - 1);
    m_editor->focusName();
}

void McpServersPage::removeServer()
{
    const int row = m_current;
    if (row < 0)
        return;
    m_drafts.removeAt(row);
    m_current = -1; // nothing to commit: the edited server is gone
    refreshList();
    const int next = qMin(row, int(m_drafts.size()) - 1);
    m_list->setCurrentRow(next);
    if (next < 0)
        selectServer(-1);
    updateClaudeOffer();
}

void McpServersPage::restartServer()
{
    if (m_hub && m_current >= 0 && !m_drafts.at(m_current).appliedName.isEmpty())
        m_hub->restart(m_drafts.at(m_current).appliedName);
}

void McpServersPage::chooseImportFile()
{
    // Window-modal and asynchronous: no nested event loop.
    const QString claude = QFileInfo(m_claudePath).absolutePath();
    auto *dialog = new QFileDialog(this, tr("Import MCP Servers"),
                                   QFileInfo::exists(claude) ? claude : QDir::homePath(),
                                   tr("MCP configuration (*.json);;All files (*)"));
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setFilter(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot); // .mcp.json, .vscode
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, &McpServersPage::importFile);
    dialog->open();
}

void McpServersPage::importFile(const QString &path)
{
    const McpConfigImport result = McpConfigImport::fromFile(path);
    importServers(result.servers, result.notes, result.error);
}

void McpServersPage::importServers(const QList<McpServerConfig> &imported, const QStringList &importNotes,
                                   const QString &error)
{
    commitEditor();
    if (!error.isEmpty()) {
        m_notes->setText(error);
        m_notes->show();
        return;
    }
    QStringList notes;
    QStringList taken = namesOf(servers());
    const int first = int(m_drafts.size());
    for (McpServerConfig server : imported) {
        const QString name = McpConfigImport::uniqueName(server.name, taken);
        if (name != server.name)
            notes.append(tr("“%1” was already taken; the imported server is “%2”.").arg(server.name, name));
        server.name = name;
        taken.append(name);
        m_drafts.append({server, QString()});
    }
    notes.prepend(imported.size() == 1
                      ? tr("Imported 1 server; it starts when you save.")
                      : tr("Imported %1 servers; they start when you save.").arg(imported.size()));
    notes += importNotes;
    m_notes->setText(notes.join(u'\n'));
    m_notes->show();
    refreshList();
    if (!imported.isEmpty())
        m_list->setCurrentRow(first);
    updateClaudeOffer();
}

void McpServersPage::setClaudeDesktopConfigPath(const QString &path)
{
    m_claudePath = path;
    updateClaudeOffer();
}

void McpServersPage::updateClaudeOffer()
{
    int count = 0;
    if (QFileInfo::exists(m_claudePath)) {
        const McpConfigImport claude = McpConfigImport::fromFile(m_claudePath);
        const QList<McpServerConfig> configured = servers();
        bool anyConfigured = false;
        for (const McpServerConfig &server : claude.servers) {
            for (const McpServerConfig &mine : configured)
                anyConfigured = anyConfigured || sameEndpoint(server, mine)
                                || server.name.compare(mine.name, Qt::CaseInsensitive) == 0;
        }
        count = anyConfigured ? 0 : int(claude.servers.size());
    }
    m_claudeOffer->setText(count == 1 ? tr("Import 1 server from Claude Desktop")
                                      : tr("Import %1 servers from Claude Desktop").arg(count));
    m_claudeBar->setVisible(count > 0);
}

void McpServersPage::attachClient()
{
    McpClient *client = clientOf(m_current);
    if (client == m_client)
        return;
    if (m_client)
        disconnect(m_client, nullptr, this, nullptr);
    m_client = client;
    m_stderr->clear();
    if (!client) {
        refreshLogLevel();
        return;
    }
    m_stderr->setPlainText(client->stderrTail().join(u'\n'));
    for (const McpLogMessage &message : client->logTail())
        m_stderr->appendPlainText(message.text());
    connect(client, &McpClient::stderrLine, this,
            [this](const QString &line) { m_stderr->appendPlainText(line); });
    connect(client, &McpClient::logMessage, this,
            [this](const McpLogMessage &message) { m_stderr->appendPlainText(message.text()); });
    connect(client, &McpClient::toolsChanged, this, &McpServersPage::refreshTools);
    connect(client, &McpClient::stateChanged, this, [this] {
        refreshStatuses();
        refreshTools();
        refreshLogLevel();
    });
    refreshLogLevel();
}

void McpServersPage::refreshTools()
{
    const QSignalBlocker blocker(m_tools); // no itemChanged while filling
    m_tools->clear();
    const QList<McpToolInfo> tools = m_client ? m_client->tools() : QList<McpToolInfo>();
    m_tools->setVisible(!tools.isEmpty());
    m_toolsHint->setVisible(tools.isEmpty());
    m_detailTabs->setTabText(1, tools.isEmpty() ? tr("Tools") : tr("Tools (%1)").arg(tools.size()));
    if (m_current < 0)
        return;
    const McpServerConfig &server = m_drafts.at(m_current).config;
    for (const McpToolInfo &tool : tools) {
        auto *item = new QTreeWidgetItem(m_tools);
        item->setText(0, tool.title.isEmpty() ? tool.name : tr("%1 (%2)").arg(tool.title, tool.name));
        item->setToolTip(0, tool.description);
        item->setCheckState(0, server.disabledTools.contains(tool.name) ? Qt::Unchecked : Qt::Checked);
        item->setData(0, Qt::UserRole, tool.name);
        auto *rule = named(new QComboBox(m_tools), u"mcpToolRule_"_s + tool.name,
                           tr("Approval for %1").arg(tool.name));
        rule->addItem(tr("Run without asking"), u"always"_s);
        rule->addItem(tr("Ask me first"), u"ask"_s);
        rule->addItem(tr("Never run"), u"never"_s);
        rule->setCurrentIndex(
            qMax(0, rule->findData(server.toolApproval.value(tool.name, server.defaultApproval))));
        rule->setEnabled(item->checkState(0) == Qt::Checked);
        m_tools->setItemWidget(item, 1, rule);
        const QString name = tool.name;
        connect(rule, &QComboBox::activated, this, [this, rule, name] {
            if (m_current < 0)
                return;
            McpServerConfig &config = m_drafts[m_current].config;
            const QString value = rule->currentData().toString();
            if (value == config.defaultApproval)
                config.toolApproval.remove(name);
            else
                config.toolApproval.insert(name, value);
        });
    }
}

void McpServersPage::refreshLogLevel()
{
    const bool supported = m_client && m_client->supportsLogging();
    m_logLevel->setEnabled(supported);
    m_logLevel->setToolTip(supported ? tr("The least severe messages the server should send")
                           : m_client && m_client->state() == McpClient::State::Ready
                               ? tr("This server sends no log messages (it does not declare logging).")
                               : tr("Available once the server is running."));
    m_logLevel->setCurrentIndex(m_client ? m_logLevel->findData(m_client->logLevel()) : -1);
}

void McpServersPage::chooseLogLevel(int index)
{
    if (!m_client || index < 0)
        return;
    const QString level = m_logLevel->itemData(index).toString();
    // Saved with the server (when the settings are), so it holds for the next start and the next run.
    const QString server = m_client->config().name;
    const auto keep = [this, server](const QString &chosen) {
        for (Draft &draft : m_drafts) {
            if (draft.config.name == server)
                draft.config.logLevel = chosen;
        }
    };
    keep(level);
    QPointer<McpServersPage> self(this);
    QPointer<QPlainTextEdit> view = m_stderr;
    QPointer<McpClient> client = m_client;
    m_client->setLogLevel(level, [self, view, client, keep, level](const QString &error) {
        if (error.isEmpty())
            return;
        if (self && client)
            keep(client->logLevel()); // the level before, which the client went back to
        if (view)
            view->appendPlainText(
                tr("[Loopscope] the server refused the log level %1: %2").arg(level, error));
    });
}

void McpServersPage::updateButtons()
{
    m_removeButton->setEnabled(m_current >= 0);
    m_restartButton->setEnabled(clientOf(m_current) != nullptr);
}

} // namespace Loopscope::Ui
