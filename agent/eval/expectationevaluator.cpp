#include "agent/eval/expectationevaluator.h"

#include "agent/loop/turnresult.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

constexpr qsizetype quoteLimit = 120;

// Long answers and results are cut in messages: the report's system-out has them whole.
QString quoted(const QString &text)
{
    QString shown = text.simplified();
    if (shown.size() > quoteLimit)
        shown = shown.left(quoteLimit) + u"…"_s;
    return u"\"%1\""_s.arg(shown);
}

QString jsonText(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    // A scalar: wrapped in an array to get its JSON text.
    const QByteArray array = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(array.mid(1, array.size() - 2));
}

std::optional<QString> pattern(const QJsonValue &expected)
{
    const QJsonObject object = expected.toObject();
    if (expected.isObject() && object.size() == 1 && object.value(u"matches"_s).isString())
        return object.value(u"matches"_s).toString();
    return std::nullopt;
}

bool valueMatches(const QJsonValue &expected, const QJsonValue &actual, const QString &field, QString *why)
{
    if (const std::optional<QString> regex = pattern(expected)) {
        // Numbers and booleans are matched in their JSON spelling; objects and arrays never match.
        const QString text = actual.isString() ? actual.toString() : jsonText(actual);
        if (!actual.isObject() && !actual.isArray() && !actual.isUndefined()
            && QRegularExpression(*regex).match(text).hasMatch())
            return true;
        *why = ExpectationEvaluator::tr("%1 is %2").arg(field, jsonText(actual));
        return false;
    }
    if (expected.isObject()) {
        if (!actual.isObject()) {
            *why = ExpectationEvaluator::tr("%1 is %2").arg(field, jsonText(actual));
            return false;
        }
        const QJsonObject want = expected.toObject();
        const QJsonObject have = actual.toObject();
        for (auto it = want.constBegin(); it != want.constEnd(); ++it) {
            const QString path = field + u'.' + it.key();
            if (!have.contains(it.key())) {
                *why = ExpectationEvaluator::tr("it has no %1").arg(path);
                return false;
            }
            if (!valueMatches(it.value(), have.value(it.key()), path, why))
                return false;
        }
        return true;
    }
    const bool equal = expected.isDouble() && actual.isDouble() ? expected.toDouble() == actual.toDouble()
                                                                : expected == actual;
    if (!equal)
        *why = ExpectationEvaluator::tr("%1 is %2").arg(field, jsonText(actual));
    return equal;
}

QString callCount(int count)
{
    return count == 1 ? ExpectationEvaluator::tr("1 call") : ExpectationEvaluator::tr("%1 calls").arg(count);
}

bool isAnAnswer(const QString &outcome)
{
    for (const TurnOutcome answer : {TurnOutcome::Answered, TurnOutcome::Reflected, TurnOutcome::Summarised,
                                     TurnOutcome::ForcedFinal, TurnOutcome::HandedOff}) {
        if (outcome == turnOutcomeName(answer))
            return true;
    }
    return false;
}

QString withError(const QString &message, const QString &error)
{
    return error.isEmpty() ? message : ExpectationEvaluator::tr("%1: %2").arg(message, error);
}

} // namespace

bool ExpectationEvaluator::argumentsMatch(const QJsonObject &expected, const QString &arguments, QString *why)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(arguments.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject()) {
        *why = tr("its arguments are not a JSON object: %1").arg(quoted(arguments));
        return false;
    }
    const QJsonObject actual = document.object();
    for (auto it = expected.constBegin(); it != expected.constEnd(); ++it) {
        if (!actual.contains(it.key())) {
            *why = tr("it has no %1").arg(it.key());
            return false;
        }
        if (!valueMatches(it.value(), actual.value(it.key()), it.key(), why))
            return false;
    }
    return true;
}

QString ExpectationEvaluator::describe(const QJsonObject &expected)
{
    QStringList parts;
    for (auto it = expected.constBegin(); it != expected.constEnd(); ++it) {
        if (const std::optional<QString> regex = pattern(it.value()))
            parts.append(tr("%1 matching /%2/").arg(it.key(), *regex));
        else
            parts.append(tr("%1 = %2").arg(it.key(), jsonText(it.value())));
    }
    return parts.join(u", "_s);
}

