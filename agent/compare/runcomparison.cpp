#include "agent/compare/runcomparison.h"

#include "agent/loop/agentpreset.h"

#include "agent/replay/requestcomparison.h"
#include "agent/tools/sequencealignment.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

#include <algorithm>
#include <climits>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

using Row = ComparisonRow;
using Status = ComparisonRow::Status;

constexpr qsizetype CellLength = 120;

// One line of at most CellLength characters: what a cell shows of a longer text.
QString cell(const QString &text)
{
    const QString line = text.simplified();
    return line.size() > CellLength ? line.left(CellLength - 1) + u'…' : line;
}

// Arguments as a JSON value prints them, so that two runs that wrote the same object with other
// spacing or key order read the same.
QString normalisedArguments(const QString &arguments)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(arguments.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || document.isNull())
        return arguments.trimmed();
    return QString::fromUtf8(document.toJson(QJsonDocument::Compact));
}

QString duration(qint64 us)
{
    if (us < 1'000'000)
        return RunComparison::tr("%1 ms").arg(QLocale().toString(double(us) / 1000.0, 'f', 0));
    return RunComparison::tr("%1 s").arg(QLocale().toString(double(us) / 1'000'000.0, 'f', 2));
}

/*
    The machine's time, and apart from it the time someone was waited for, as
    the debugger shows a step: "4.20 s (+12.00 s waiting)". Two runs are
    compared on what the loop did, not on how long a person took.
*/
QString timeCell(qint64 durationUs, qint64 waitingUs)
{
    const QString working = duration(durationUs - waitingUs);
    if (waitingUs <= 0)
        return working;
    //: A step's time in a comparison: the machine's part, then the part spent waiting for the user
    return RunComparison::tr("%1 (+%2 waiting)").arg(working, duration(waitingUs));
}

QString tokens(const TokenUsage &usage)
{
    return RunComparison::tr("%1 in · %2 out")
        .arg(QLocale().toString(usage.inputTokens), QLocale().toString(usage.outputTokens));
}

QString cost(const std::optional<double> &usd)
{
    return usd ? u"$"_s + QLocale(QLocale::C).toString(*usd, 'f', *usd < 0.01 ? 4 : 2) : u"—"_s;
}

Status pairStatus(bool hasLeft, bool hasRight, bool same)
{
    if (!hasRight)
        return Status::OnlyLeft;
    if (!hasLeft)
        return Status::OnlyRight;
    return same ? Status::Same : Status::Differs;
}

TokenUsage usageOf(const ComparedIteration &iteration)
{
    TokenUsage usage;
    for (const ComparedModelCall &call : iteration.modelCalls)
        usage += call.usage;
    return usage;
}

QString iterationCell(const ComparedIteration *iteration)
{
    if (!iteration)
        return {};
    const TokenUsage usage = usageOf(*iteration);
    //: An iteration's time and tokens in a comparison, e.g. "1.20 s · 540 tokens"
    return RunComparison::tr("%1 · %n token(s)", nullptr, int(usage.total()))
        .arg(timeCell(iteration->durationUs, iteration->waitingUs));
}

QString requestCell(const ComparedModelCall &call)
{
    const QString model = call.request.options.model.isEmpty() ? RunComparison::tr("default model")
                                                               : call.request.options.model;
    return RunComparison::tr("%1 · %n message(s)", nullptr, int(call.request.messages.size())).arg(model)
           + RunComparison::tr(" · %n tool(s)", nullptr, int(call.request.tools.size()));
}

QString responseCell(const ComparedModelCall &call)
{
    return call.error.isEmpty() ? cell(call.responseText)
                                : RunComparison::tr("error: %1").arg(cell(call.error));
}

QString resultCell(const ComparedToolCall &call)
{
    return call.isError ? RunComparison::tr("error: %1").arg(cell(call.result)) : cell(call.result);
}

// Shows the text a model call answered with beside its tool calls, or its error; the text of a final
// answer is the turn's answer row.
bool hasResponseRow(const ComparedModelCall *call)
{
    return call && (!call->error.isEmpty() || (!call->responseText.isEmpty() && call->responseToolCalls > 0));
}

bool sameMessage(const Message &a, const Message &b)
{
    if (a.role != b.role || a.text != b.text || a.isError != b.isError || a.toolName != b.toolName
        || a.toolCalls.size() != b.toolCalls.size())
        return false;
    for (qsizetype i = 0; i < a.toolCalls.size(); ++i) {
        const ToolCall &x = a.toolCalls.at(i);
        const ToolCall &y = b.toolCalls.at(i);
        if (x.name != y.name || !RequestComparison::sameArguments(x.arguments, y.arguments))
            return false;
    }
    return true;
}

