#pragma once

#include "agent/mcp/mcpserverconfig.h"

#include <QList>
#include <QStringList>

#include <functional>

QT_BEGIN_NAMESPACE
class QJsonArray;
class QObject;
class QSettings;
QT_END_NAMESPACE

namespace Loopscope {

class SecretStore;

/*!
    Where the user's MCP servers are kept: their configuration in QSettings
    (one JSON list under "mcp/servers"), the values of their secret headers
    and environment variables in the keychain (SecretStore) — or, for a
    server the user chose it for, in the key file (SecretStore::keyFile()) —
    never in settings. It lives here rather than in AppSettings because config sits
    below mcp on the ladder. Keychain work is asynchronous; callbacks arrive
    while `context` is alive (for add() and remove(), which this object must outlive).
*/
class McpSettings final
{
public:
    explicit McpSettings(QSettings *settings);

    // The stored servers, secret values empty; entries that no longer parse are
    // left out and described in \a problems.
    QList<McpServerConfig> servers(QStringList *problems = nullptr) const;
    // Stores the servers without any secret value (see saveSecrets()).
    void setServers(const QList<McpServerConfig> &servers);

    using DoneCallback = std::function<void(const QString &error)>;
    // Adds one server, as Settings → MCP Servers would save it: its secrets first, then its entry,
    // so a keychain that refuses leaves nothing behind. Entries that no longer parse are kept as
    // they are. \a done gets a sentence on failure (a name already taken, the keychain's refusal),
    // possibly at once.
    void add(const McpServerConfig &server, SecretStore *store, QObject *context, DoneCallback done);
    // Removes the server called \a name (in any case), then its secrets, and \a done gets a sentence
    // when a secret stayed behind. False with *error, and nothing changed, when there is no such server.
    bool remove(const QString &name, SecretStore *store, QObject *context, DoneCallback done, QString *error);
    // Why \a name cannot be added (taken, in any case, or unreadable settings); empty when it can.
    QString nameProblem(const QString &name) const;

    using LoadCallback
        = std::function<void(const QList<McpServerConfig> &withSecrets, const QStringList &errors)>;
    // unmoved: the servers whose secrets were to move (keychain <-> key file) and could not; their
    // secrets stay where they were, and so must the servers' secretStorage.
    using SaveCallback = std::function<void(const QStringList &errors, const QStringList &unmoved)>;

    // Fills in the secret values from \a store. Errors name the server and the
    // header or variable, including secrets that are not stored.
    static void loadSecrets(const QList<McpServerConfig> &servers, SecretStore *store, QObject *context,
                            LoadCallback done);
    // Writes the secret values that are set, and removes the keychain entries
    // of \a previous that \a servers no longer has (a removed server or header,
    // a renamed server). An empty secret value is left as stored. A server whose
    // secrets moved between the keychain and the key file has each secret written
    // to its new place (carried over when not typed again), then removed from the old.
    static void saveSecrets(const QList<McpServerConfig> &servers, const QList<McpServerConfig> &previous,
                            SecretStore *store, QObject *context, SaveCallback done);

    // The keychain accounts of a server's secrets.
    static QStringList secretAccounts(const McpServerConfig &server);

private:
    void writeArray(const QJsonArray &array);

    QSettings *m_settings;
};

} // namespace Loopscope
