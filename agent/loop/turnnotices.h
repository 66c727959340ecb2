#pragma once

#include "agent/loop/turnresult.h"
#include "agent/trace/tracenode.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

#include <optional>

namespace Loopscope {

class Trace;

/*! A sentence the conversation shows beside its messages: a failure, a retry, a limit, … */
struct TurnNotice
{
    // Retry: a model call failed and is being tried again; it becomes Recovered when an attempt
    // answers, RetriesFailed when none did. ContextFull: the turn's request nearly fills the window.
    // Compacted: a request left earlier messages out to fit the window (a divider in the chat).
    enum class Kind {
        Error,
        Limit,
        Cancelled,
        Blocked,
        Info,
        Retry,
        Recovered,
        RetriesFailed,
        ContextFull,
        Compacted
    };

    Kind kind = Kind::Error;
    QString text;
    int traceNode = -1;
    bool retryable = false; // asking again may come out differently
    // The model call a retry notice belongs to (a compaction's own node for its divider): the notice
    // precedes what that call answered. -1 otherwise.
    int modelCall = -1;
    bool operator==(const TurnNotice &) const = default;

    // Said before the turn's answer (right after the question, or before its model call's answer)
    // rather than at the turn's end.
    bool precedesAnswer() const
    {
        return kind == Kind::ContextFull || kind == Kind::Retry || kind == Kind::Recovered
               || kind == Kind::RetriesFailed || kind == Kind::Compacted;
    }
};

/*!
    The notices of a turn, worded in one place for the live chat, a reopened
    session and the exports. The trace is their one source of truth: a turn
    node records how the turn ended and why, a retry node what the provider
    said, so a saved session needs nothing beside its trace to show them again.
*/
class TurnNotices final
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::TurnNotices)

public:
    /*! How a finished turn ended, and the trace nodes its end notice points at (-1: the turn's). */
    struct End
    {
        TurnOutcome outcome = TurnOutcome::Answered;
        QString text;
        QString error;
        int iterations = 0;
        bool limitReached = false;
        bool outputBlocked = false; // a shield withheld the answer (not the question)
        int turnNode = -1;
        int errorNode = -1;
        int blockedNode = -1;
        int handoffNode = -1;
    };

    // How a retried model call ended: still trying (or stopped), answered, or gave up.
    enum class RetriesEnd { Pending, Recovered, Failed };

    // A model call's failed attempts that the client retried, in order, as one notice: "Attempt 1
    // failed: …" per attempt while it tries, then "Recovered after …" or "Failed after …".
    static TurnNotice retries(const QList<RetryData> &failed, RetriesEnd end, int traceNode,
                              int modelCall = -1);
    // The warning that the turn's request nearly fills the model's context window.
    static TurnNotice contextFull(const QString &warning, int traceNode);
    // What a compaction left out, in a line: "Earlier messages compacted — 41,000 → 6,000 tokens …".
    static TurnNotice compaction(const CompactionData &data, int traceNode);
    // The notice a turn ends with; nullopt for a plain answer.
    static std::optional<TurnNotice> end(const End &end);
    // The notices of a recorded turn from its trace: its context warning, its compactions, each
    // retried model call's notice in order (settled by whether the call's node ended Ok or in an error), then
    // how it ended (nothing for a turn still running).
    static QList<TurnNotice> ofTurn(const Trace &trace, int turnNode);
};

} // namespace Loopscope