template<typename Number>
QString optionalText(const std::optional<Number> &value)
{
    return value ? QString::number(*value) : RunComparison::tr("default");
}

QString compactJson(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

} // namespace

RunComparison::RunComparison(const ComparedTurn &left, const ComparedTurn &right)
    : m_left(left)
    , m_right(right)
{
    addRow({Row::Kind::Question, left.question == right.question ? Status::Same : Status::Differs, -1, -1,
            tr("question"), cell(left.question), cell(right.question), left.node, right.node, true,
            tr("the questions differ")});
    addAgentRows();
    addIterations();
    addTurnRows();
    findFirstDifference();
}

namespace {

QString fieldCell(const QJsonValue &value)
{
    if (value.isUndefined())
        return {};
    if (value.isString())
        return cell(value.toString());
    const QJsonDocument document
        = value.isArray() ? QJsonDocument(value.toArray()) : QJsonDocument(QJsonObject{{u"v"_s, value}});
    const QString json = QString::fromUtf8(document.toJson(QJsonDocument::Compact));
    // A lone value is written inside an object: only the value is shown.
    return cell(value.isArray() ? json : json.mid(5, json.size() - 6));
}

} // namespace

// What the runs were set up as, next to how they went: the agent of each part of the turn (the one
// it started as, then each one a handoff went on as), paired in order, and under each the fields of
// the two definitions that differ. Shown, never counted: the steps say whether the runs differ. Two
// runs of the session's own agent have no such rows.
void RunComparison::addAgentRows()
{
    const QList<ComparedAgent> &a = m_left.agents;
    const QList<ComparedAgent> &b = m_right.agents;
    const auto ownAgentOnly = [](const QList<ComparedAgent> &agents) {
        return agents.size() <= 1
               && std::all_of(agents.cbegin(), agents.cend(),
                              [](const ComparedAgent &agent) { return agent.definition.isEmpty(); });
    };
    const auto firstName = [](const QList<ComparedAgent> &agents) {
        return agents.isEmpty() ? QString() : agents.constFirst().name;
    };
    if (ownAgentOnly(a) && ownAgentOnly(b) && firstName(a) == firstName(b))
        return;
    for (qsizetype part = 0; part < std::max(a.size(), b.size()); ++part)
        addAgentPart(part < a.size() ? &a.at(part) : nullptr, part < b.size() ? &b.at(part) : nullptr, part);
}

void RunComparison::addAgentPart(const ComparedAgent *a, const ComparedAgent *b, qsizetype part)
{
    const bool same
        = a && b && a->name == b->name && a->version == b->version && a->definition == b->definition;
    const auto agentCell = [](const ComparedAgent *agent) {
        if (!agent)
            return QString();
        return agent->version ? tr("%1, version %2").arg(agent->name).arg(*agent->version) : agent->name;
    };
    const int parent = addRow({Row::Kind::Agent,
                               pairStatus(a, b, same),
                               -1,
                               -1,
                               //: The agent a turn started as; then those a handoff went on as
                               part == 0 ? tr("agent") : tr("handed to"),
                               agentCell(a),
                               agentCell(b),
                               a ? a->node : -1,
                               b ? b->node : -1,
                               false,
                               {}});
    const QJsonObject left = a ? a->definition : QJsonObject();
    const QJsonObject right = b ? b->definition : QJsonObject();
    QStringList fields = AgentRoster::fieldNames();
    for (const QJsonObject &definition : {left, right}) {
        for (const QString &key : definition.keys()) {
            if (!fields.contains(key))
                fields.append(key);
        }
    }
    for (const QString &field : std::as_const(fields)) {
        if (left.value(field) == right.value(field))
            continue;
        const int row = addRow({Row::Kind::Agent,
                                Status::Differs,
                                parent,
                                -1,
                                field,
                                fieldCell(left.value(field)),
                                fieldCell(right.value(field)),
                                a ? a->node : -1,
                                b ? b->node : -1,
                                false,
                                {}});
        if (field == u"instructions")
            m_instructionRows.insert(row, {left.value(field).toString(), right.value(field).toString()});
    }
}

int RunComparison::addRow(ComparisonRow row)
{
    if (row.status == Status::Same || !row.counted)
        row.difference.clear();
    m_rows.append(std::move(row));
    return int(m_rows.size()) - 1;
}

