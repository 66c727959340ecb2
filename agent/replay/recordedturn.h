#pragma once

#include "agent/loop/agentconfig.h"
#include "agent/model/modelrequest.h"
#include "agent/tools/tool.h"
#include "agent/trace/tracenode.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QString>

#include <optional>

namespace Loopscope {

class Trace;
struct Transcript;

/*! One model call as the trace recorded it: what went out and what came back. */
struct RecordedModelCall
{
    int iteration = 0;    // 0 for the reflection call
    int traceNode = -1;   // the ModelCall node it was read from
    ModelRequest request; // as sent, after any interceptor's edit
    // What the loop had built, when an interceptor (the debugger) changed it.
    std::optional<ModelRequest> originalRequest;
    // The answer; absent when the call failed or was cancelled.
    std::optional<ModelResponse> response;
    QString error;
    int httpStatus = 0; // of the last attempt, when the call failed
    bool cancelled = false;

    bool operator==(const RecordedModelCall &) const = default;
};

/*! One tool call as the trace recorded it, with the result the model was given. */
struct RecordedToolCall
{
    int iteration = 0;
    ToolCall call;             // as executed: with the arguments an interceptor may have edited
    QString originalArguments; // the model's, when an interceptor edited them
    ToolResult result;
    QString decision; // "auto", "allowed", "denied", "manual result", "skipped"

    bool operator==(const RecordedToolCall &) const = default;
};

/*!
    An agent a turn was handed to, as its part ran: what a replay goes on as
    without the team or the agents file. Its configuration is its recorded
    definition laid over the turn's, as the team laid it over the session's:
    its instructions and loop options (without a definition, the turn's with
    the instructions its first request shows); then what the part shows: the
    model options of its first request and its iteration limit. Its tools are
    those its first request offered.
*/
struct RecordedAgent
{
    QString name;
    AgentConfig config;
    QList<ToolSchema> tools;

    bool operator==(const RecordedAgent &) const = default;
};

/*!
    Everything a replay needs to run one saved turn again without the model:
    the question, the conversation before it, the configuration the loop ran
    with and, in order, the model calls and the tool results. A value, taken
    from a trace; a replay can change its copy ("what if the tool had said
    this?") without touching the transcript.

    The configuration starts from the transcript's (the one it was saved
    with) and takes from the trace what the turn itself shows: the model
    options of its first request, the iteration limit, the system prompt
    when the first request carried no wrap-up note, where the wrap-up notes
    began, whether the last iteration offered tools and the post-loop mode.
    A setting changed since then still replays as the turn ran.
*/
struct RecordedTurn
{
    Q_DECLARE_TR_FUNCTIONS(RecordedTurn)

public:
    int turnIndex = -1; // among the trace's turns, from 0
    QString userText;
    QList<Attachment> attachments; // the files that went with the question
    QList<Message> history;        // the conversation before the question
    AgentConfig config;
    QList<RecordedModelCall> modelCalls;
    QList<RecordedToolCall> toolCalls; // in the order they were made
    // The search made for the question before the first iteration (--retrieve auto), as recorded. Its
    // passages are in the recovered system prompt already (they went into every request's system
    // message); a replay records the Retrieval node again from it, without searching.
    std::optional<RetrievalData> retrieval;
    // The agents the turn was handed to and went on as, in order (each once).
    QList<RecordedAgent> handedTo;
    // The handoff tools the turn's agents called (transfer_to_billing), by name: their targets. A
    // replay offers them as handoffs, so that calling one hands off as it did.
    QHash<QString, QString> handoffTools;
    QString answer;  // the text the turn ended with
    QString outcome; // a TurnOutcome name
    // Empty when the turn can be replayed, else why not (e.g. no model call was recorded).
    QString notReplayable;

    bool isReplayable() const { return notReplayable.isEmpty(); }
    // Stopped before it could end on its own: cancelled by the user, or out of its time limit.
    bool wasStopped() const;
    // The tools the turn was offered, in order: what a replay's workbench must hold.
    QList<ToolSchema> tools() const;

    // The turn at \a turnNode (a root) of a trace; \a config: the configuration it was saved with.
    static RecordedTurn fromTrace(const Trace &trace, int turnNode, const AgentConfig &config);
    // Every turn of a saved session, in the order they ran, including those a
    // later "regenerate" replaced. nullopt, with the reason in \a error, when
    // the trace is malformed.
    static std::optional<QList<RecordedTurn>> fromTranscript(const Transcript &transcript,
                                                             QString *error = nullptr);

    bool operator==(const RecordedTurn &) const = default;
};

// The tool calls of a turn as they ran (name, executed arguments), in order: what "reproduced" compares.
QList<ToolCall> executedToolCalls(const Trace &trace, int turnNode);

} // namespace Loopscope
