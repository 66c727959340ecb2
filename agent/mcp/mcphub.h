#pragma once

#include "agent/mcp/mcpclient.h"
#include "agent/mcp/mcpserverconfig.h"
#include "agent/tools/tool.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>

#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
QT_END_NAMESPACE

namespace Loopscope {

/*!
    The user's MCP servers as one set the session works with: one McpClient
    per enabled server, their tools offered to the model under names every
    provider accepts (^[a-zA-Z0-9_-]{1,64}$, prefixed with the server's name
    when two servers offer the same one) with a map back to (server, tool),
    and each tool's approval rule. A server that fails keeps its tools for the
    running turn (a call answers with an error naming the server) and is
    started again at the next turn. Lives on the GUI thread; no widgets.
*/
class McpHub final : public QObject
{
    Q_OBJECT

public:
    struct ToolRef
    {
        QString server;
        QString tool; // as the server names it
        bool operator==(const ToolRef &) const = default;
    };

    explicit McpHub(QNetworkAccessManager *network, QObject *parent = nullptr);
    // Ends every server (stdio processes are gone when it returns).
    ~McpHub() override;

    // Replaces the configuration: clients of removed or changed servers end, new enabled ones start.
    void setServers(const QList<McpServerConfig> &servers);
    QList<McpServerConfig> servers() const;
    // nullptr for an unknown or disabled server.
    McpClient *client(const QString &serverName) const;

    void setRootFolder(const QString &folder);
    // For servers that ask for OAuth: where the sign-in opens (null: $BROWSER only) and where tokens
    // are kept (null: in memory for this run). Neither is owned.
    void setAuthorizationServices(const UrlOpener *opener, SecretStore *tokenStore);
    void setElicitationHandler(McpClient::ElicitationHandler handler);
    // Servers started after this declare sampling (McpClient::setSamplingHandler()).
    void setSamplingHandler(McpClient::SamplingHandler handler);
    // The loop's tool timeout, used for tools/call (0: none beyond the request timeout).
    void setToolTimeoutMs(int milliseconds);

    // Names the MCP tools must not take (the built-in tools on offer): a clash gets the server's prefix.
    void setBuiltinToolNames(const QSet<QString> &names);

    // A new turn begins: starts every enabled server that is stopped or failed.
    void prepareTurn();
    // True while an enabled server is still starting (a turn waits for it: serverStateChanged says when).
    bool isStarting() const;
    void restart(const QString &serverName);
    // Stops every server and waits (bounded) until their processes have ended.
    void shutdown();
    // Calls \a done (on \a context's thread, unless it is gone) once every server's notifications
    // sent so far have left, or after \a timeoutMs: run it before shutdown() when a server must
    // still hear of a cancellation.
    void whenSent(QObject *context, std::function<void()> done, int timeoutMs = 2000);

    // The tools of the servers that are ready (or failed during this turn), enabled ones only.
    QList<std::shared_ptr<const Tool>> tools() const;
    std::optional<ToolRef> resolve(const QString &modelToolName) const;
    // Model tool name -> "always" | "ask" | "never" (MCP tools default to "ask").
    QHash<QString, QString> approvalRules() const;

signals:
    // The tools on offer changed: a server became ready or went away, or sent list_changed.
    void toolsChanged();
    void serverStateChanged(const QString &serverName, Loopscope::McpClient::State state);
    // One step of a server's OAuth sign-in is over.
    void authStep(const QString &serverName, const Loopscope::McpAuthStep &step);
    // A sentence for the chat, said once per failure ("The MCP server “files” stopped: …").
    void notice(const QString &text);

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace Loopscope
