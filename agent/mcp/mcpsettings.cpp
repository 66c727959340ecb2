#include "agent/mcp/mcpsettings.h"

#include "agent/config/secretstore.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSettings>

#include <memory>
#include <optional>

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
    enum class Kind { Header, Environment, OAuthClientSecret };
    Kind kind = Kind::Header;
    QString name;
    QString account;
    bool isHeader() const { return kind == Kind::Header; }
};

QList<SecretSlot> secretSlots(const McpServerConfig &server)
{
    QList<SecretSlot> found;
    for (const QString &header : server.secretHeaderNames())
        found.append({SecretSlot::Kind::Header, header, McpServerConfig::secretAccount(server.name, header)});
    for (const QString &variable : server.secretEnvironmentNames())
        found.append({SecretSlot::Kind::Environment, variable,
                      McpServerConfig::secretEnvironmentAccount(server.name, variable)});
    if (!server.oauth.clientSecret.isEmpty() || server.oauthSecretStored)
        found.append({SecretSlot::Kind::OAuthClientSecret, u"clientSecret"_s,
                      McpServerConfig::secretAccount(server.name, u"oauth:clientSecret"_s)});
    return found;
}

bool inKeyFile(const McpServerConfig &server)
{
    return server.secretStorage == McpServerConfig::SecretStorage::File;
}

// The store that holds a server's secrets: the keychain, or the key file the user chose for it
// (nullptr when this keychain offers none).
SecretStore *storeOf(const McpServerConfig &server, SecretStore *keychain)
{
    return inKeyFile(server) ? keychain->keyFile() : keychain;
}

QString describe(const SecretSlot &slot)
{
    switch (slot.kind) {
    case SecretSlot::Kind::Header: return Tr::tr("the header %1").arg(slot.name);
    case SecretSlot::Kind::Environment: return Tr::tr("the environment variable %1").arg(slot.name);
    case SecretSlot::Kind::OAuthClientSecret: break;
    }
    return Tr::tr("the OAuth client secret");
}

QString unreadable(const QString &server, const SecretSlot &slot, bool keyFile, const QString &why)
{
    return keyFile ? Tr::tr("The MCP server “%1”: %2 could not be read from the key file: %3")
                         .arg(server, describe(slot), why)
                   : Tr::tr("The MCP server “%1”: %2 could not be read from the keychain: %3")
                         .arg(server, describe(slot), why);
}

QString notSaved(const QString &server, const SecretSlot &slot, bool keyFile,
                 const SecretStore::WriteError &error)
{
    if (error.problem == SecretStore::Problem::NoKeychain) {
        const QString fix
            = slot.kind != SecretSlot::Kind::Environment
                  ? Tr::tr("Keep this server’s secrets in a file only you can read (Settings → MCP Servers).")
                  : Tr::tr("Keep this server’s secrets in a file only you can read (Settings → MCP Servers), "
                           "or leave %1 out here and set it in the environment Loopscope starts in.")
                        .arg(slot.name);
        return Tr::tr("The MCP server “%1”: %2 was not saved: there is no keychain on this desktop. %3")
            .arg(server, describe(slot), fix);
    }
    return keyFile ? Tr::tr("The MCP server “%1”: %2 was not saved in the key file: %3")
                         .arg(server, describe(slot), error.text)
                   : Tr::tr("The MCP server “%1”: %2 was not saved in the keychain: %3")
                         .arg(server, describe(slot), error.text);
}

QString noKeyFile(const QString &server)
{
    return Tr::tr("The MCP server “%1” keeps its secrets in a key file, and there is none here.").arg(server);
}

// The stored list as it is, entries that no longer parse included; nullopt when it is not a list.
std::optional<QJsonArray> storedArray(const QSettings *settings)
{
    const QByteArray stored = settings->value(ServersKey).toString().toUtf8();
    if (stored.isEmpty())
        return QJsonArray();
    const QJsonDocument document = QJsonDocument::fromJson(stored);
    if (!document.isArray())
        return std::nullopt;
    return document.array();
}

qsizetype indexOfName(const QJsonArray &array, const QString &name)
{
    for (qsizetype index = 0; index < array.size(); ++index) {
        if (array.at(index).toObject().value("name"_L1).toString().trimmed().compare(name,
                                                                                     Qt::CaseInsensitive)
            == 0)
            return index;
    }
    return -1;
}

