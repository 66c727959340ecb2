#include "agent/loop/turnnotices.h"

#include "agent/trace/trace.h"

#include <QJsonArray>
#include <QLocale>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

using Kind = TurnNotice::Kind;

TurnNotice notice(Kind kind, const QString &text, int traceNode, bool retryable)
{
    TurnNotice made;
    made.kind = kind;
    made.text = text;
    made.traceNode = traceNode;
    made.retryable = retryable;
    return made;
}

int orTurn(int node, const TurnNotices::End &end)
{
    return node >= 0 ? node : end.turnNode;
}

} // namespace

// The retry stays in the chat: what the provider said is part of what happened. A model call's
// retries share one notice, which says in the end whether they helped.
TurnNotice TurnNotices::retries(const QList<RetryData> &failed, RetriesEnd end, int traceNode, int modelCall)
{
    QStringList lines;
    QStringList failures;
    for (const RetryData &retry : failed) {
        lines.append(tr("Attempt %1 failed: %2").arg(retry.attempt).arg(retry.reason));
        failures.append(retry.httpStatus > 0
                            ? tr("attempt %1 failed (HTTP %2)").arg(retry.attempt).arg(retry.httpStatus)
                            : tr("attempt %1 failed (no response)").arg(retry.attempt));
    }
    const int attempts = (failed.isEmpty() ? 0 : failed.last().attempt) + 1;
    TurnNotice made;
    switch (end) {
    case RetriesEnd::Pending: made = notice(Kind::Retry, lines.join(u'\n'), traceNode, false); break;
    case RetriesEnd::Recovered:
        made = notice(Kind::Recovered,
                      tr("Recovered after %1 attempts: %2.").arg(attempts).arg(failures.join(u", "_s)),
                      traceNode, false);
        break;
    case RetriesEnd::Failed:
        made = notice(Kind::RetriesFailed,
                      tr("Failed after %1 attempts: %2; the last attempt's error follows.")
                          .arg(attempts)
                          .arg(failures.join(u", "_s)),
                      traceNode, false);
        break;
    }
    made.modelCall = modelCall;
    return made;
}

TurnNotice TurnNotices::contextFull(const QString &warning, int traceNode)
{
    return notice(Kind::ContextFull, warning, traceNode, false);
}

TurnNotice TurnNotices::compaction(const CompactionData &data, int traceNode)
{
    int trimmed = 0;
    int dropped = 0;
    int summarised = 0;
    for (const QJsonValue &replaced : data.details.value(u"replaced"_s).toArray()) {
        const QJsonObject entry = replaced.toObject();
        if (entry.value(u"summarised"_s).toBool())
            ++summarised;
        else if (entry.value(u"dropped"_s).toBool())
            ++dropped;
        else
            ++trimmed;
    }
    QStringList what;
    if (summarised > 0)
        what.append(tr("%n message(s) summarised", nullptr, summarised));
    if (trimmed > 0)
        what.append(tr("%n old tool result(s) trimmed", nullptr, trimmed));
    if (dropped > 0)
        what.append(tr("%n oldest message(s) left out", nullptr, dropped));
    const QString failure = data.details.value(u"summaryError"_s).toString();
    if (!failure.isEmpty())
        //: In the chat's compaction divider: the summary's model call failed; %1: why
        what.append(tr("the summary failed: %1").arg(failure));
    const QLocale locale;
    const QString before = locale.toString(data.tokensBefore);
    const QString after = locale.toString(data.tokensAfter);
    if (summarised > 0)
        //: A divider in the chat. %1, %2: estimated tokens before and after; %3: what was replaced
        return notice(Kind::Compacted,
                      tr("Earlier messages summarised to fit the context window — %1 → %2 tokens (%3). The "
                         "session keeps them all; the trace shows the summary and what it replaced.")
                          .arg(before, after, what.join(u", "_s)),
                      traceNode, false);
    //: A divider in the chat. %1, %2: estimated tokens before and after; %3: what was left out
    return notice(Kind::Compacted,
                  tr("Earlier messages compacted to fit the context window — %1 → %2 tokens (%3). The "
                     "session keeps them all; the trace shows what was replaced.")
                      .arg(before, after, what.join(u", "_s)),
                  traceNode, false);
}

