#include "ui/settings/toolspage.h"

#include "agent/config/appsettings.h"
#include "agent/debug/toolapprovalpolicy.h"
#include "agent/tools/builtin/builtintools.h"
#include "ui/settings/settingswidgets.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

ToolsPage::ToolsPage(QWidget *parent)
    : SettingsPage(parent)
{
    auto *group = new QGroupBox(tr("Built-in tools"), this);
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
    auto *scopedGroup = new QGroupBox(tr("Always allowed from the chat"), this);
    m_scopedList = named(new QListWidget(scopedGroup), u"scopedApprovalsList"_s,
                         tr("Tool calls always allowed within a folder, command prefix or host"));
    m_scopedList->setMaximumHeight(fontMetrics().lineSpacing() * 7);
    m_removeScopedButton = named(new QPushButton(tr("Remo&ve"), scopedGroup), u"removeScopedApprovalButton"_s,
                                 tr("Remove the selected rule: its calls are asked about again"));
    connect(m_removeScopedButton, &QPushButton::clicked, this, &ToolsPage::removeScopedApproval);
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

    m_workspace = named(new QLineEdit(this), u"workspaceEdit"_s, tr("Workspace folder"));
    m_browseButton = named(new QPushButton(tr("&Browse…"), this), u"browseWorkspaceButton"_s,
                           tr("Choose the workspace folder"));
    connect(m_browseButton, &QPushButton::clicked, this, &ToolsPage::chooseWorkspace);
    auto *workspaceRow = new QHBoxLayout;
    workspaceRow->addWidget(m_workspace, 1);
    workspaceRow->addWidget(m_browseButton);

    auto *workspaceLabel = new QLabel(tr("Workspace &folder:"), this);
    workspaceLabel->setBuddy(m_workspace);
    auto *form = new QFormLayout;
    form->addRow(workspaceLabel, workspaceRow);
    form->addRow(
        QString(),
        hintLabel(tr("The file tools read and write only inside this folder; run_command starts in it. "
                     "The default, %1, is a folder of their own, made when a turn first offers them.")
                      .arg(QDir::toNativeSeparators(AppSettings::defaultWorkspaceFolder())),
                  this));
    m_fetchPrivate
        = named(new QCheckBox(tr("fetch_url may reach this computer and the &local network"), this),
                u"fetchPrivateCheck"_s, tr("Allow fetch_url to reach private addresses"));
    m_fetchPrivate->setToolTip(
        tr("Off: fetch_url refuses loopback and private network addresses (localhost, "
           "192.168.x.x, 10.x.x.x, …), so a model cannot reach your router or services "
           "running on this computer."));
    form->addRow(QString(), m_fetchPrivate);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(group);
    layout->addWidget(scopedGroup);
    layout->addLayout(form);
    layout->addStretch(1);
}

void ToolsPage::load(const AppSettings &settings)
{
    const QStringList enabled = settings.enabledTools();
    const QHash<QString, QString> rules = settings.toolApprovalRules();
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
    m_scopedApprovals = settings.scopedApprovals();
    refreshScopedApprovals();
    m_workspace->setText(QDir::toNativeSeparators(settings.workspaceFolder()));
    m_fetchPrivate->setChecked(settings.fetchAllowsPrivateAddresses());
}

QString ToolsPage::workspace() const
{
    return QDir::fromNativeSeparators(m_workspace->text().trimmed());
}

QString ToolsPage::validationError() const
{
    const QString folder = workspace();
    // The default folder need not exist yet: the session makes it when a turn first needs it.
    if (!folder.isEmpty() && !QFileInfo(folder).isDir()
        && QDir::cleanPath(folder) != QDir::cleanPath(AppSettings::defaultWorkspaceFolder()))
        return tr("The workspace folder %1 does not exist.").arg(QDir::toNativeSeparators(folder));
    return {};
}

void ToolsPage::focusProblem()
{
    m_workspace->setFocus();
}

void ToolsPage::save(AppSettings &settings)
{
    // Rules of tools not listed here (not built in) are kept.
    QStringList enabled;
    QHash<QString, QString> rules = settings.toolApprovalRules();
    for (const QString &name : builtinToolNames()) {
        if (m_toolEnabled.value(name)->isChecked())
            enabled.append(name);
        rules.insert(name, m_toolRule.value(name)->currentData().toString());
    }
    settings.setEnabledTools(enabled);
    settings.setToolApprovalRules(rules);
    settings.setScopedApprovals(m_scopedApprovals);
    settings.setWorkspaceFolder(workspace());
    settings.setFetchAllowsPrivateAddresses(m_fetchPrivate->isChecked());
}

QString ToolsPage::describeScopedApproval(const ScopedApproval &approval)
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

void ToolsPage::refreshScopedApprovals()
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

void ToolsPage::removeScopedApproval()
{
    const int row = m_scopedList->currentRow();
    if (row < 0 || row >= m_scopedApprovals.size())
        return;
    m_scopedApprovals.removeAt(row);
    refreshScopedApprovals();
}

void ToolsPage::chooseWorkspace()
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

} // namespace Loopscope::Ui