EvalVerdict ExpectationEvaluator::evaluate(const EvalExpectations &expect, const EvalObservation &observed)
{
    EvalVerdict verdict;
    const bool replayDiffered = observed.replayDifference && !observed.replayDifference->isEmpty();
    if (replayDiffered && expect.reproduced)
        verdict.failures.append(*observed.replayDifference);

    const QString failed = turnOutcomeName(TurnOutcome::Failed);
    if (observed.outcome == failed && expect.outcome != failed && !replayDiffered) {
        // The model could not be asked or answered with an error: the case cannot be judged.
        verdict.errors.append(
            withError(tr("the turn ended without an answer (%1)").arg(observed.outcome), observed.error));
    } else if (!expect.outcome.isEmpty()) {
        if (observed.outcome != expect.outcome)
            verdict.failures.append(
                withError(tr("the turn ended as %1, expected %2").arg(observed.outcome, expect.outcome),
                          observed.error));
    } else if (!isAnAnswer(observed.outcome) && !replayDiffered) {
        verdict.failures.append(
            withError(tr("the turn ended without an answer (%1)").arg(observed.outcome), observed.error));
    }

    for (const QString &text : expect.answerContains) {
        if (!observed.answer.contains(text))
            verdict.failures.append(
                tr("the answer does not contain %1 (answer: %2)").arg(quoted(text), quoted(observed.answer)));
    }
    if (!expect.answerMatches.isEmpty()
        && !QRegularExpression(expect.answerMatches).match(observed.answer).hasMatch())
        verdict.failures.append(tr("the answer does not match /%1/ (answer: %2)")
                                    .arg(expect.answerMatches, quoted(observed.answer)));

    for (const ToolCallExpectation &wanted : expect.toolCalled) {
        QList<ObservedToolCall> calls;
        for (const ObservedToolCall &call : observed.toolCalls) {
            if (call.name == wanted.name)
                calls.append(call);
        }
        if (calls.isEmpty()) {
            QStringList called;
            for (const ObservedToolCall &call : observed.toolCalls) {
                if (!called.contains(call.name))
                    called.append(call.name);
            }
            verdict.failures.append(
                called.isEmpty()
                    ? tr("%1 was not called (no tool was called)").arg(wanted.name)
                    : tr("%1 was not called (called: %2)").arg(wanted.name, called.join(u", "_s)));
            continue;
        }
        QString firstWhy;
        const bool matched = std::any_of(calls.cbegin(), calls.cend(), [&](const ObservedToolCall &call) {
            QString why;
            const bool ok = argumentsMatch(wanted.arguments, call.arguments, &why);
            if (firstWhy.isEmpty())
                firstWhy = why;
            return ok;
        });
        if (!matched)
            verdict.failures.append(
                tr("%1 was never called with %2 (%3; in the first, %4)")
                    .arg(wanted.name, describe(wanted.arguments), callCount(int(calls.size())), firstWhy));
    }
    for (const QString &name : expect.toolNotCalled) {
        const auto count = std::count_if(observed.toolCalls.cbegin(), observed.toolCalls.cend(),
                                         [&name](const ObservedToolCall &call) { return call.name == name; });
        if (count > 0) {
            const auto first
                = std::find_if(observed.toolCalls.cbegin(), observed.toolCalls.cend(),
                               [&name](const ObservedToolCall &call) { return call.name == name; });
            verdict.failures.append(tr("%1 was called, expected not to be (%2; the first with %3)")
                                        .arg(name, callCount(int(count)), first->arguments));
        }
    }
    for (const QString &wanted : expect.retrieved) {
        const bool found = std::any_of(observed.retrievedPaths.cbegin(), observed.retrievedPaths.cend(),
                                       [&wanted](const QString &path) { return path.contains(wanted); });
        if (!found)
            verdict.failures.append(
                observed.retrievedPaths.isEmpty()
                    ? tr("no passage from \"%1\" was retrieved: the turn found no passage").arg(wanted)
                    : tr("no passage from \"%1\" was retrieved (found: %2)")
                          .arg(wanted, QStringList(observed.retrievedPaths).join(u", "_s)));
    }
    if (expect.maxIterations && observed.iterations > *expect.maxIterations)
        verdict.failures.append(tr("the turn took %1 iterations, expected at most %2")
                                    .arg(observed.iterations)
                                    .arg(*expect.maxIterations));
    if (expect.noErrorResults) {
        for (const ObservedToolCall &call : observed.toolCalls) {
            if (call.isError) {
                verdict.failures.append(tr("%1 returned an error: %2").arg(call.name, quoted(call.result)));
                break;
            }
        }
    }
    if (expect.maxCostUsd) {
        // A cost limit cannot pass unchecked: without a price for every call it is an error.
        if (!observed.costUsd)
            verdict.errors.append(
                tr("cost expectations need prices: not every model call of this turn has a "
                   "known price (set prices in the provider profile or the suite's model)"));
        else if (*observed.costUsd > *expect.maxCostUsd)
            verdict.failures.append(tr("the turn cost $%1, expected at most $%2")
                                        .arg(*observed.costUsd, 0, 'f', 4)
                                        .arg(*expect.maxCostUsd, 0, 'f', 4));
    }
    return verdict;
}

} // namespace Loopscope
