#include "agent/replay/transcriptfork.h"

#include "agent/trace/trace.h"
#include "agent/trace/turnnodefinder.h"

#include <QSet>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// The request the loop built for the turn's first model call, if it made one.
std::optional<ModelRequest> firstRequest(const Trace &trace, int turnNode)
{
    for (int child : TurnNodeFinder::turnSteps(trace, turnNode)) {
        if (trace.node(child).kind != TraceKind::Iteration)
            continue;
        for (int step : trace.node(child).children) {
            if (const auto *call = std::get_if<ModelCallData>(&trace.node(step).payload))
                return call->originalRequest ? *call->originalRequest : call->request.whole();
        }
    }
    return std::nullopt;
}

int iterationNode(const Trace &trace, int turnNode, int iteration)
{
    for (int child : TurnNodeFinder::turnSteps(trace, turnNode)) {
        const auto *data = std::get_if<IterationData>(&trace.node(child).payload);
        if (data && data->number == iteration)
            return child;
    }
    return -1;
}

} // namespace

QList<TurnSpan> TranscriptFork::turnSpans(const Transcript &transcript)
{
    Trace trace;
    if (!trace.fromJson(transcript.trace))
        return {};
    const QList<Message> &messages = transcript.messages;
    const int messageCount = int(messages.size());
    const int turnCount = int(trace.roots().size());

    // Where each question is: from the turn's own first request, else found by its text.
    enum class Place { Question, Gone, Unplaced };
    QList<TurnSpan> spans(turnCount);
    QList<Place> places(turnCount, Place::Unplaced);
    int searchFrom = 0;
    for (int turn = 0; turn < turnCount; ++turn) {
        const int node = trace.roots().at(turn);
        const auto *data = std::get_if<TurnData>(&trace.node(node).payload);
        const QString input = data ? data->input : QString();
        const auto isQuestion = [&](int index) {
            return index >= 0 && index < messageCount && messages.at(index).role == Message::Role::User
                   && messages.at(index).text == input;
        };
        spans[turn].turn = turn;
        if (const std::optional<ModelRequest> request = firstRequest(trace, node)) {
            const bool hasSystem = !request->messages.isEmpty()
                                   && request->messages.constFirst().role == Message::Role::System;
            const int start = int(request->messages.size()) - (hasSystem ? 1 : 0) - 1;
            spans[turn].firstMessage = std::clamp(start, 0, messageCount);
            places[turn] = isQuestion(start) ? Place::Question : Place::Gone;
        } else {
            for (int index = searchFrom; index < messageCount; ++index) {
                if (isQuestion(index)) {
                    spans[turn].firstMessage = index;
                    places[turn] = Place::Question;
                    break;
                }
            }
        }
        if (places[turn] == Place::Question)
            searchFrom = spans[turn].firstMessage + 1;
    }

    // Backwards, so that a replaced turn can take its replacement's end.
    int nextStart = messageCount;
    for (int turn = turnCount - 1; turn >= 0; --turn) {
        TurnSpan &span = spans[turn];
        switch (places[turn]) {
        case Place::Gone:
            span.replaced = true;
            span.endMessage = messageCount;
            break;
        case Place::Unplaced: span.firstMessage = span.endMessage = nextStart; break;
        case Place::Question: {
            int replacement = -1;
            for (int later = turn + 1; later < turnCount && replacement < 0; ++later) {
                if (places[later] == Place::Question && spans[later].firstMessage <= span.firstMessage)
                    replacement = later;
            }
            if (replacement >= 0) {
                span.replaced = true;
                span.endMessage = spans[replacement].endMessage;
            } else {
                span.endMessage = nextStart;
                nextStart = span.firstMessage;
            }
            break;
        }
        }
    }
    return spans;
}

std::optional<Transcript> TranscriptFork::fork(const Transcript &source, int messageCount, QString *error,
                                               const QDateTime &now)
{
    const auto fail = [error](const QString &message) -> std::optional<Transcript> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    if (messageCount < 0 || messageCount > source.messages.size())
        return fail(
            tr("A fork keeps from 0 to %1 messages, not %2.").arg(source.messages.size()).arg(messageCount));

    // Calls the kept messages make whose results come after the cut.
    QSet<QString> open;
    for (int i = 0; i < messageCount; ++i) {
        const Message &message = source.messages.at(i);
        for (const ToolCall &call : message.toolCalls)
            open.insert(call.id);
        if (message.role == Message::Role::Tool)
            open.remove(message.toolCallId);
    }
    for (qsizetype i = messageCount; i < source.messages.size(); ++i) {
        const Message &message = source.messages.at(i);
        if (message.role == Message::Role::Tool && open.contains(message.toolCallId))
            return fail(tr("Message %1 calls tools whose results come after it: fork after the results.")
                            .arg(messageCount));
    }

    const QList<TurnSpan> spans = turnSpans(source);
    if (spans.size() != source.trace.size())
        return fail(tr("The session's trace is malformed."));
    QJsonArray trace;
    for (const TurnSpan &span : spans) {
        if (span.endMessage <= messageCount)
            trace.append(source.trace.at(span.turn));
    }

    Transcript forked = source;
    forked.title = tr("%1 (fork)").arg(source.title.isEmpty() ? tr("Untitled") : source.title);
    forked.created = now.isValid() ? now.toUTC() : QDateTime::currentDateTimeUtc();
    forked.updated = forked.created;
    forked.messages = source.messages.first(messageCount);
    forked.trace = trace;
    return forked;
}

std::optional<int> TranscriptFork::messageCountAfterIteration(const Transcript &source, int turn,
                                                              int iteration, QString *error)
{
    const auto fail = [error](const QString &message) -> std::optional<int> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    Trace trace;
    QString traceError;
    if (!trace.fromJson(source.trace, &traceError))
        return fail(tr("The session's trace is malformed: %1").arg(traceError));
    if (turn < 0 || turn >= trace.roots().size())
        return fail(tr("The session has no turn %1.").arg(turn + 1));
    const int node = iterationNode(trace, trace.roots().at(turn), iteration);
    if (node < 0)
        return fail(tr("Turn %1 has no iteration %2.").arg(turn + 1).arg(iteration));
    const TurnSpan span = turnSpans(source).at(turn);
    if (span.replaced)
        return fail(tr("Turn %1 was asked again later (regenerated or edited): its messages are no longer in "
                       "the conversation.")
                        .arg(turn + 1));

    QSet<QString> ids;
    for (int step : trace.node(node).children) {
        if (const auto *call = std::get_if<ToolCallData>(&trace.node(step).payload))
            ids.insert(call->call.id);
    }
    // An iteration without tool calls is the one that ended the turn.
    if (ids.isEmpty())
        return span.endMessage;
    int end = -1;
    for (int i = span.firstMessage; i < span.endMessage; ++i) {
        const Message &message = source.messages.at(i);
        if (message.role == Message::Role::Tool && ids.remove(message.toolCallId))
            end = i + 1;
    }
    if (!ids.isEmpty())
        return fail(tr("The tool results of iteration %1 of turn %2 are not in the conversation.")
                        .arg(iteration)
                        .arg(turn + 1));
    return end;
}

std::optional<Transcript> TranscriptFork::forkAtIteration(const Transcript &source, int turn, int iteration,
                                                          QString *error, const QDateTime &now)
{
    const std::optional<int> count = messageCountAfterIteration(source, turn, iteration, error);
    if (!count)
        return std::nullopt;
    return fork(source, *count, error, now);
}

} // namespace Loopscope
