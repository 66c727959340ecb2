#include "ui/agents/agentspage.h"

#include "agent/session/agentlistmodel.h"
#include "agent/session/agentstore.h"
#include "ui/settings/settingswidgets.h"
#include "ui/settings/shieldseditor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

// A spin box whose lowest value means "the session's": the agent leaves that option alone.
QSpinBox *optionalSpin(int min, int max, QWidget *parent)
{
    auto *spin = new QSpinBox(parent);
    spin->setRange(min - 1, max);
    spin->setSpecialValueText(AgentsPage::tr("the session's"));
    spin->setValue(spin->minimum());
    return spin;
}

template<typename T>
std::optional<T> spinValue(const QSpinBox *spin)
{
    return spin->value() == spin->minimum() ? std::nullopt : std::optional<T>(T(spin->value()));
}

template<typename T>
void showSpin(QSpinBox *spin, const std::optional<T> &value)
{
    spin->setValue(value ? int(*value) : spin->minimum());
}

QStringList checked(const QListWidget *list)
{
    QStringList names;
    for (int row = 0; row < list->count(); ++row) {
        if (list->item(row)->checkState() == Qt::Checked)
            names.append(list->item(row)->text());
    }
    return names;
}

// \a names as check boxes, those in \a on checked; a name only in \a on (a tool not known here) is kept.
void showChecklist(QListWidget *list, QStringList names, const QStringList &on)
{
    for (const QString &name : on) {
        if (!names.contains(name))
            names.append(name);
    }
    list->clear();
    for (const QString &name : std::as_const(names)) {
        auto *item = new QListWidgetItem(name, list);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(on.contains(name) ? Qt::Checked : Qt::Unchecked);
    }
}

// A checklist in the scrolling editor is at most about \a rows rows tall (it scrolls itself when longer), so
// an empty or short one does not push the fields below it a screen down.
void limitRows(QAbstractItemView *view, int rows)
{
    const int row = qMax(view->fontMetrics().lineSpacing(),
                         view->style()->pixelMetric(QStyle::PM_IndicatorHeight, nullptr, view))
                    + 4;
    view->setMaximumHeight(row * rows + 2 * view->frameWidth());
}

// A check box in the Tools tree for \a entry (what an agent's "tools" holds), shown as \a text.
QTreeWidgetItem *toolItem(const QString &entry, const QString &text, bool on)
{
    auto *item = new QTreeWidgetItem({text});
    item->setData(0, Qt::UserRole, entry);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
    item->setCheckState(0, on ? Qt::Checked : Qt::Unchecked);
    return item;
}

// A server checked whole offers all its tools: its single ones are shown as included, not as choices.
void followServer(QTreeWidgetItem *server)
{
    const bool whole = server->checkState(0) == Qt::Checked;
    for (int child = 0; child < server->childCount(); ++child) {
        QTreeWidgetItem *tool = server->child(child);
        tool->setFlags(whole ? Qt::ItemIsUserCheckable : Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
    }
}

} // namespace