std::optional<TurnNotice> TurnNotices::end(const End &end)
{
    const int errorNode = orTurn(end.errorNode, end);
    switch (end.outcome) {
    case TurnOutcome::Answered:
    case TurnOutcome::Reflected:
    case TurnOutcome::Summarised: return std::nullopt;
    case TurnOutcome::ForcedFinal:
        return notice(Kind::Limit,
                      tr("Reached the limit of %1 iterations: the last answer was forced without tools.")
                          .arg(end.iterations),
                      end.turnNode, false);
    case TurnOutcome::Fallback:
        return notice(end.limitReached ? Kind::Limit : Kind::Error,
                      end.error.isEmpty() ? end.text : end.error, errorNode, true);
    case TurnOutcome::HandedOff: return notice(Kind::Info, end.text, orTurn(end.handoffNode, end), false);
    case TurnOutcome::Blocked:
        // A blocked question would be blocked again; a blocked answer may come out differently.
        return notice(Kind::Blocked, end.error, orTurn(end.blockedNode, end), end.outputBlocked);
    case TurnOutcome::ErrorLimit:
    case TurnOutcome::TokenBudget:
    case TurnOutcome::TimeLimit: return notice(Kind::Limit, end.error, errorNode, true);
    case TurnOutcome::Cancelled:
        return notice(Kind::Cancelled, tr("You stopped the turn before it finished."), end.turnNode, true);
    case TurnOutcome::Failed: return notice(Kind::Error, end.error, errorNode, true);
    }
    return std::nullopt;
}

QList<TurnNotice> TurnNotices::ofTurn(const Trace &trace, int turnNode)
{
    if (!trace.isValid(turnNode))
        return {};
    const auto *turn = std::get_if<TurnData>(&trace.node(turnNode).payload);
    if (!turn)
        return {};

    QList<TurnNotice> notices;
    End end;
    end.turnNode = turnNode;
    end.text = turn->output;
    end.error = turn->error;
    end.limitReached = turn->limitReached;
    QString errorMessage;
    QString blockReason;
    // Nodes are numbered as they begin: the highest of a kind is the latest.
    QList<int> pending{turnNode};
    QList<int> retries;
    QList<int> compactions;
    while (!pending.isEmpty()) {
        const int id = pending.takeFirst();
        const TraceNode &node = trace.node(id);
        pending.append(node.children);
        if (const auto *iteration = std::get_if<IterationData>(&node.payload)) {
            end.iterations = std::max(end.iterations, iteration->number);
        } else if (std::holds_alternative<RetryData>(node.payload)) {
            retries.append(id);
        } else if (std::holds_alternative<CompactionData>(node.payload)) {
            compactions.append(id);
        } else if (const auto *error = std::get_if<ErrorData>(&node.payload); error && id > end.errorNode) {
            end.errorNode = id;
            errorMessage = error->message;
        } else if (const auto *shield = std::get_if<ShieldCheckData>(&node.payload);
                   shield && !shield->passed && id > end.blockedNode) {
            end.blockedNode = id;
            end.outputBlocked = shield->stage == u"output"_s;
            blockReason = shield->reason;
        } else if (std::holds_alternative<HandoffData>(node.payload) && id > end.handoffNode) {
            end.handoffNode = id;
        }
    }
    if (!turn->contextWarning.isEmpty())
        notices.append(contextFull(turn->contextWarning, turnNode));
    // A compaction's divider and a retried call's notice stand where they happened, in that order.
    QList<TurnNotice> placed;
    for (int id : std::as_const(compactions)) {
        TurnNotice divider = compaction(trace.node(id).data<CompactionData>(), id);
        divider.modelCall = id;
        placed.append(divider);
    }
    // One notice per retried model call, in the order the calls began.
    std::sort(retries.begin(), retries.end());
    QList<int> calls;
    for (int id : std::as_const(retries)) {
        if (!calls.contains(trace.node(id).parent))
            calls.append(trace.node(id).parent);
    }
    for (int call : std::as_const(calls)) {
        QList<RetryData> failed;
        int first = -1;
        for (int id : std::as_const(retries)) {
            if (trace.node(id).parent != call)
                continue;
            failed.append(trace.node(id).data<RetryData>());
            if (first < 0)
                first = id;
        }
        // The call answered after its retries, or gave up with an error; stopped, it says what it tried.
        RetriesEnd settled = RetriesEnd::Pending;
        if (trace.isValid(call) && trace.node(call).status == TraceStatus::Ok)
            settled = RetriesEnd::Recovered;
        else if (trace.isValid(call) && trace.node(call).status == TraceStatus::Error)
            settled = RetriesEnd::Failed;
        placed.append(TurnNotices::retries(failed, settled, first, call));
    }
    std::stable_sort(placed.begin(), placed.end(),
                     [](const TurnNotice &a, const TurnNotice &b) { return a.modelCall < b.modelCall; });
    notices += placed;

    const std::optional<TurnOutcome> outcome = turnOutcomeFromName(turn->outcome);
    if (!outcome)
        return notices; // still running, or recorded by a Loopscope that knew other outcomes
    end.outcome = *outcome;
    // Traces recorded before the turn kept its error: the error node says it, or the shield's reason.
    if (end.error.isEmpty())
        end.error = end.outcome == TurnOutcome::Blocked ? blockReason : errorMessage;
    if (std::optional<TurnNotice> last = TurnNotices::end(end))
        notices.append(*last);
    return notices;
}

} // namespace Loopscope
