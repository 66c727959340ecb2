#pragma once

#include "agent/compare/comparedturn.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QString>

#include <optional>
#include <utility>

namespace Loopscope {

/*! One step of two runs side by side. */
struct ComparisonRow
{
    enum class Kind {
        Question,
        Iteration,
        ModelRequest,
        Response,
        ToolCall,
        ToolResult,
        Error,
        Answer,
        Outcome,
        Tokens,
        Time,
        Cost,
        Agent, // the agent of each part of a run, and under it each field of its definition that changed
    };
    enum class Status { Same, Differs, OnlyLeft, OnlyRight };

    Kind kind = Kind::Question;
    Status status = Status::Same;
    int parent = -1;    // the row this one belongs under (an iteration, a tool call); -1 at the top
    int iteration = -1; // the iteration's number (0: the reflection); -1 for the turn's own rows
    QString label;      // "question", "iteration 2", "model request", "calculator", "result"
    QString left;       // what the left run shows; empty when it lacks the step
    QString right;
    int leftNode = -1; // the trace node each side's step is, -1 for none
    int rightNode = -1;
    // Tokens, time and cost always differ between two runs: such a row is shown but never makes the
    // runs different.
    bool counted = true;
    QString difference; // for a counted row that differs: what, e.g. "calculator arguments differ"

    bool operator==(const ComparisonRow &) const = default;
};

/*! A line of a diff of two model requests as text. */
struct RequestDiffLine
{
    enum class Kind { Same, OnlyLeft, OnlyRight };
    Kind kind = Kind::Same;
    QString text;
    bool operator==(const RequestDiffLine &) const = default;
};

/*!
    Two runs of a turn side by side, step by step: a replay against its
    recording, or the same question asked of two models. Iterations pair up
    by number; in each, the model requests by order, the tool calls by order
    and name (a call only one run made stands alone), each call with its
    result; then the answers and the outcomes. Tokens, time and cost are
    shown but never count: two runs always differ in them.

    A model request is compared as the model saw it: the messages by role,
    text and tool calls (names and arguments as JSON values, never the ids a
    provider made up), and the parameters: model, temperature, top p, output token
    limit, tool choice and the tools offered. The first counted row that
    differs is the first difference, and the summary says where it is:
    "diverged at iteration 2: calculator arguments differ", "same steps; the
    answers differ", or "identical".
*/
class RunComparison final
{
    Q_DECLARE_TR_FUNCTIONS(RunComparison)

public:
    RunComparison() = default;
    RunComparison(const ComparedTurn &left, const ComparedTurn &right);

    const ComparedTurn &left() const { return m_left; }
    const ComparedTurn &right() const { return m_right; }
    // In display order: a row's parent comes before it.
    const QList<ComparisonRow> &rows() const { return m_rows; }
    // The row of the first difference; -1 when the runs are equal.
    int firstDifference() const { return m_firstDifference; }
    bool isEqual() const { return m_firstDifference < 0; }
    QString summary() const { return m_summary; }

    // For a model request row: both requests as text, line by line, aligned; for the row of the
    // agents' instructions, both instructions so; empty for other rows.
    QList<RequestDiffLine> requestDiff(int row) const;

    // A request as the lines the diff compares: parameters, tools, then each message.
    static QStringList requestLines(const ModelRequest &request);
    // nullopt when the model was asked the same, else the first difference ("message 4 (tool result
    // of calculator) differs", "the model differs").
    static std::optional<QString> requestDifference(const ModelRequest &left, const ModelRequest &right);

private:
    void addAgentRows();
    void addAgentPart(const ComparedAgent *left, const ComparedAgent *right, qsizetype part);
    void addIterations();
    void addIteration(const ComparedIteration *left, const ComparedIteration *right);
    void addModelCalls(int parent, int number, const ComparedIteration *left, const ComparedIteration *right);
    void addToolCalls(int parent, int number, const ComparedIteration *left, const ComparedIteration *right);
    void addErrors(int parent, int number, const ComparedIteration *left, const ComparedIteration *right);
    void addTurnRows();
    int addRow(ComparisonRow row);
    void findFirstDifference();
    const ComparedModelCall *modelCallAt(int node, const ComparedTurn &turn) const;

    ComparedTurn m_left;
    ComparedTurn m_right;
    QList<ComparisonRow> m_rows;
    int m_firstDifference = -1;
    // The rows of the agents' instructions, each with both instructions: their diffs.
    QHash<int, std::pair<QString, QString>> m_instructionRows;
    QString m_summary;
};

} // namespace Loopscope