void RunComparison::addIterations()
{
    // Iterations pair up by number; the reflection (0) pairs with the reflection and comes last.
    QList<int> numbers;
    for (const ComparedTurn *turn : {&m_left, &m_right}) {
        for (const ComparedIteration &iteration : turn->iterations) {
            if (!numbers.contains(iteration.number))
                numbers.append(iteration.number);
        }
    }
    std::sort(numbers.begin(), numbers.end(),
              [](int a, int b) { return (a == 0 ? INT_MAX : a) < (b == 0 ? INT_MAX : b); });
    const auto find = [](const ComparedTurn &turn, int number) -> const ComparedIteration * {
        for (const ComparedIteration &iteration : turn.iterations) {
            if (iteration.number == number)
                return &iteration;
        }
        return nullptr;
    };
    for (int number : std::as_const(numbers))
        addIteration(find(m_left, number), find(m_right, number));
}

void RunComparison::addIteration(const ComparedIteration *left, const ComparedIteration *right)
{
    const int number = left ? left->number : right->number;
    Row row{Row::Kind::Iteration,
            pairStatus(left, right, true),
            -1,
            number,
            number == 0 ? tr("reflection") : tr("iteration %1").arg(number),
            iterationCell(left),
            iterationCell(right),
            left ? left->node : -1,
            right ? right->node : -1,
            true,
            {}};
    row.difference
        = row.status == Status::OnlyLeft ? tr("only the left run has it") : tr("only the right run has it");
    const int index = addRow(row);
    addModelCalls(index, number, left, right);
    addToolCalls(index, number, left, right);
    addErrors(index, number, left, right);
    if (m_rows[index].status == Status::Same) {
        for (qsizetype i = index + 1; i < m_rows.size(); ++i) {
            if (m_rows.at(i).counted && m_rows.at(i).status != Status::Same)
                m_rows[index].status = Status::Differs;
        }
    }
}

void RunComparison::addModelCalls(int parent, int number, const ComparedIteration *left,
                                  const ComparedIteration *right)
{
    const qsizetype count
        = std::max(left ? left->modelCalls.size() : 0, right ? right->modelCalls.size() : 0);
    for (qsizetype i = 0; i < count; ++i) {
        const ComparedModelCall *a = left && i < left->modelCalls.size() ? &left->modelCalls.at(i) : nullptr;
        const ComparedModelCall *b
            = right && i < right->modelCalls.size() ? &right->modelCalls.at(i) : nullptr;
        const std::optional<QString> what = a && b ? requestDifference(a->request, b->request) : std::nullopt;
        Row request{Row::Kind::ModelRequest,
                    pairStatus(a, b, !what),
                    parent,
                    number,
                    tr("model request"),
                    a ? requestCell(*a) : QString(),
                    b ? requestCell(*b) : QString(),
                    a ? a->node : -1,
                    b ? b->node : -1,
                    true,
                    {}};
        if (request.status == Status::Differs)
            request.difference = tr("the model requests differ: %1").arg(*what);
        else
            request.difference
                = a ? tr("only the left run asks the model") : tr("only the right run asks the model");
        addRow(request);

        if (!hasResponseRow(a) && !hasResponseRow(b))
            continue;
        const bool same = a && b && a->error == b->error && a->responseText == b->responseText;
        addRow({Row::Kind::Response, pairStatus(a, b, same), parent, number, tr("response"),
                a ? responseCell(*a) : QString(), b ? responseCell(*b) : QString(), a ? a->node : -1,
                b ? b->node : -1, true, tr("the model's responses differ")});
    }
}