QString unreadableList()
{
    return Tr::tr("The stored MCP servers could not be read; fix or remove them in Settings → MCP Servers "
                  "first.");
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
    QJsonArray array;
    for (const McpServerConfig &server : servers)
        array.append(server.toJson()); // toJson() leaves every secret value out
    writeArray(array);
}

void McpSettings::writeArray(const QJsonArray &array)
{
    if (array.isEmpty())
        m_settings->remove(ServersKey);
    else
        m_settings->setValue(ServersKey,
                             QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact)));
}

QString McpSettings::nameProblem(const QString &name) const
{
    const std::optional<QJsonArray> array = storedArray(m_settings);
    if (!array)
        return unreadableList();
    const qsizetype index = indexOfName(*array, name.trimmed());
    if (index >= 0)
        return Tr::tr("There is already an MCP server called “%1”; remove it first or choose another name.")
            .arg(array->at(index).toObject().value("name"_L1).toString());
    return {};
}

void McpSettings::add(const McpServerConfig &server, SecretStore *store, QObject *context, DoneCallback done)
{
    QString error;
    if (!McpServerConfig::fromJson(server.toJson(), &error))
        return done(error);
    if (const QString problem = nameProblem(server.name); !problem.isEmpty())
        return done(problem);
    saveSecrets({server}, {}, store, context,
                [this, server, done = std::move(done)](const QStringList &errors, const QStringList &) {
                    if (!errors.isEmpty())
                        return done(errors.join(u' '));
                    // Checked again: the settings may have changed while the keychain worked.
                    if (const QString problem = nameProblem(server.name); !problem.isEmpty())
                        return done(problem);
                    QJsonArray array = storedArray(m_settings).value_or(QJsonArray());
                    array.append(server.toJson()); // toJson() leaves every secret value out
                    writeArray(array);
                    done({});
                });
}

