#pragma once

#include "agent/debug/approvalscope.h"
#include "agent/loop/agentconfig.h"
#include "agent/model/responselimits.h"

#include <QHash>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QSettings;
QT_END_NAMESPACE

namespace Loopscope {

/*!
    The user's preferences that are not provider profiles, kept in QSettings:
    loop options, which built-in tools are on and where they may look, the
    per-tool approval rules, and how the composer sends. Nothing secret.
*/
class AppSettings final
{
public:
    explicit AppSettings(QSettings *settings);

    // The loop options (max iterations, parallel tools, post-loop mode, tool
    // timeout, system prompt) applied over AgentConfig's defaults.
    AgentConfig agentConfig() const;
    void setAgentConfig(const AgentConfig &config);

    // How long a provider may stay silent mid-response before the call fails.
    int providerReadTimeoutMs() const;
    void setProviderReadTimeoutMs(int milliseconds);

    // What one answer from a provider or an MCP server may cost: its size and the time of an attempt.
    ResponseLimits responseLimits() const;
    void setResponseLimits(const ResponseLimits &limits);

    // Built-in tool names (see builtinToolNames()); all of them unless set.
    QStringList enabledTools() const;
    void setEnabledTools(const QStringList &names);
    // The folder the file tools work in: the one the user chose, else defaultWorkspaceFolder().
    QString workspaceFolder() const;
    void setWorkspaceFolder(const QString &path);
    // Whether the user chose a folder; the default one is made when a turn first offers the file tools.
    bool workspaceChosen() const;
    // A folder of the tools' own in the user's documents, never the whole home folder.
    static QString defaultWorkspaceFolder();

    // Whether fetch_url may reach loopback and private network addresses (the
    // user's LAN, this machine); off unless set.
    bool fetchAllowsPrivateAddresses() const;
    void setFetchAllowsPrivateAddresses(bool allowed);

    // Tool name → "always" | "ask" | "never".
    QHash<QString, QString> toolApprovalRules() const;
    void setToolApprovalRules(const QHash<QString, QString> &rules);
    // The user's scoped "Always allow"s (a tool within a folder, command prefix or host),
    // kept beside the rules above so that older versions read those unchanged.
    QList<ScopedApproval> scopedApprovals() const;
    void setScopedApprovals(const QList<ScopedApproval> &approvals);

    // Enter sends (Shift+Enter for a new line); Ctrl+Enter always sends.
    bool sendOnEnter() const;
    void setSendOnEnter(bool enabled);

    // On start, the session open when the app last ran opens again (as in Jan and LM Studio); on unless set.
    bool reopenLastSession() const;
    void setReopenLastSession(bool enabled);

    // Knowledge bases: "auto" also searches them for the question before each turn and puts the best
    // passages into its requests (run --retrieve auto); "tool" (the default) only offers knowledge_search.
    bool retrieveKnowledgeBeforeTurn() const;
    void setRetrieveKnowledgeBeforeTurn(bool enabled);

private:
    QSettings *m_settings;
};

} // namespace Loopscope
