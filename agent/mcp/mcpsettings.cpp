#include "agent/mcp/mcpsettings.h"

#include "agent/config/secretstore.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSettings>

#include <memory>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

const QString ServersKey = u"mcp/servers"_s;

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::McpSettings)
};

// One secret of one server: a header or an environment variable.
struct SecretSlot
{
    bool isHeader = true;
    QString name;
    QString account;
};

QList<SecretSlot> secretSlots(const McpServerConfig &server)
{
    QList<SecretSlot> found;
    for (const QString &header : server.secretHeaderNames())
        found.append({true, header, McpServerConfig::secretAccount(server.name, header)});
    for (const QString &variable : server.secretEnvironmentNames())
        found.append({false, variable, McpServerConfig::secretEnvironmentAccount(server.name, variable)});
    return found;
}

} // namespace

McpSettings::McpSettings(QSettings *settings)
    : m_settings(settings)
{
    Q_ASSERT(settings);
}

QList<McpServerConfig> McpSettings::servers(QStringList *problems) const
{
    QList<McpServerConfig> servers;
    const QByteArray stored = m_settings->value(ServersKey).toString().toUtf8();
    if (stored.isEmpty())
        return servers;
    const QJsonDocument document = QJsonDocument::fromJson(stored);
    if (!document.isArray()) {
        if (problems)
            problems->append(Tr::tr("The stored MCP servers could not be read; none are configured."));
        return servers;
    }
    for (const QJsonValue &value : document.array()) {
        QString error;
        if (auto server = McpServerConfig::fromJson(value.toObject(), &error))
            servers.append(*server);
        else if (problems)
            problems->append(error);
    }
    return servers;
}

void McpSettings::setServers(const QList<McpServerConfig> &servers)
{
    if (servers.isEmpty()) {
        m_settings->remove(ServersKey);
        return;
    }
    QJsonArray array;
    for (const McpServerConfig &server : servers)
        array.append(server.toJson()); // toJson() leaves every secret value out
    m_settings->setValue(ServersKey, QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact)));
}

QStringList McpSettings::secretAccounts(const McpServerConfig &server)
{
    QStringList accounts;
    for (const SecretSlot &slot : secretSlots(server))
        accounts.append(slot.account);
    return accounts;
}

void McpSettings::loadSecrets(const QList<McpServerConfig> &servers, SecretStore *store, QObject *context,
                              LoadCallback done)
{
    struct State
    {
        QList<McpServerConfig> servers;
        QStringList errors;
        int pending = 1; // the guard keeps a store that answers at once from finishing early
        LoadCallback done;
    };
    auto state = std::make_shared<State>();
    state->servers = servers;
    state->done = std::move(done);
    const auto finishOne = [state] {
        if (--state->pending == 0)
            state->done(state->servers, state->errors);
    };

    for (int index = 0; index < servers.size(); ++index) {
        const McpServerConfig &server = servers.at(index);
        for (const SecretSlot &slot : secretSlots(server)) {
            ++state->pending;
            store->read(
                slot.account, context,
                [state, finishOne, index, slot, name = server.name](const SecretStore::Result &result) {
                    McpServerConfig &target = state->servers[index];
                    const QString what = slot.isHeader ? Tr::tr("the header %1").arg(slot.name)
                                                       : Tr::tr("the environment variable %1").arg(slot.name);
                    if (result.secret) {
                        if (slot.isHeader)
                            target.headers.insert(slot.name, *result.secret);
                        else
                            target.environment.insert(slot.name, *result.secret);
                    } else if (result.error.isEmpty()) {
                        state->errors.append(
                            Tr::tr("The MCP server “%1”: %2 has no value in the keychain.").arg(name, what));
                    } else {
                        state->errors.append(
                            Tr::tr("The MCP server “%1”: %2 could not be read from the keychain: %3")
                                .arg(name, what, result.error));
                    }
                    finishOne();
                });
        }
    }
    finishOne();
}

void McpSettings::saveSecrets(const QList<McpServerConfig> &servers, const QList<McpServerConfig> &previous,
                              SecretStore *store, QObject *context, SaveCallback done)
{
    struct State
    {
        QStringList errors;
        int pending = 1;
        SaveCallback done;
    };
    auto state = std::make_shared<State>();
    state->done = std::move(done);
    const auto finishOne = [state] {
        if (--state->pending == 0)
            state->done(state->errors);
    };

    QStringList kept;
    for (const McpServerConfig &server : servers) {
        for (const SecretSlot &slot : secretSlots(server)) {
            kept.append(slot.account);
            const QString value
                = slot.isHeader ? server.headers.value(slot.name) : server.environment.value(slot.name);
            if (value.isEmpty())
                continue;
            ++state->pending;
            store->write(slot.account, value, context,
                         [state, finishOne, slot, name = server.name](const QString &error) {
                             if (!error.isEmpty())
                                 state->errors.append(Tr::tr("The MCP server “%1”: %2 was not saved in the "
                                                             "keychain: %3")
                                                          .arg(name, slot.name, error));
                             finishOne();
                         });
        }
    }
    QStringList removed;
    for (const McpServerConfig &server : previous) {
        for (const QString &account : secretAccounts(server)) {
            if (kept.contains(account) || removed.contains(account))
                continue;
            removed.append(account);
            ++state->pending;
            store->remove(account, context, [state, finishOne, account](const QString &error) {
                if (!error.isEmpty())
                    state->errors.append(
                        Tr::tr("A removed MCP secret (%1) stayed in the keychain: %2").arg(account, error));
                finishOne();
            });
        }
    }
    finishOne();
}

} // namespace Loopscope