void RunComparison::addToolCalls(int parent, int number, const ComparedIteration *left,
                                 const ComparedIteration *right)
{
    const QList<ComparedToolCall> none;
    const QList<ComparedToolCall> &a = left ? left->toolCalls : none;
    const QList<ComparedToolCall> &b = right ? right->toolCalls : none;
    QStringList leftNames;
    QStringList rightNames;
    for (const ComparedToolCall &call : a)
        leftNames.append(call.call.name);
    for (const ComparedToolCall &call : b)
        rightNames.append(call.call.name);

    // By order and name: the calls both made pair up in order; one only a run made stands alone.
    for (const AlignedPair &pair : alignSequences(leftNames, rightNames).pairs) {
        const ComparedToolCall *x = pair.left >= 0 ? &a.at(pair.left) : nullptr;
        const ComparedToolCall *y = pair.right >= 0 ? &b.at(pair.right) : nullptr;
        const QString name = x ? x->call.name : y->call.name;
        const bool sameArguments
            = x && y && RequestComparison::sameArguments(x->call.arguments, y->call.arguments);
        Row call{Row::Kind::ToolCall,
                 pairStatus(x, y, sameArguments),
                 parent,
                 number,
                 name,
                 x ? cell(normalisedArguments(x->call.arguments)) : QString(),
                 y ? cell(normalisedArguments(y->call.arguments)) : QString(),
                 x ? x->node : -1,
                 y ? y->node : -1,
                 true,
                 {}};
        if (call.status == Status::Differs)
            call.difference = tr("%1 arguments differ").arg(name);
        else
            call.difference = x ? tr("only the left run calls %1").arg(name)
                                : tr("only the right run calls %1").arg(name);
        const int callRow = addRow(call);
        const bool sameResult = x && y && x->result == y->result && x->isError == y->isError;
        addRow({Row::Kind::ToolResult, pairStatus(x, y, sameResult), callRow, number, tr("result"),
                x ? resultCell(*x) : QString(), y ? resultCell(*y) : QString(), x ? x->node : -1,
                y ? y->node : -1, true, tr("%1 results differ").arg(name)});
    }
}

void RunComparison::addErrors(int parent, int number, const ComparedIteration *left,
                              const ComparedIteration *right)
{
    const QStringList none;
    const QStringList &a = left ? left->errors : none;
    const QStringList &b = right ? right->errors : none;
    for (qsizetype i = 0; i < std::max(a.size(), b.size()); ++i) {
        const bool hasLeft = i < a.size();
        const bool hasRight = i < b.size();
        addRow({Row::Kind::Error, pairStatus(hasLeft, hasRight, hasLeft && hasRight && a.at(i) == b.at(i)),
                parent, number, tr("error"), hasLeft ? cell(a.at(i)) : QString(),
                hasRight ? cell(b.at(i)) : QString(), -1, -1, true, tr("the errors differ")});
    }
}

void RunComparison::addTurnRows()
{
    const ComparedTurn &a = m_left;
    const ComparedTurn &b = m_right;
    const auto add = [&](Row::Kind kind, const QString &label, const QString &left, const QString &right,
                         bool same, bool counted, const QString &difference) {
        addRow({kind, same ? Status::Same : Status::Differs, -1, -1, label, left, right, a.node, b.node,
                counted, difference});
    };
    add(Row::Kind::Answer, tr("answer"), cell(a.answer), cell(b.answer), a.answer == b.answer, true,
        tr("the answers differ"));
    add(Row::Kind::Outcome, tr("outcome"), a.outcome, b.outcome, a.outcome == b.outcome, true,
        tr("the outcomes differ (%1 against %2)").arg(a.outcome, b.outcome));
    // Shown, never counted.
    add(Row::Kind::Tokens, tr("tokens"), tokens(a.usage), tokens(b.usage), a.usage == b.usage, false, {});
    add(Row::Kind::Time, tr("time"), timeCell(a.durationUs, a.waitingUs), timeCell(b.durationUs, b.waitingUs),
        a.durationUs == b.durationUs && a.waitingUs == b.waitingUs, false, {});
    const std::optional<double> leftCost = a.costUsd();
    const std::optional<double> rightCost = b.costUsd();
    if (leftCost || rightCost)
        add(Row::Kind::Cost, tr("cost"), cost(leftCost), cost(rightCost), leftCost == rightCost, false, {});
}

void RunComparison::findFirstDifference()
{
    for (int i = 0; i < m_rows.size(); ++i) {
        const Row &row = m_rows.at(i);
        // An iteration both runs have differs through one of its steps: that step is the difference.
        if (!row.counted || row.status == Status::Same
            || (row.kind == Row::Kind::Iteration && row.status == Status::Differs))
            continue;
        m_firstDifference = i;
        break;
    }
    if (m_firstDifference < 0) {
        m_summary = tr("identical");
        return;
    }
    const Row &row = m_rows.at(m_firstDifference);
    if (row.iteration < 0) {
        m_summary
            = row.kind == Row::Kind::Question ? row.difference : tr("same steps; %1").arg(row.difference);
    } else {
        const QString where = row.iteration == 0 ? tr("diverged at the reflection")
                                                 : tr("diverged at iteration %1").arg(row.iteration);
        m_summary = where + u": "_s + row.difference;
    }
    const auto loopIterations = [](const ComparedTurn &turn) {
        return std::count_if(turn.iterations.cbegin(), turn.iterations.cend(),
                             [](const ComparedIteration &iteration) { return iteration.number > 0; });
    };
    const qsizetype leftCount = loopIterations(m_left);
    const qsizetype rightCount = loopIterations(m_right);
    if (leftCount != rightCount)
        m_summary += tr(" (%n iteration(s) against %1)", nullptr, int(leftCount)).arg(rightCount);
}