AgentsPage::AgentsPage(AgentStore *store, const QStringList &profileNames, const QStringList &toolNames,
                       QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_model(new AgentListModel(store, this))
    , m_toolNames(toolNames)
{
    m_list = named(new QListView(this), u"agentList"_s, tr("Agents"));
    m_list->setModel(m_model);
    m_list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto *newButton = named(new QPushButton(tr("N&ew"), this), u"newAgent"_s, tr("New agent"));
    m_duplicate = named(new QPushButton(tr("D&uplicate"), this), u"duplicateAgent"_s, tr("Duplicate agent"));
    m_delete = named(new QPushButton(tr("De&lete"), this), u"deleteAgent"_s, tr("Delete agent"));
    auto *importButton
        = named(new QPushButton(tr("Im&port…"), this), u"importAgents"_s, tr("Import agents file"));
    auto *exportButton
        = named(new QPushButton(tr("E&xport…"), this), u"exportAgents"_s, tr("Export agents file"));
    connect(newButton, &QPushButton::clicked, this, &AgentsPage::newAgent);
    connect(m_duplicate, &QPushButton::clicked, this, &AgentsPage::duplicateShown);
    connect(m_delete, &QPushButton::clicked, this, &AgentsPage::deleteShown);
    connect(importButton, &QPushButton::clicked, this, &AgentsPage::askImport);
    connect(exportButton, &QPushButton::clicked, this, &AgentsPage::askExport);
    auto *listButtons = new QGridLayout;
    listButtons->addWidget(newButton, 0, 0);
    listButtons->addWidget(m_duplicate, 0, 1);
    listButtons->addWidget(m_delete, 0, 2);
    listButtons->addWidget(importButton, 1, 0);
    listButtons->addWidget(exportButton, 1, 1);
    auto *listSide = new QWidget(this);
    auto *listLayout = new QVBoxLayout(listSide);
    listLayout->setContentsMargins(0, 0, 0, 0);
    listLayout->addWidget(
        hintLabel(tr("Without an agent, a session runs as the default agent: Settings → Loop's "
                     "system prompt and options."),
                  listSide));
    listLayout->addWidget(m_list, 1);
    listLayout->addLayout(listButtons);

    // The editor is long (loop options, shields): it scrolls, and Save stays in sight below it.
    QWidget *editor = createEditor();
    auto *editorScroll = new QScrollArea(this);
    editorScroll->setWidgetResizable(true);
    editorScroll->setFrameShape(QFrame::NoFrame);
    editorScroll->setWidget(editor);
    auto *save = named(new QPushButton(tr("&Save as New Version"), this), u"saveAgent"_s, tr("Save agent"));
    connect(save, &QPushButton::clicked, this, &AgentsPage::saveShown);
    auto *editorSide = new QWidget(this);
    auto *editorLayout = new QVBoxLayout(editorSide);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->addWidget(editorScroll, 1);
    editorLayout->addWidget(save, 0, Qt::AlignRight);

    m_history = named(new QListWidget(this), u"agentHistory"_s, tr("Versions of the agent"));
    m_versionView = named(new QPlainTextEdit(this), u"agentVersion"_s, tr("The selected version"));
    m_versionView->setReadOnly(true);
    connect(m_history, &QListWidget::currentRowChanged, this, &AgentsPage::showVersion);
    auto *historyBox = new QGroupBox(tr("Versions"), this);
    auto *historyLayout = new QVBoxLayout(historyBox);
    historyLayout->addWidget(m_history, 1);
    historyLayout->addWidget(m_versionView, 2);

    // The agents and the shown one's versions share a column, so the editor keeps the width its forms
    // need on a small screen.
    auto *sideColumn = new QSplitter(Qt::Vertical, this);
    sideColumn->addWidget(listSide);
    sideColumn->addWidget(historyBox);
    sideColumn->setChildrenCollapsible(false);
    auto *splitter = new QSplitter(this);
    splitter->addWidget(sideColumn);
    splitter->addWidget(editorSide);
    splitter->setChildrenCollapsible(false);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({1, 3}); // in proportion: a quarter for the list, the rest for the editor

    m_status = named(new QLabel(this), u"agentsStatus"_s, tr("Agents status"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->hide();

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_status);

    for (const QString &name : profileNames)
        m_provider->addItem(name, name);
    m_shieldsEditor->setProfileNames(profileNames);
    showTools({});
    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &AgentsPage::onListSelection);
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] { select(m_shownName); });
    if (!m_store->isEmpty())
        select(m_store->roster().agents.constFirst().name);
    else
        newAgent();
}

