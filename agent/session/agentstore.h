#pragma once

#include "agent/loop/agentpreset.h"

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QObject>

#include <optional>

namespace Loopscope {

/*! One stored edit of an agent: its number, when it was made and what the agent was then. */
struct AgentVersion
{
    int version = 0;
    QDateTime time; // UTC
    AgentPreset definition;

    bool operator==(const AgentVersion &) const = default;
};

/*!
    The user's agents, as the window keeps them: an agents file in the app's
    data folder (agents.json, the same format `loopscope run --agents` reads,
    so it can be handed to a script as it is) and beside it every version each
    agent had (agent-history.json). An edit that changes an agent makes a new
    version; nothing is ever taken back from the history but with the agent.
    Every change is checked whole, as the agents file is (names, handoffs,
    sub-agent cycles), and written before it takes effect: a change refused or
    not written leaves the store and its files as they were.
*/
class AgentStore final : public QObject
{
    Q_OBJECT

public:
    explicit AgentStore(const QString &folder, QObject *parent = nullptr);

    // AppDataLocation/agents.
    static QString defaultFolder();
    QString agentsPath() const;
    QString historyPath() const;

    // Reads the files; no files is no agents (the default agent alone). false with *error when a file
    // is unreadable or bad: the store is then empty and refuses every change (saying why) until a load
    // succeeds, so the files are never written over.
    bool load(QString *error);

    // The agents as they are now (each its latest version).
    const AgentRoster &roster() const { return m_roster; }
    bool isEmpty() const { return m_roster.agents.isEmpty(); }

    // Stores \a agent in place of the one named \a previousName (empty: a new agent), renaming it when
    // the names differ. A changed definition becomes its next version; an unchanged one is kept as it
    // is. The stored agent, or nullopt with *error (a bad field, a taken name, an unknown handoff, a
    // cycle, a file that cannot be written).
    std::optional<AgentPreset> save(const QString &previousName, AgentPreset agent, QString *error);
    // Removes the agent and its history; refused while another agent hands off to it or asks it.
    bool remove(const QString &name, QString *error);
    // A copy of the agent under a free name ("NAME-copy", "NAME-copy-2", …), as its version 1.
    std::optional<AgentPreset> duplicate(const QString &name, QString *error);

    // Every version of the agent, oldest first; empty for no such agent.
    QList<AgentVersion> history(const QString &name) const;
    // The definition the agent had in \a version, as the agents file writes it (e.g. to compare two
    // versions); nullopt when it never had that version.
    std::optional<QJsonObject> definition(const QString &name, int version) const;

    // Adds the agents of an agents file: a new name as a new agent, a known one as its next version
    // when it differs. A bad file (or one that does not hold together with the agents kept) changes
    // nothing: false with the agents file's own message in *error.
    bool importFile(const QString &path, QString *error);
    // Writes the agents as an agents file.
    bool exportFile(const QString &path, QString *error) const;

signals:
    void changed();

private:
    struct State
    {
        AgentRoster roster;
        QHash<QString, QList<AgentVersion>> history;
    };
    // \a agent into \a state as the next version of \a previousName's history (moved when renamed).
    static AgentPreset putVersion(State &state, const QString &previousName, AgentPreset agent);
    // Checks \a state whole and writes it, then makes it the store's; false with *error otherwise.
    bool commit(State state, QString *error);
    bool write(const State &state, QString *error) const;

    QString m_folder;
    QString m_loadProblem; // why the files could not be read: no change is written over them
    AgentRoster m_roster;
    QHash<QString, QList<AgentVersion>> m_history;
};

} // namespace Loopscope
