#pragma once

#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace Loopscope {

class Trace;
struct TurnResult;

/*! One tool call of the turn, as executed, with the result the model was given. */
struct ObservedToolCall
{
    QString name;
    QString arguments; // JSON text, as the model (or an interceptor) wrote it
    QString result;
    bool isError = false;

    bool operator==(const ObservedToolCall &) const = default;
};

/*!
    What a case's turn did, as the expectations see it: taken from the
    TurnResult and the turn's trace, the same for a live turn and a replay.
*/
struct EvalObservation
{
    Q_DECLARE_TR_FUNCTIONS(EvalObservation)

public:
    QString outcome; // a TurnOutcome name
    QString answer;
    QString error; // why the turn did not answer
    int iterations = 0;
    QList<ObservedToolCall> toolCalls; // in the order they ran
    // The paths of the passages every search of the turn found (its Retrieval steps), in order.
    QStringList retrievedPaths;
    // What the turn cost; nullopt while no price table can say (cost expectations then cannot be checked).
    std::optional<double> costUsd;
    // A replay only: empty when it reproduced its recording, else why not.
    std::optional<QString> replayDifference;

    static EvalObservation fromTurn(const Trace &trace, const TurnResult &result);
    // The tool calls, one a line ("calculator {"expression":"6*7"} -> 42"), for reports.
    QString toolCallsText() const;

    bool operator==(const EvalObservation &) const = default;
};

} // namespace Loopscope