QWidget *AgentsPage::createEditor()
{
    auto *editor = new QWidget(this);
    m_name = named(new QLineEdit(editor), u"agentName"_s, tr("Agent name"));
    m_name->setPlaceholderText(tr("letters, digits, _ or -, e.g. billing"));
    m_instructions = named(new QPlainTextEdit(editor), u"agentInstructions"_s, tr("Instructions"));
    m_instructions->setPlaceholderText(tr("The agent's system prompt"));
    m_provider = named(new QComboBox(editor), u"agentProvider"_s, tr("Provider profile"));
    m_provider->addItem(tr("The session's provider"), QString());
    m_modelName = named(new QLineEdit(editor), u"agentModel"_s, tr("Model"));
    m_modelName->setPlaceholderText(tr("the provider's model"));

    m_sessionTools = named(new QCheckBox(tr("The session's tools"), editor), u"agentSessionTools"_s,
                           tr("Use the session's tools"));
    m_tools = named(new QTreeWidget(editor), u"agentTools"_s, tr("Tools"));
    m_tools->setHeaderHidden(true);
    m_tools->setRootIsDecorated(true);
    limitRows(m_tools, 12);
    connect(m_tools, &QTreeWidget::itemChanged, this, &AgentsPage::onToolChanged);
    connect(m_sessionTools, &QCheckBox::toggled, m_tools, &QWidget::setDisabled);
    m_sessionKnowledge = named(new QCheckBox(tr("The session's knowledge bases"), editor),
                               u"agentSessionKnowledge"_s, tr("Search the session's knowledge bases"));
    m_knowledge = named(new QListWidget(editor), u"agentKnowledge"_s, tr("Knowledge bases"));
    limitRows(m_knowledge, 6);
    connect(m_sessionKnowledge, &QCheckBox::toggled, m_knowledge, &QWidget::setDisabled);

    m_maxIterations = optionalSpin(1, 1000, editor);
    m_wrapUp = named(optionalSpin(0, 1000, editor), u"agentWrapUp"_s, tr("Wrap-up iterations"));
    m_finalWithoutTools
        = named(new QComboBox(editor), u"agentFinalWithoutTools"_s, tr("Last iteration without tools"));
    m_finalWithoutTools->addItem(tr("the session's"), -1);
    m_finalWithoutTools->addItem(tr("yes: the last iteration offers no tools"), 1);
    m_finalWithoutTools->addItem(tr("no"), 0);
    m_toolCallsPerResponse = optionalSpin(1, AgentConfig::MaxToolCallsLimit, editor);
    m_handoffHistory = new QComboBox(editor);
    m_handoffHistory->addItem(tr("the session's"), -1);
    m_handoffHistory->addItem(tr("everything"), int(HandoffHistory::All));
    m_handoffHistory->addItem(tr("the text, without its tool calls"), int(HandoffHistory::Text));
    m_compaction = named(new QComboBox(editor), u"agentCompaction"_s, tr("When the context fills"));
    m_compaction->addItem(tr("the session's"), -1);
    for (const CompactionStrategy strategy :
         {CompactionStrategy::Auto, CompactionStrategy::TrimToolResults, CompactionStrategy::Summarise,
          CompactionStrategy::DropOldest, CompactionStrategy::Off})
        m_compaction->addItem(compactionStrategyName(strategy), int(strategy));
    m_compactAt = optionalSpin(1, 100, editor);
    m_compactAt->setSuffix(tr(" %"));
    m_parallelTools = optionalSpin(1, 64, editor);
    m_toolTimeout = optionalSpin(1, 86'400, editor);
    m_toolTimeout->setSuffix(tr(" s"));
    m_tokenBudget = optionalSpin(0, 100'000'000, editor);
    m_timeLimit = named(optionalSpin(0, 86'400, editor), u"agentTimeLimit"_s, tr("Turn time limit"));
    m_timeLimit->setSuffix(tr(" s"));
    m_timeLimit->setToolTip(tr("The time a turn of this agent may take, not counting waits for you; 0: none. "
                               "As a sub-agent: the time its answer may take."));
    m_postLoop = new QComboBox(editor);
    m_postLoop->addItem(tr("the session's"), -1);
    m_postLoop->addItem(tr("reflect"), int(PostLoopMode::Reflect));
    m_postLoop->addItem(tr("summary"), int(PostLoopMode::Summary));
    m_postLoop->addItem(tr("none"), int(PostLoopMode::None));
    m_onHandoff = new QComboBox(editor);
    m_onHandoff->addItem(tr("the session's"), -1);
    m_onHandoff->addItem(tr("continue the turn"), int(HandoffMode::Continue));
    m_onHandoff->addItem(tr("end the turn"), int(HandoffMode::End));
    m_maxHandoffs = optionalSpin(0, 100, editor);
    m_temperature = new QDoubleSpinBox(editor);
    m_temperature->setRange(-0.05, 2);
    m_temperature->setSingleStep(0.05);
    m_temperature->setSpecialValueText(tr("the session's"));
    m_temperature->setValue(m_temperature->minimum());
    m_topP = named(new QDoubleSpinBox(editor), u"agentTopP"_s, tr("Top p"));
    m_topP->setRange(-0.05, 1);
    m_topP->setSingleStep(0.05);
    m_topP->setSpecialValueText(tr("the session's"));
    m_topP->setValue(m_topP->minimum());
    m_topP->setToolTip(tr("Nucleus sampling (top_p). Some models refuse a temperature and top_p together; "
                          "their error is shown in the chat."));
    m_maxTokens = optionalSpin(1, 10'000'000, editor);
    m_handoffs = named(new QListWidget(editor), u"agentHandoffs"_s, tr("Handoffs"));
    m_subagents = named(new QListWidget(editor), u"agentSubagents"_s, tr("Sub-agents"));
    limitRows(m_handoffs, 6);
    limitRows(m_subagents, 6);

    auto *loop = new QGroupBox(tr("Loop"), editor);
    auto *loopForm = new QFormLayout(loop);
    loopForm->addRow(tr("Iteration limit:"), m_maxIterations);
    loopForm->addRow(tr("Wrap-up iterations:"), m_wrapUp);
    loopForm->addRow(tr("Last iteration without tools:"), m_finalWithoutTools);
    loopForm->addRow(tr("Tool calls per response:"), m_toolCallsPerResponse);
    loopForm->addRow(tr("Parallel tool calls:"), m_parallelTools);
    loopForm->addRow(tr("Tool time limit:"), m_toolTimeout);
    loopForm->addRow(tr("Token budget:"), m_tokenBudget);
    loopForm->addRow(tr("Turn time limit:"), m_timeLimit);
    loopForm->addRow(tr("After the loop:"), m_postLoop);
    loopForm->addRow(tr("On a handoff:"), m_onHandoff);
    loopForm->addRow(tr("Handoff limit:"), m_maxHandoffs);
    loopForm->addRow(tr("Handed on:"), m_handoffHistory);
    loopForm->addRow(tr("When the context fills:"), m_compaction);
    loopForm->addRow(tr("Compact at:"), m_compactAt);
    auto *sampling = new QGroupBox(tr("Sampling"), editor);
    auto *samplingForm = new QFormLayout(sampling);
    samplingForm->addRow(tr("Temperature:"), m_temperature);
    samplingForm->addRow(tr("Top p:"), m_topP);
    samplingForm->addRow(tr("Output tokens:"), m_maxTokens);
    auto *team = new QGroupBox(tr("Other agents"), editor);
    auto *teamForm = new QFormLayout(team);
    teamForm->addRow(tr("Hands off to (transfer_to_…):"), m_handoffs);
    teamForm->addRow(tr("Asks (ask_…):"), m_subagents);
    // Absent shields in the file are the session's (Settings → Loop); the agent's own replace them.
    m_shieldsGroup = named(new QGroupBox(tr("Shields"), editor), u"agentShields"_s, tr("Shields"));
    m_sessionShields = named(new QCheckBox(tr("The session's shields"), m_shieldsGroup),
                             u"agentSessionShields"_s, tr("Use the session's shields"));
    m_shieldsEditor = new ShieldsEditor(m_shieldsGroup);
    m_shieldsEditor->setObjectName(u"agentShieldsEditor"_s);
    connect(m_sessionShields, &QCheckBox::toggled, m_shieldsEditor, &QWidget::setDisabled);
    auto *shieldsLayout = new QVBoxLayout(m_shieldsGroup);
    shieldsLayout->addWidget(m_sessionShields);
    shieldsLayout->addWidget(m_shieldsEditor);

    // The mnemonics leave out the letters of the shields editor below (n, g, c, i, v, f, h, w, d), which
    // Settings → Loop shows with mnemonics of its own.
    auto *form = new QFormLayout;
    form->addRow(tr("N&ame:"), m_name);
    form->addRow(tr("Ins&tructions:"), m_instructions);
    form->addRow(tr("P&rovider:"), m_provider);
    form->addRow(tr("&Model:"), m_modelName);
    form->addRow(tr("T&ools:"), m_sessionTools);
    form->addRow(QString(), m_tools);
    form->addRow(tr("&Knowledge:"), m_sessionKnowledge);
    form->addRow(QString(), m_knowledge);
    auto *layout = new QVBoxLayout(editor);
    layout->addLayout(form);
    layout->addWidget(loop);
    layout->addWidget(sampling);
    layout->addWidget(team);
    layout->addWidget(m_shieldsGroup);
    layout->addStretch(1);
    return editor;
}

void AgentsPage::setMcpServers(const QList<McpServerTools> &servers)
{
    m_mcpServers = servers;
    // The shown agent's choice stays as it is in the editor.
    showTools(checkedTools());
}

void AgentsPage::showTools(const QStringList &on)
{
    const QSignalBlocker blocker(m_tools);
    m_tools->clear();
    QStringList shown;
    QStringList serversTools;
    for (const McpServerTools &server : std::as_const(m_mcpServers))
        serversTools += server.tools;
    for (const QString &name : std::as_const(m_toolNames)) {
        if (!serversTools.contains(name) && !shown.contains(name)) {
            m_tools->addTopLevelItem(toolItem(name, name, on.contains(name)));
            shown.append(name);
        }
    }
    for (const McpServerTools &server : std::as_const(m_mcpServers)) {
        const QString entry = AgentPreset::mcpServerEntry(server.server);
        QTreeWidgetItem *whole
            = toolItem(entry, tr("%1: every tool of this MCP server").arg(server.server), on.contains(entry));
        whole->setToolTip(0, tr("Every tool the MCP server \"%1\" offers, also those it adds later (saved as "
                                "\"%2\"). Or check single tools beneath it.")
                                 .arg(server.server, entry));
        m_tools->addTopLevelItem(whole);
        shown.append(entry);
        for (const QString &tool : server.tools) {
            whole->addChild(toolItem(tool, tool, on.contains(tool)));
            shown.append(tool);
        }
        followServer(whole);
    }
    // What the agent names that is not offered now (a server no longer configured, a tool of a server
    // that has not started) stays checked, so a Save keeps it.
    for (const QString &entry : on) {
        if (shown.contains(entry))
            continue;
        const std::optional<QString> server = AgentPreset::mcpServerOf(entry);
        m_tools->addTopLevelItem(toolItem(
            entry, server ? tr("%1: every tool of this MCP server (not configured)").arg(*server) : entry,
            true));
        shown.append(entry);
    }
    m_tools->expandAll();
}

QStringList AgentsPage::checkedTools() const
{
    QStringList entries;
    for (int top = 0; top < m_tools->topLevelItemCount(); ++top) {
        const QTreeWidgetItem *item = m_tools->topLevelItem(top);
        const bool whole = item->checkState(0) == Qt::Checked;
        if (whole)
            entries.append(item->data(0, Qt::UserRole).toString());
        // A server checked whole already offers each of its tools.
        for (int child = 0; child < item->childCount() && !whole; ++child) {
            if (item->child(child)->checkState(0) == Qt::Checked)
                entries.append(item->child(child)->data(0, Qt::UserRole).toString());
        }
    }
    return entries;
}

void AgentsPage::onToolChanged(QTreeWidgetItem *item)
{
    if (item->childCount() > 0) {
        const QSignalBlocker blocker(m_tools);
        followServer(item);
    }
}

void AgentsPage::setKnowledgeBaseNames(const QStringList &names)
{
    m_knowledgeNames = names;
    // The shown agent's choice stays as it is in the editor (a base it names that is not offered is kept).
    showChecklist(m_knowledge, names, checked(m_knowledge));
}

void AgentsPage::select(const QString &name)
{
    const int row = m_model->rowOf(name);
    if (row < 0) {
        if (!m_store->isEmpty())
            select(m_store->roster().agents.constFirst().name);
        else
            newAgent();
        return;
    }
    const QModelIndex index = m_model->index(row);
    if (m_list->currentIndex() != index)
        m_list->setCurrentIndex(index); // onListSelection() shows it
    else
        show(*m_store->roster().find(name));
}

void AgentsPage::onListSelection()
{
    const QModelIndex index = m_list->currentIndex();
    if (index.isValid())
        show(*m_store->roster().find(index.data(AgentListModel::NameRole).toString()));
}

void AgentsPage::show(const AgentPreset &agent)
{
    m_loaded = agent;
    m_shownName = agent.name;
    m_name->setText(agent.name);
    m_instructions->setPlainText(agent.instructions);
    const int provider = m_provider->findData(agent.provider.value_or(QString()));
    if (provider < 0 && agent.provider)
        m_provider->addItem(tr("%1 (no such profile)").arg(*agent.provider), *agent.provider);
    m_provider->setCurrentIndex(m_provider->findData(agent.provider.value_or(QString())));
    m_modelName->setText(agent.model.value_or(QString()));
    m_sessionTools->setChecked(!agent.tools);
    showTools(agent.tools.value_or(QStringList()));
    m_sessionKnowledge->setChecked(!agent.knowledge);
    showChecklist(m_knowledge, m_knowledgeNames, agent.knowledge.value_or(QStringList()));
    showSpin(m_maxIterations, agent.maxIterations);
    showSpin(m_wrapUp, agent.wrapUpIterations);
    m_finalWithoutTools->setCurrentIndex(m_finalWithoutTools->findData(
        agent.toolLessFinalIteration ? int(*agent.toolLessFinalIteration) : -1));
    showSpin(m_toolCallsPerResponse, agent.maxToolCallsPerResponse);
    m_handoffHistory->setCurrentIndex(
        m_handoffHistory->findData(agent.handoffHistory ? int(*agent.handoffHistory) : -1));
    m_compaction->setCurrentIndex(m_compaction->findData(agent.compaction ? int(*agent.compaction) : -1));
    showSpin(m_compactAt, agent.compactAtPercent);
    showSpin(m_parallelTools, agent.maxParallelTools);
    showSpin(m_toolTimeout, agent.toolTimeoutSeconds);
    showSpin(m_tokenBudget, agent.tokenBudget);
    showSpin(m_timeLimit, agent.timeLimitSeconds);
    m_postLoop->setCurrentIndex(m_postLoop->findData(agent.postLoop ? int(*agent.postLoop) : -1));
    m_onHandoff->setCurrentIndex(m_onHandoff->findData(agent.onHandoff ? int(*agent.onHandoff) : -1));
    showSpin(m_maxHandoffs, agent.maxHandoffs);
    m_temperature->setValue(agent.temperature.value_or(m_temperature->minimum()));
    m_topP->setValue(agent.topP.value_or(m_topP->minimum()));
    showSpin(m_maxTokens, agent.maxOutputTokens);
    m_sessionShields->setChecked(!agent.shields);
    m_shieldsEditor->setShields(agent.shields.value_or(AgentShields{}));
    refreshAgentChecklists(agent);
    m_duplicate->setEnabled(!m_shownName.isEmpty());
    m_delete->setEnabled(!m_shownName.isEmpty());
    showHistory(m_shownName);
}

void AgentsPage::refreshAgentChecklists(const AgentPreset &agent)
{
    QStringList others;
    for (const AgentPreset &other : m_store->roster().agents) {
        if (other.name != agent.name)
            others.append(other.name);
    }
    showChecklist(m_handoffs, others, agent.handoffs);
    showChecklist(m_subagents, others, agent.subagents);
}

AgentPreset AgentsPage::editedAgent() const
{
    AgentPreset agent = m_loaded; // what the editor has no field for stays as it was
    agent.name = m_name->text().trimmed();
    agent.instructions = m_instructions->toPlainText();
    const QString provider = m_provider->currentData().toString();
    agent.provider = provider.isEmpty() ? std::nullopt : std::optional(provider);
    const QString model = m_modelName->text().trimmed();
    agent.model = model.isEmpty() ? std::nullopt : std::optional(model);
    agent.tools = m_sessionTools->isChecked() ? std::nullopt : std::optional(checkedTools());
    agent.knowledge = m_sessionKnowledge->isChecked() ? std::nullopt : std::optional(checked(m_knowledge));
    agent.maxIterations = spinValue<int>(m_maxIterations);
    agent.wrapUpIterations = spinValue<int>(m_wrapUp);
    const int finalWithoutTools = m_finalWithoutTools->currentData().toInt();
    agent.toolLessFinalIteration
        = finalWithoutTools < 0 ? std::nullopt : std::optional(finalWithoutTools == 1);
    agent.maxToolCallsPerResponse = spinValue<int>(m_toolCallsPerResponse);
    const int handoffHistory = m_handoffHistory->currentData().toInt();
    agent.handoffHistory = handoffHistory < 0 ? std::nullopt : std::optional(HandoffHistory(handoffHistory));
    const int compaction = m_compaction->currentData().toInt();
    agent.compaction = compaction < 0 ? std::nullopt : std::optional(CompactionStrategy(compaction));
    agent.compactAtPercent = spinValue<int>(m_compactAt);
    agent.maxParallelTools = spinValue<int>(m_parallelTools);
    agent.toolTimeoutSeconds = spinValue<int>(m_toolTimeout);
    agent.tokenBudget = spinValue<qint64>(m_tokenBudget);
    agent.timeLimitSeconds = spinValue<int>(m_timeLimit);
    const int postLoop = m_postLoop->currentData().toInt();
    agent.postLoop = postLoop < 0 ? std::nullopt : std::optional(PostLoopMode(postLoop));
    const int onHandoff = m_onHandoff->currentData().toInt();
    agent.onHandoff = onHandoff < 0 ? std::nullopt : std::optional(HandoffMode(onHandoff));
    agent.maxHandoffs = spinValue<int>(m_maxHandoffs);
    agent.temperature = m_temperature->value() == m_temperature->minimum()
                            ? std::nullopt
                            : std::optional(m_temperature->value());
    agent.topP = m_topP->value() == m_topP->minimum() ? std::nullopt : std::optional(m_topP->value());
    agent.maxOutputTokens = spinValue<int>(m_maxTokens);
    agent.handoffs = checked(m_handoffs);
    agent.subagents = checked(m_subagents);
    agent.shields = m_sessionShields->isChecked() ? std::nullopt : std::optional(m_shieldsEditor->shields());
    return agent;
}

bool AgentsPage::saveShown()
{
    if (!m_sessionShields->isChecked() && !m_shieldsEditor->problem().isEmpty()) {
        setStatus(tr("Not saved: %1").arg(m_shieldsEditor->problem()));
        m_shieldsEditor->focusProblem();
        return false;
    }
    QString error;
    const std::optional<AgentPreset> stored = m_store->save(m_shownName, editedAgent(), &error);
    if (!stored) {
        setStatus(tr("Not saved: %1").arg(error));
        return false;
    }
    m_shownName = stored->name;
    select(stored->name);
    setStatus(tr("Saved \"%1\" as version %2.").arg(stored->name).arg(stored->version));
    emit agentSaved(stored->name);
    return true;
}

void AgentsPage::newAgent()
{
    m_list->clearSelection();
    m_list->setCurrentIndex({});
    AgentPreset fresh;
    show(fresh);
    m_name->setFocus();
}

bool AgentsPage::duplicateShown()
{
    QString error;
    const std::optional<AgentPreset> copy = m_store->duplicate(m_shownName, &error);
    if (!copy) {
        setStatus(tr("Not duplicated: %1").arg(error));
        return false;
    }
    select(copy->name);
    setStatus(tr("\"%1\" is a copy of \"%2\".").arg(copy->name, m_loaded.name));
    return true;
}

bool AgentsPage::deleteShown()
{
    QString error;
    const QString name = m_shownName;
    if (!m_store->remove(name, &error)) {
        setStatus(tr("Not deleted: %1").arg(error));
        return false;
    }
    setStatus(tr("Deleted \"%1\" and its versions.").arg(name));
    return true;
}

bool AgentsPage::importFrom(const QString &path)
{
    QString error;
    if (!m_store->importFile(path, &error)) {
        setStatus(tr("Nothing imported: %1").arg(error));
        return false;
    }
    setStatus(tr("Imported the agents of \"%1\".").arg(path));
    return true;
}

bool AgentsPage::exportTo(const QString &path)
{
    QString error;
    if (!m_store->exportFile(path, &error)) {
        setStatus(tr("Not exported: %1").arg(error));
        return false;
    }
    setStatus(tr("Exported the agents to \"%1\".").arg(path));
    return true;
}

void AgentsPage::askImport()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Import Agents"), QString(),
                                                      tr("Agents files (*.json);;All files (*)"));
    if (!path.isEmpty())
        importFrom(path);
}

void AgentsPage::askExport()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Agents"), u"agents.json"_s,
                                                      tr("Agents files (*.json)"));
    if (!path.isEmpty())
        exportTo(path);
}

void AgentsPage::showHistory(const QString &name)
{
    m_history->clear();
    m_versionView->clear();
    const QList<AgentVersion> versions = m_store->history(name);
    for (const AgentVersion &version : versions) {
        m_history->addItem(tr("Version %1, %2")
                               .arg(version.version)
                               .arg(QLocale().toString(version.time.toLocalTime(), QLocale::ShortFormat)));
    }
    if (m_history->count() > 0)
        m_history->setCurrentRow(m_history->count() - 1);
}

void AgentsPage::showVersion(int row)
{
    const QList<AgentVersion> versions = m_store->history(m_shownName);
    if (row < 0 || row >= versions.size()) {
        m_versionView->clear();
        return;
    }
    const std::optional<QJsonObject> definition = m_store->definition(m_shownName, versions.at(row).version);
    m_versionView->setPlainText(
        QString::fromUtf8(QJsonDocument(definition.value_or(QJsonObject())).toJson(QJsonDocument::Indented)));
}

void AgentsPage::setStatus(const QString &text)
{
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
}

QString AgentsPage::status() const
{
    return m_status->text();
}

} // namespace Loopscope::Ui
