#include "agent/session/agentstore.h"

#include "agent/transcript/atomicfile.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

QJsonObject versionToJson(const AgentVersion &version)
{
    return {{u"version"_s, version.version},
            {u"time"_s, version.time.toString(Qt::ISODateWithMs)},
            {u"definition"_s, version.definition.toJson()}};
}

// The history file: {"history": {"NAME": [{"version", "time", "definition"}, …]}}.
std::optional<QHash<QString, QList<AgentVersion>>> readHistory(const QByteArray &bytes, QString *error)
{
    const QJsonDocument document = QJsonDocument::fromJson(bytes);
    const QJsonObject top = document.object().value(u"history"_s).toObject();
    if (!document.isObject() || !document.object().value(u"history"_s).isObject()) {
        *error = AgentStore::tr("it does not hold a \"history\" object");
        return std::nullopt;
    }
    QHash<QString, QList<AgentVersion>> history;
    for (auto it = top.constBegin(); it != top.constEnd(); ++it) {
        QList<AgentVersion> versions;
        for (const QJsonValue &value : it.value().toArray()) {
            const QJsonObject object = value.toObject();
            QString problem;
            std::optional<AgentPreset> definition
                = AgentPreset::fromJson(object.value(u"definition"_s).toObject(), &problem);
            const int number = object.value(u"version"_s).toInt();
            if (!definition || number < 1) {
                *error
                    = AgentStore::tr("a version of \"%1\" is malformed: %2")
                          .arg(it.key(), problem.isEmpty() ? AgentStore::tr("no version number") : problem);
                return std::nullopt;
            }
            versions.append({number,
                             QDateTime::fromString(object.value(u"time"_s).toString(), Qt::ISODateWithMs),
                             *std::move(definition)});
        }
        history.insert(it.key(), versions);
    }
    return history;
}

QString freeCopyName(const AgentRoster &roster, const QString &name)
{
    // Names are at most 48 characters: the copy's is cut to stay one.
    const QString stem = name.left(40) + u"-copy"_s;
    QString candidate = stem;
    for (int n = 2; roster.find(candidate); ++n)
        candidate = stem + u'-' + QString::number(n);
    return candidate;
}

} // namespace

AgentStore::AgentStore(const QString &folder, QObject *parent)
    : QObject(parent)
    , m_folder(folder)
{}

QString AgentStore::defaultFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + u"/agents"_s;
}

QString AgentStore::agentsPath() const
{
    return QDir(m_folder).filePath(u"agents.json"_s);
}

QString AgentStore::historyPath() const
{
    return QDir(m_folder).filePath(u"agent-history.json"_s);
}

bool AgentStore::load(QString *error)
{
    m_roster = {};
    m_history.clear();
    m_loadProblem.clear();
    if (!QFile::exists(agentsPath())) {
        emit changed();
        return true;
    }
    State state;
    std::optional<AgentRoster> roster = AgentRoster::load(agentsPath(), error);
    if (!roster) {
        m_loadProblem = *error;
        emit changed();
        return false;
    }
    state.roster = *std::move(roster);
    if (QFile history(historyPath()); history.exists()) {
        QString problem;
        std::optional<QHash<QString, QList<AgentVersion>>> versions
            = history.open(QIODevice::ReadOnly) ? readHistory(history.readAll(), &problem) : std::nullopt;
        if (!versions) {
            *error = tr("the agents' history \"%1\" cannot be read: %2")
                         .arg(historyPath(), problem.isEmpty() ? history.errorString() : problem);
            m_loadProblem = *error;
            emit changed();
            return false;
        }
        state.history = *std::move(versions);
    }
    // An agent written by hand into the file has no history yet: what it is now is its first version.
    for (AgentPreset &agent : state.roster.agents) {
        QList<AgentVersion> &versions = state.history[agent.name];
        if (versions.isEmpty() || !versions.constLast().definition.sameDefinition(agent)) {
            agent.version = (versions.isEmpty() ? 0 : versions.constLast().version) + 1;
            versions.append({agent.version, QDateTime::currentDateTimeUtc(), agent});
        } else {
            agent.version = versions.constLast().version;
        }
    }
    m_roster = std::move(state.roster);
    m_history = std::move(state.history);
    emit changed();
    return true;
}

AgentPreset AgentStore::putVersion(State &state, const QString &previousName, AgentPreset agent)
{
    QList<AgentVersion> versions = state.history.take(previousName.isEmpty() ? agent.name : previousName);
    auto stored = std::find_if(state.roster.agents.begin(), state.roster.agents.end(),
                               [&previousName](const AgentPreset &a) { return a.name == previousName; });
    const bool known = !previousName.isEmpty() && stored != state.roster.agents.end();
    if (known && stored->sameDefinition(agent)) {
        agent.version = stored->version;
    } else {
        agent.version = (versions.isEmpty() ? 0 : versions.constLast().version) + 1;
        versions.append({agent.version, QDateTime::currentDateTimeUtc(), agent});
    }
    state.history.insert(agent.name, versions);
    if (known)
        *stored = agent;
    else
        state.roster.agents.append(agent);
    return agent;
}

