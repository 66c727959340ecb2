#pragma once

#include "agent/loop/agentpreset.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QListView;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTreeWidget;
class QTreeWidgetItem;
QT_END_NAMESPACE

namespace Loopscope {
class AgentListModel;
class AgentStore;
} // namespace Loopscope

namespace Loopscope::Ui {

class ShieldsEditor;

/*!
    The Agents page: the user's agents (AgentStore) listed, made, copied,
    deleted and edited field by field, each Save a new version whose history
    shows beside the editor; agents files imported and exported. It follows
    the settings pages' shape with a store of its own (as the MCP Servers page
    does): it shows what the store holds and a refused change says why in the
    page, the store left as it was. The default agent (Settings → Loop's
    prompt) is not listed: it is what a session runs without one.
*/
class AgentsPage final : public QWidget
{
    Q_OBJECT

public:
    // A configured MCP server as the Tools checklist offers it: whole ("mcp:NAME", also the tools it
    // adds later) or tool by tool.
    struct McpServerTools
    {
        QString server;
        QStringList tools; // the names the model sees; those known now (none while it has not started)
    };

    // \a profileNames: the provider profiles an agent may run on; \a toolNames: the single tools it
    // may be given (the built-ins; setMcpServers() adds the servers' own).
    AgentsPage(AgentStore *store, const QStringList &profileNames, const QStringList &toolNames,
               QWidget *parent = nullptr);

    AgentListModel *model() const { return m_model; }
    // Shows the agent named \a name in the editor (nothing when there is none).
    void select(const QString &name);
    QString selectedName() const { return m_shownName; }
    // The agent as the editor shows it now.
    AgentPreset editedAgent() const;

    // The page's actions, also for tests (Import and Export ask for a file first).
    bool saveShown();
    void newAgent();
    bool duplicateShown();
    bool deleteShown();
    bool importFrom(const QString &path);
    bool exportTo(const QString &path);

    // The agent's shields: the session's, or its own in the editor.
    QGroupBox *shieldsGroup() const { return m_shieldsGroup; }
    ShieldsEditor *shieldsEditor() const { return m_shieldsEditor; }
    // What the page last said (a refused change, a saved version), empty when nothing.
    QString status() const;

    // The editor's parts, for tests and screen readers.
    QLineEdit *nameEdit() const { return m_name; }
    QPlainTextEdit *instructionsEdit() const { return m_instructions; }
    QComboBox *providerBox() const { return m_provider; }
    QCheckBox *sessionToolsBox() const { return m_sessionTools; }
    // The Tools checklist: the single tools, then each MCP server (its entry checks the whole server)
    // with its tools beneath. Each item's Qt::UserRole is what an agent's "tools" holds.
    QTreeWidget *toolTree() const { return m_tools; }
    // The configured MCP servers, offered whole and tool by tool; the shown agent's choice stays.
    void setMcpServers(const QList<McpServerTools> &servers);
    // The knowledge bases an agent may search (the knowledge library's), offered in its Knowledge checklist.
    void setKnowledgeBaseNames(const QStringList &names);
    QCheckBox *sessionKnowledgeBox() const { return m_sessionKnowledge; }
    QListWidget *knowledgeList() const { return m_knowledge; }
    QListWidget *historyList() const { return m_history; }
    QPlainTextEdit *versionView() const { return m_versionView; }

signals:
    // An agent was stored: the session's chooser may offer it at once.
    void agentSaved(const QString &name);

private:
    QWidget *createEditor();
    void show(const AgentPreset &agent);
    void showHistory(const QString &name);
    void showVersion(int row);
    void onListSelection();
    void refreshAgentChecklists(const AgentPreset &agent);
    void showTools(const QStringList &on);
    QStringList checkedTools() const;
    void onToolChanged(QTreeWidgetItem *item);
    void setStatus(const QString &text);
    void askImport();
    void askExport();

    AgentStore *m_store;
    AgentListModel *m_model;
    QString m_shownName; // the stored agent the editor shows; empty: a new one
    QListView *m_list;
    QPushButton *m_duplicate;
    QPushButton *m_delete;
    QLineEdit *m_name;
    QPlainTextEdit *m_instructions;
    QComboBox *m_provider;
    QLineEdit *m_modelName;
    QCheckBox *m_sessionTools;
    QTreeWidget *m_tools;
    QStringList m_toolNames;            // the single tools offered besides the servers'
    QList<McpServerTools> m_mcpServers; // offered whole and tool by tool
    QCheckBox *m_sessionKnowledge;
    QListWidget *m_knowledge;
    QStringList m_knowledgeNames; // the library's bases, offered to every agent
    QSpinBox *m_maxIterations;
    QSpinBox *m_wrapUp;
    QComboBox *m_finalWithoutTools;
    QSpinBox *m_toolCallsPerResponse;
    QComboBox *m_handoffHistory;
    QComboBox *m_compaction;
    QSpinBox *m_compactAt;
    QSpinBox *m_parallelTools;
    QSpinBox *m_toolTimeout;
    QSpinBox *m_tokenBudget;
    QSpinBox *m_timeLimit;
    QComboBox *m_postLoop;
    QComboBox *m_onHandoff;
    QSpinBox *m_maxHandoffs;
    QDoubleSpinBox *m_temperature;
    QDoubleSpinBox *m_topP;
    QSpinBox *m_maxTokens;
    QListWidget *m_handoffs;
    QListWidget *m_subagents;
    QGroupBox *m_shieldsGroup;
    QCheckBox *m_sessionShields;
    ShieldsEditor *m_shieldsEditor;
    QListWidget *m_history;
    QPlainTextEdit *m_versionView;
    QLabel *m_status;
    // What the editor cannot show (compaction, wrap-up…): kept as loaded, so a Save never drops it.
    AgentPreset m_loaded;
};

} // namespace Loopscope::Ui
