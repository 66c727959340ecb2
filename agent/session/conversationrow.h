#pragma once

#include "agent/conversation/message.h"
#include "agent/loop/turnnotices.h"
#include "agent/trace/tracenode.h"

#include <QStringList>

#include <optional>

namespace Loopscope {

/*!
    One line of a conversation as a chat shows it. The trace node and the
    turn are ids, so a view can find a row from a trace node and back without
    looking at what anyone said.
*/
struct ConversationRow
{
    enum class Kind { User, Assistant, ToolCall, Notice };
    // Held: the step debugger holds the call at a breakpoint, before it runs.
    enum class ToolState { Running, Held, Succeeded, Failed, Denied, Blocked, Skipped, Cancelled };
    using Notice = TurnNotice::Kind;

    Kind kind = Kind::User;
    QString text;                  // the message, the tool's result or the notice
    QList<Attachment> attachments; // User only: the files that went with the question
    ToolCall toolCall;
    // A tool call of a sub-agent (ask_<name>): the agent that made the call; empty for the session's.
    // An answer: the agent that said it, when it is not the session's default one (speakerOf()).
    QString agent;
    ToolState toolState = ToolState::Running;
    QStringList progress;
    Notice notice = Notice::Error;
    bool retryable = false;
    bool streaming = false; // the answer is still arriving
    // Of a turn asked again (edit, regenerate, retry): the history no longer holds it, the trace does.
    bool replaced = false;
    int traceNode = -1;
    int turn = -1;
    // Of an answer: the passages of the user's documents it drew on (TurnNodeFinder::sourcesOf).
    QList<RetrievalHit> sources;

    static ConversationRow message(Kind kind, const QString &text, int traceNode);
    static ConversationRow call(const ToolCall &call, int traceNode);
    static ConversationRow fromNotice(const TurnNotice &notice);
    // The name an answer of \a agent shows: none for the default agent, whose answers read as today.
    static QString speakerOf(const QString &agent);
    // A tool call's state from its trace node's status, else from whether its result is an error.
    static ToolState toolStateOf(std::optional<TraceStatus> status, bool isError);

    bool hasResult() const
    {
        return kind == Kind::ToolCall && toolState != ToolState::Running && toolState != ToolState::Held;
    }
    bool operator==(const ConversationRow &) const = default;
};

} // namespace Loopscope
