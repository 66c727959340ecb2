#pragma once

#include "agent/conversation/message.h"
#include "agent/model/modelrequest.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace Loopscope {

class Trace;

/*! A model call of a turn, as a comparison sees it. */
struct ComparedModelCall
{
    int node = -1;
    ModelRequest request; // as sent
    QString responseText;
    int responseToolCalls = 0;
    QString error; // why the call failed; empty when it answered
    TokenUsage usage;
    qint64 durationUs = 0;         // the whole span
    qint64 waitingUs = 0;          // of which someone was waited for (stepTiming())
    std::optional<double> costUsd; // when the trace recorded what the call cost
    bool operator==(const ComparedModelCall &) const = default;
};

/*! A tool call of a turn: what was called and what it gave back. */
struct ComparedToolCall
{
    int node = -1;
    ToolCall call; // as executed
    QString result;
    bool isError = false;
    qint64 durationUs = 0; // the whole span
    qint64 waitingUs = 0;  // of which someone was waited for: an approval, a question
    bool operator==(const ComparedToolCall &) const = default;
};

/*! An iteration's steps; the reflection after the loop is one too, numbered 0. */
struct ComparedIteration
{
    int node = -1;
    int number = 0;
    qint64 durationUs = 0; // the whole span
    qint64 waitingUs = 0;  // of which someone was waited for
    QList<ComparedModelCall> modelCalls;
    QList<ComparedToolCall> toolCalls;
    QStringList errors; // the iteration's error nodes, as "code: message"
    bool operator==(const ComparedIteration &) const = default;
};

/*!
    An agent a turn ran as: the one it started as, or one a handoff went on
    as for a part of the turn. What Compare sets side by side of how the runs
    were set up.
*/
struct ComparedAgent
{
    QString name;
    std::optional<qint64> version;
    QJsonObject definition; // as recorded, without the version (AgentPreset::definitionJson())
    int node = -1;          // the turn, or the Handoff node that holds the part
    bool operator==(const ComparedAgent &) const = default;
};

/*!
    One turn of a recorded run, taken out of its trace as a value: what a
    comparison of two runs aligns. Taking it is quick and works on any
    thread, so a session file can be read and taken apart off the GUI thread
    while the current session's turn is taken where its trace lives.

    The requests come from RecordedTurn, the trace's reader for replays, so a
    change to how the trace keeps them stays behind that one reader.
*/
struct ComparedTurn
{
    Q_DECLARE_TR_FUNCTIONS(ComparedTurn)

public:
    QString source; // where the turn is from, for headers: "notes.loopscope.json, turn 2"
    int node = -1;
    int number = 0; // among the trace's turns, from 1
    QString question;
    QString answer;
    QString outcome; // a TurnOutcome name
    // The agent of each part, in order: the one the turn started as (TurnData), then each agent a
    // handoff went on as (HandoffData), as recorded.
    QList<ComparedAgent> agents;
    TokenUsage usage;
    qint64 durationUs = 0;               // the whole span
    qint64 waitingUs = 0;                // of which someone was waited for: the machine's time is the rest
    QList<ComparedIteration> iterations; // in order, the reflection last

    // The sum of the costs the trace recorded for the turn's model calls; nullopt when it has none.
    std::optional<double> costUsd() const;

    // The turn at \a turnNode (a root of \a trace); nullopt when it is not a turn.
    static std::optional<ComparedTurn> fromTrace(const Trace &trace, int turnNode, const QString &source);

    bool operator==(const ComparedTurn &) const = default;
};

/*! The turns of a session file, or why they could not be read. */
struct ComparedSession
{
    Q_DECLARE_TR_FUNCTIONS(ComparedSession)

public:
    QString path;
    QString title;
    QDateTime updated;         // UTC, when the file says; else invalid
    QList<ComparedTurn> turns; // in the order they ran, from 1
    QString error;             // a sentence naming the problem; empty on success

    bool isValid() const { return error.isEmpty(); }

    // Reads \a path (TranscriptFile's checks) and takes every turn; slow for a
    // large file, thread-safe: run it off the GUI thread.
    static ComparedSession load(const QString &path);
    // Every turn of a trace; \a name is what the turns' sources begin with.
    static QList<ComparedTurn> turnsOf(const Trace &trace, const QString &name);
    // How a person knows a session: "Title · 28 Nov 2026 14:05" (the time local), the file's
    // name only when the session has no title. Library files are named by a time stamp.
    static QString label(const QString &title, const QDateTime &updated, const QString &path);
    // The session's turns, their sources beginning with \a name instead.
    void renameTurns(const QString &name);
};

} // namespace Loopscope
