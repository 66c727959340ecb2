#pragma once

#include "agent/transcript/transcript.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QList>

#include <optional>

namespace Loopscope {

/*!
    Where a trace turn lies in the conversation. Turns and user messages do
    not pair up one to one: a turn whose input a shield blocked added no
    message, and "regenerate" or "edit and resend" leave the replaced turn in
    the trace while its messages are gone. So the span is read from what the
    turn itself recorded: its first request holds the history before it.
*/
struct TurnSpan
{
    int turn = -1;        // among the trace's turns, from 0
    int firstMessage = 0; // its question (where it would be, for a turn that added none)
    int endMessage = 0;   // one past its last message
    // A later turn replaced it (regenerate, edit): its messages are gone. Its
    // end is then its replacement's, so a fork keeps the two together.
    bool replaced = false;
    bool operator==(const TurnSpan &) const = default;
};

/*!
    Starting a new session from a point of an old one: the conversation up
    to there, the trace turns that lie wholly within it, the same provider,
    configuration and tools, a new title and new dates. Pure functions: the
    source is not touched and nothing is written.
*/
class TranscriptFork final
{
    Q_DECLARE_TR_FUNCTIONS(TranscriptFork)

public:
    // The turns of \a transcript and the messages each one spans; empty when its trace is malformed.
    static QList<TurnSpan> turnSpans(const Transcript &transcript);

    // The first \a messageCount messages. Refused (nullopt, *error) out of range or
    // when the cut would separate tool calls from their results.
    static std::optional<Transcript> fork(const Transcript &source, int messageCount,
                                          QString *error = nullptr, const QDateTime &now = {});

    // How many messages the conversation had once iteration \a iteration (from 1)
    // of trace turn \a turn (from 0) had its tool results; nullopt (*error) when
    // the turn or iteration does not exist or its messages are no longer in the conversation.
    static std::optional<int> messageCountAfterIteration(const Transcript &source, int turn, int iteration,
                                                         QString *error = nullptr);

    // fork() at messageCountAfterIteration().
    static std::optional<Transcript> forkAtIteration(const Transcript &source, int turn, int iteration,
                                                     QString *error = nullptr, const QDateTime &now = {});
};

} // namespace Loopscope