const ComparedModelCall *RunComparison::modelCallAt(int node, const ComparedTurn &turn) const
{
    for (const ComparedIteration &iteration : turn.iterations) {
        for (const ComparedModelCall &call : iteration.modelCalls) {
            if (call.node == node)
                return &call;
        }
    }
    return nullptr;
}

QList<RequestDiffLine> RunComparison::requestDiff(int row) const
{
    QList<RequestDiffLine> lines;
    QStringList left;
    QStringList right;
    if (const auto instructions = m_instructionRows.constFind(row);
        instructions != m_instructionRows.cend()) {
        left = instructions->first.split(u'\n');
        right = instructions->second.split(u'\n');
    } else if (row >= 0 && row < m_rows.size() && m_rows.at(row).kind == Row::Kind::ModelRequest) {
        const ComparedModelCall *a = modelCallAt(m_rows.at(row).leftNode, m_left);
        const ComparedModelCall *b = modelCallAt(m_rows.at(row).rightNode, m_right);
        left = a ? requestLines(a->request) : QStringList();
        right = b ? requestLines(b->request) : QStringList();
    } else {
        return lines;
    }
    for (const AlignedPair &pair : alignSequences(left, right).pairs) {
        if (pair.left >= 0 && pair.right >= 0)
            lines.append({RequestDiffLine::Kind::Same, left.at(pair.left)});
        else if (pair.left >= 0)
            lines.append({RequestDiffLine::Kind::OnlyLeft, left.at(pair.left)});
        else
            lines.append({RequestDiffLine::Kind::OnlyRight, right.at(pair.right)});
    }
    return lines;
}

QStringList RunComparison::requestLines(const ModelRequest &request)
{
    QStringList lines;
    lines.append(
        tr("model: %1").arg(request.options.model.isEmpty() ? tr("default") : request.options.model));
    lines.append(tr("temperature: %1").arg(optionalText(request.options.temperature)));
    lines.append(tr("top p: %1").arg(optionalText(request.options.topP)));
    lines.append(tr("output token limit: %1").arg(optionalText(request.options.maxOutputTokens)));
    lines.append(tr("tool choice: %1").arg(toolChoiceName(request.toolChoice)));
    for (const ToolSchema &tool : request.tools) {
        lines.append(tr("tool %1: %2").arg(tool.name, tool.description.simplified()));
        lines.append(u"    "_s + compactJson(tool.parameters));
    }
    for (qsizetype i = 0; i < request.messages.size(); ++i) {
        const Message &message = request.messages.at(i);
        lines.append(QString());
        QString header = tr("message %1: %2").arg(i + 1).arg(RequestComparison::describe(message));
        if (message.isError)
            header += tr(" (error)");
        lines.append(header);
        for (const QString &line : message.text.split(u'\n'))
            lines.append(u"    "_s + line);
        for (const ToolCall &call : message.toolCalls)
            lines.append(u"    → "_s + call.name + u' ' + normalisedArguments(call.arguments));
    }
    return lines;
}

std::optional<QString> RunComparison::requestDifference(const ModelRequest &left, const ModelRequest &right)
{
    if (left.options.model != right.options.model)
        return tr("the model differs");
    if (left.options.temperature != right.options.temperature)
        return tr("the temperature differs");
    if (left.options.topP != right.options.topP)
        return tr("top p differs");
    if (left.options.maxOutputTokens != right.options.maxOutputTokens)
        return tr("the output token limit differs");
    if (left.tools != right.tools)
        return tr("the tools offered differ");
    if (left.toolChoice != right.toolChoice)
        return tr("the tool choice differs");
    const qsizetype common = std::min(left.messages.size(), right.messages.size());
    for (qsizetype i = 0; i < common; ++i) {
        if (!sameMessage(left.messages.at(i), right.messages.at(i)))
            return tr("message %1 (%2) differs")
                .arg(i + 1)
                .arg(RequestComparison::describe(left.messages.at(i)));
    }
    if (left.messages.size() != right.messages.size())
        return tr("%n message(s) against %1", nullptr, int(left.messages.size())).arg(right.messages.size());
    return std::nullopt;
}

} // namespace Loopscope
