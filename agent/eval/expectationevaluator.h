#pragma once

#include "agent/eval/evalcase.h"
#include "agent/eval/evalobservation.h"

#include <QCoreApplication>
#include <QStringList>

namespace Loopscope {

/*!
    The verdict on one case. A failure is an expectation the turn did not
    meet; an error means the case could not be judged (the model failed, a
    cost with no prices to compute it). Both are sentences for the person
    reading the CI log, in the order the expectations are checked.
*/
struct EvalVerdict
{
    QStringList failures;
    QStringList errors;

    bool passed() const { return failures.isEmpty() && errors.isEmpty(); }
    bool operator==(const EvalVerdict &) const = default;
};

/*! Checks a case's expectations against what its turn did. */
class ExpectationEvaluator final
{
    Q_DECLARE_TR_FUNCTIONS(ExpectationEvaluator)

public:
    static EvalVerdict evaluate(const EvalExpectations &expect, const EvalObservation &observed);

    // Whether the call's arguments (JSON text) have the expected fields; else *why says which does not.
    static bool argumentsMatch(const QJsonObject &expected, const QString &arguments, QString *why);
    // "expression matching /0\.17/, timezone = "UTC""
    static QString describe(const QJsonObject &expected);
};

} // namespace Loopscope