bool McpSettings::remove(const QString &name, SecretStore *store, QObject *context, DoneCallback done,
                         QString *error)
{
    std::optional<QJsonArray> array = storedArray(m_settings);
    if (!array) {
        *error = unreadableList();
        return false;
    }
    const qsizetype index = indexOfName(*array, name.trimmed());
    if (index < 0) {
        QStringList names;
        for (const QJsonValue &entry : std::as_const(*array))
            names.append(entry.toObject().value("name"_L1).toString());
        *error = names.isEmpty() ? Tr::tr("There is no MCP server called “%1”: none is configured.").arg(name)
                                 : Tr::tr("There is no MCP server called “%1”; the servers are %2.")
                                       .arg(name, names.join(u", "_s));
        return false;
    }
    const std::optional<McpServerConfig> removed = McpServerConfig::fromJson(array->at(index).toObject());
    array->removeAt(index);
    writeArray(*array);
    if (!removed) {
        done({}); // an entry that no longer parses names no secret we could find
        return true;
    }
    saveSecrets({}, {*removed}, store, context,
                [done = std::move(done)](const QStringList &errors, const QStringList &) {
                    done(errors.join(u' '));
                });
    return true;
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
        const QList<SecretSlot> serverSecrets = secretSlots(server);
        SecretStore *source = storeOf(server, store);
        if (!source) {
            if (!serverSecrets.isEmpty())
                state->errors.append(noKeyFile(server.name));
            continue;
        }
        const bool keyFile = inKeyFile(server);
        for (const SecretSlot &slot : serverSecrets) {
            ++state->pending;
            source->read(slot.account, context,
                         [state, finishOne, index, slot, keyFile,
                          name = server.name](const SecretStore::Result &result) {
                             McpServerConfig &target = state->servers[index];
                             if (result.secret) {
                                 if (slot.kind == SecretSlot::Kind::Header)
                                     target.headers.insert(slot.name, *result.secret);
                                 else if (slot.kind == SecretSlot::Kind::Environment)
                                     target.environment.insert(slot.name, *result.secret);
                                 else
                                     target.oauth.clientSecret = *result.secret;
                             } else if (result.error.isEmpty()) {
                                 state->errors.append(
                                     keyFile ? Tr::tr("The MCP server “%1”: %2 has no value in the key file.")
                                                   .arg(name, describe(slot))
                                             : Tr::tr("The MCP server “%1”: %2 has no value in the keychain.")
                                                   .arg(name, describe(slot)));
                             } else {
                                 state->errors.append(unreadable(name, slot, keyFile, result.error));
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
    // Two phases: every write first; then, once all have answered, the old copies of the secrets
    // that moved (keychain <-> key file) are removed, but only for servers whose every secret
    // arrived in its new place, so a server is never left with its secrets split between the two.
    struct Move
    {
        QString server;
        SecretStore *from = nullptr;
        QString account;
    };
    struct State
    {
        QStringList errors;
        QStringList unmoved;
        QList<Move> moves;
        bool writing = true;
        int pending = 1;
        SaveCallback done;
    };
    auto state = std::make_shared<State>();
    state->done = std::move(done);
    const auto removeFrom = [context](const std::shared_ptr<State> &state, SecretStore *from,
                                      const QString &account, const std::function<void()> &finished) {
        ++state->pending;
        from->remove(account, context, [state, finished, account](const SecretStore::WriteError &error) {
            if (!error.isEmpty() && error.problem != SecretStore::Problem::NoKeychain)
                state->errors.append(Tr::tr("A removed MCP secret (%1) stayed where it was kept: %2")
                                         .arg(account, error.text));
            finished();
        });
    };
    auto finishOne = std::make_shared<std::function<void()>>();
    *finishOne = [state, removeFrom, weakFinish = std::weak_ptr(finishOne)] {
        if (--state->pending > 0)
            return;
        const auto finish = weakFinish.lock();
        if (state->writing && finish) {
            state->writing = false;
            ++state->pending;
            for (const Move &move : std::as_const(state->moves)) {
                if (!state->unmoved.contains(move.server))
                    removeFrom(state, move.from, move.account, *finish);
            }
            (*finish)();
            return;
        }
        state->done(state->errors, state->unmoved);
    };
    const auto failedToMove = [state](const QString &server) {
        if (!state->unmoved.contains(server))
            state->unmoved.append(server);
    };

    // Where each account was kept before this save.
    QHash<QString, SecretStore *> formerStore;
    for (const McpServerConfig &server : previous) {
        for (const QString &account : secretAccounts(server))
            formerStore.insert(account, storeOf(server, store));
    }

    QStringList kept;
    for (const McpServerConfig &server : servers) {
        SecretStore *target = storeOf(server, store);
        const QList<SecretSlot> serverSecrets = secretSlots(server);
        if (!target) {
            if (!serverSecrets.isEmpty())
                state->errors.append(noKeyFile(server.name));
            continue;
        }
        const bool keyFile = inKeyFile(server);
        for (const SecretSlot &slot : serverSecrets) {
            kept.append(slot.account);
            SecretStore *former = formerStore.value(slot.account);
            SecretStore *leaving = former && former != target ? former : nullptr;
            if (leaving)
                state->moves.append({server.name, leaving, slot.account});
            const QString value = slot.kind == SecretSlot::Kind::Header ? server.headers.value(slot.name)
                                  : slot.kind == SecretSlot::Kind::Environment
                                      ? server.environment.value(slot.name)
                                      : server.oauth.clientSecret;
            const auto written = [state, finishOne, failedToMove, slot, keyFile, moving = leaving != nullptr,
                                  name = server.name](const SecretStore::WriteError &error) {
                if (!error.isEmpty()) {
                    state->errors.append(notSaved(name, slot, keyFile, error));
                    if (moving)
                        failedToMove(name);
                }
                (*finishOne)();
            };
            if (!value.isEmpty()) {
                ++state->pending;
                target->write(slot.account, value, context, written);
            } else if (leaving) {
                // Not typed again: carried over from where it was, so moving loses nothing.
                ++state->pending;
                leaving->read(slot.account, context,
                              [state, finishOne, failedToMove, target, context, written, slot, keyFile,
                               name = server.name](const SecretStore::Result &result) {
                                  if (result.secret) {
                                      ++state->pending;
                                      target->write(slot.account, *result.secret, context, written);
                                  } else if (!result.error.isEmpty()) {
                                      state->errors.append(unreadable(name, slot, !keyFile, result.error));
                                      failedToMove(name);
                                  }
                                  (*finishOne)();
                              });
            }
        }
    }
    QStringList removed;
    for (const McpServerConfig &server : previous) {
        SecretStore *from = storeOf(server, store);
        for (const QString &account : secretAccounts(server)) {
            if (!from || kept.contains(account) || removed.contains(account))
                continue;
            removed.append(account);
            removeFrom(state, from, account, *finishOne);
        }
    }
    (*finishOne)();
}

} // namespace Loopscope