std::optional<AgentPreset> AgentStore::save(const QString &previousName, AgentPreset agent, QString *error)
{
    if (!previousName.isEmpty() && !m_roster.find(previousName)) {
        *error = tr("there is no agent \"%1\" to change").arg(previousName);
        return std::nullopt;
    }
    if (agent.name != previousName && m_roster.find(agent.name)) {
        *error = tr("there is already an agent named \"%1\": names must be unique").arg(agent.name);
        return std::nullopt;
    }
    State state{m_roster, m_history};
    const AgentPreset stored = putVersion(state, previousName, std::move(agent));
    // The others' handoffs and sub-agents follow a renamed agent.
    if (!previousName.isEmpty() && stored.name != previousName) {
        const QList<AgentPreset> others = state.roster.agents;
        for (AgentPreset other : others) {
            if (!other.handoffs.contains(previousName) && !other.subagents.contains(previousName))
                continue;
            for (QStringList *names : {&other.handoffs, &other.subagents})
                std::replace(names->begin(), names->end(), previousName, stored.name);
            putVersion(state, other.name, other); // an edit of it too: its next version
        }
    }
    if (!commit(std::move(state), error))
        return std::nullopt;
    return stored;
}

bool AgentStore::remove(const QString &name, QString *error)
{
    State state{m_roster, m_history};
    const qsizetype removed
        = state.roster.agents.removeIf([&name](const AgentPreset &a) { return a.name == name; });
    if (removed == 0) {
        *error = tr("there is no agent \"%1\"").arg(name);
        return false;
    }
    for (const AgentPreset &other : std::as_const(state.roster.agents)) {
        if (other.handoffs.contains(name) || other.subagents.contains(name)) {
            *error = tr("agent \"%1\" hands off to \"%2\" or asks it: take it out of its handoffs and "
                        "sub-agents "
                        "first")
                         .arg(other.name, name);
            return false;
        }
    }
    state.history.remove(name);
    return commit(std::move(state), error);
}

std::optional<AgentPreset> AgentStore::duplicate(const QString &name, QString *error)
{
    const AgentPreset *original = m_roster.find(name);
    if (!original) {
        *error = tr("there is no agent \"%1\"").arg(name);
        return std::nullopt;
    }
    AgentPreset copy = *original;
    copy.name = freeCopyName(m_roster, name);
    return save({}, std::move(copy), error);
}

QList<AgentVersion> AgentStore::history(const QString &name) const
{
    return m_history.value(name);
}

std::optional<QJsonObject> AgentStore::definition(const QString &name, int version) const
{
    for (const AgentVersion &stored : m_history.value(name)) {
        if (stored.version == version)
            return stored.definition.toJson();
    }
    return std::nullopt;
}

bool AgentStore::importFile(const QString &path, QString *error)
{
    const std::optional<AgentRoster> imported = AgentRoster::load(path, error);
    if (!imported)
        return false;
    State state{m_roster, m_history};
    for (const AgentPreset &agent : imported->agents) {
        const QString previousName = state.roster.find(agent.name) ? agent.name : QString();
        putVersion(state, previousName, agent);
    }
    return commit(std::move(state), error);
}

bool AgentStore::exportFile(const QString &path, QString *error) const
{
    if (m_roster.agents.isEmpty()) {
        *error = tr("there are no agents to export");
        return false;
    }
    return writeFileAtomically(path, QJsonDocument(m_roster.toJson()).toJson(QJsonDocument::Indented), error);
}

bool AgentStore::commit(State state, QString *error)
{
    if (!m_loadProblem.isEmpty()) {
        *error = tr("your agents could not be read, and are not written over: %1").arg(m_loadProblem);
        return false;
    }
    // The same checks as an agents file read from disk: a stored file is always one `run` accepts.
    if (!state.roster.agents.isEmpty()) {
        QString problem;
        if (!AgentRoster::fromJson(QJsonDocument(state.roster.toJson()).toJson(), &problem)) {
            *error = problem;
            return false;
        }
    }
    if (!write(state, error))
        return false;
    m_roster = std::move(state.roster);
    m_history = std::move(state.history);
    emit changed();
    return true;
}

bool AgentStore::write(const State &state, QString *error) const
{
    if (!QDir().mkpath(m_folder)) {
        *error = tr("the folder \"%1\" cannot be made").arg(m_folder);
        return false;
    }
    QJsonObject history;
    for (auto it = state.history.cbegin(); it != state.history.cend(); ++it) {
        QJsonArray versions;
        for (const AgentVersion &version : it.value())
            versions.append(versionToJson(version));
        history.insert(it.key(), versions);
    }
    QString problem;
    // The history first: agents.json never names a version the history lacks.
    if (!writeFileAtomically(
            historyPath(),
            QJsonDocument(QJsonObject{{u"history"_s, history}}).toJson(QJsonDocument::Indented), &problem)) {
        *error = tr("\"%1\" cannot be written: %2").arg(historyPath(), problem);
        return false;
    }
    if (state.roster.agents.isEmpty()) {
        if (QFile::exists(agentsPath()) && !QFile::remove(agentsPath())) {
            *error = tr("\"%1\" cannot be removed").arg(agentsPath());
            return false;
        }
        return true;
    }
    if (!writeFileAtomically(
            agentsPath(), QJsonDocument(state.roster.toJson()).toJson(QJsonDocument::Indented), &problem)) {
        *error = tr("\"%1\" cannot be written: %2").arg(agentsPath(), problem);
        return false;
    }
    return true;
}

} // namespace Loopscope
