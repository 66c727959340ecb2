#include "agent/trace/tracemodel.h"

#include "agent/trace/trace.h"
#include "agent/trace/tracecost.h"

#include <QJsonObject>
#include <QLocale>
#include <QThread>

using namespace Qt::StringLiterals;

namespace Loopscope {

TraceModel::TraceModel(Trace *trace, QObject *parent)
    : QAbstractItemModel(parent)
    , m_trace(trace)
{
    Q_ASSERT(trace);
    // Notifications from another thread would race the views: the model, its
    // Trace and the views share one thread (the GUI thread), as asserted below.
    Q_ASSERT(trace->thread() == thread());
    connect(trace, &Trace::aboutToAppend, this, &TraceModel::onAboutToAppend);
    connect(trace, &Trace::appended, this, &TraceModel::onAppended);
    connect(trace, &Trace::nodeChanged, this, &TraceModel::onNodeChanged);
    connect(trace, &Trace::aboutToReset, this, &TraceModel::onAboutToReset);
    connect(trace, &Trace::reset, this, &TraceModel::onReset);
    connect(trace, &QObject::destroyed, this, &TraceModel::onTraceDestroyed);
}

QModelIndex TraceModel::indexForNode(int id, int column) const
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!m_trace || !m_trace->isValid(id) || column < 0 || column >= ColumnCount)
        return {};
    return createIndex(m_trace->node(id).row, column, quintptr(id));
}

int TraceModel::nodeId(const QModelIndex &index) const
{
    if (!index.isValid() || index.model() != this)
        return -1;
    return int(index.internalId());
}

QString TraceModel::kindDisplayName(TraceKind kind)
{
    switch (kind) {
    case TraceKind::Turn: return tr("Turn");
    case TraceKind::Iteration: return tr("Iteration");
    case TraceKind::ModelCall: return tr("Model call");
    case TraceKind::Retry: return tr("Retry");
    case TraceKind::ToolCall: return tr("Tool call");
    case TraceKind::ShieldCheck: return tr("Shield check");
    case TraceKind::Reflection: return tr("Reflection");
    case TraceKind::Summary: return tr("Summary");
    case TraceKind::Handoff: return tr("Handoff");
    case TraceKind::Error: return tr("Error");
    case TraceKind::McpServer: return tr("MCP server");
    case TraceKind::Wait: return tr("Wait");
    case TraceKind::Compaction: return tr("Compaction");
    case TraceKind::Retrieval: return tr("Retrieval");
    case TraceKind::McpAuth: return tr("OAuth");
    }
    return {};
}

QString TraceModel::statusDisplayName(TraceStatus status)
{
    switch (status) {
    case TraceStatus::Running: return tr("Running");
    case TraceStatus::Ok: return tr("OK");
    case TraceStatus::Error: return tr("Error");
    case TraceStatus::Cancelled: return tr("Cancelled");
    case TraceStatus::Blocked: return tr("Blocked");
    case TraceStatus::Denied: return tr("Denied");
    case TraceStatus::Skipped: return tr("Skipped");
    case TraceStatus::Limited: return tr("Limited");
    }
    return {};
}

QString TraceModel::formatDuration(qint64 durationUs)
{
    //: A duration in milliseconds, e.g. "12.3 ms"
    return tr("%1 ms").arg(QLocale().toString(double(durationUs) / 1000.0, 'f', 1));
}

QString TraceModel::formatSpan(qint64 durationUs)
{
    if (durationUs < 1'000'000)
        return formatDuration(durationUs);
    //: A duration in seconds, e.g. "23.9 s"
    return tr("%1 s").arg(QLocale().toString(double(durationUs) / 1e6, 'f', 1));
}

QString TraceModel::timingText(const StepTiming &timing)
{
    if (timing.waitingUs <= 0)
        return {};
    //: Tooltip of a step's duration: the whole, the machine's part, the part spent waiting for the user
    return tr("%1: %2 working, %3 waiting for you")
        .arg(formatSpan(timing.durationUs), formatSpan(timing.workingUs()), formatSpan(timing.waitingUs));
}

QModelIndex TraceModel::index(int row, int column, const QModelIndex &parent) const
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!m_trace || row < 0 || column < 0 || column >= ColumnCount)
        return {};
    // Only the first column has children, as views expect.
    if (parent.isValid() && parent.column() != NameColumn)
        return {};
    const int parentId = parent.isValid() ? nodeId(parent) : -1;
    if (parentId != -1 && !m_trace->isValid(parentId))
        return {};
    const QList<int> &children = m_trace->childrenOf(parentId);
    if (row >= children.size())
        return {};
    return createIndex(row, column, quintptr(children.at(row)));
}

QModelIndex TraceModel::parent(const QModelIndex &child) const
{
    Q_ASSERT(QThread::currentThread() == thread());
    const TraceNode *node = nodeAt(child);
    if (!node || node->parent == -1)
        return {};
    return createIndex(m_trace->node(node->parent).row, NameColumn, quintptr(node->parent));
}

int TraceModel::rowCount(const QModelIndex &parent) const
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!m_trace)
        return 0;
    if (!parent.isValid())
        return int(m_trace->roots().size());
    if (parent.column() != NameColumn)
        return 0;
    const TraceNode *node = nodeAt(parent);
    return node ? int(node->children.size()) : 0;
}

int TraceModel::columnCount(const QModelIndex &parent) const
{
    Q_UNUSED(parent)
    return ColumnCount;
}

QVariant TraceModel::data(const QModelIndex &index, int role) const
{
    Q_ASSERT(QThread::currentThread() == thread());
    const TraceNode *node = nodeAt(index);
    if (!node)
        return {};

    switch (role) {
    case Qt::DisplayRole: return displayData(*node, index.column());
    case Qt::ToolTipRole:
        // Labels are shortened to fit a row; the tooltip shows the whole text.
        if (index.column() == NameColumn)
            return node->label;
        if (index.column() == TokensColumn)
            return tokenTimingText(*node);
        if (index.column() == CostColumn)
            return priceBasisText(*node);
        if (index.column() == DurationColumn && node->kind != TraceKind::Wait)
            return timingText(stepTiming(*m_trace, node->id));
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == DurationColumn || index.column() == TokensColumn
            || index.column() == CostColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case NodeIdRole: return node->id;
    case KindRole: return int(node->kind);
    case StatusRole: return int(node->status);
    case StartedUsRole: return node->startedUs;
    case EndedUsRole: return node->endedUs;
    case DurationUsRole: return node->durationUs();
    case IsErrorRole:
        return node->status == TraceStatus::Error || node->status == TraceStatus::Blocked
               || node->status == TraceStatus::Denied;
    case ToolNameRole:
        if (const auto *toolCall = std::get_if<ToolCallData>(&node->payload))
            return toolCall->call.name;
        return {};
    case PayloadJsonRole: return tracePayloadToJson(node->payload);
    case TokenTimingRole: return tokenTimingText(*node);
    case CostUsdRole: {
        const CostSum sum = traceCost(*m_trace, node->id);
        return sum.isKnown() ? QVariant(sum.usd) : QVariant();
    }
    case WaitingUsRole: return stepTiming(*m_trace, node->id).waitingUs;
    case WorkingUsRole: return stepTiming(*m_trace, node->id).workingUs();
    }
    return {};
}

QString TraceModel::costText(const Trace &trace, int id)
{
    if (!trace.isValid(id))
        return {};
    const TraceKind kind = trace.node(id).kind;
    // A tool call costs something when it asked a sub-agent, whose model calls are under it.
    if (kind != TraceKind::ModelCall && kind != TraceKind::Iteration && kind != TraceKind::Turn
        && kind != TraceKind::ToolCall)
        return {};
    const CostSum sum = traceCost(trace, id);
    return sum.pricedCalls + sum.unpricedCalls > 0 ? formatCost(sum) : QString();
}

QString TraceModel::priceBasisText(const TraceNode &node)
{
    const auto *call = std::get_if<ModelCallData>(&node.payload);
    if (!call || !call->cost)
        return {};
    const PriceBasis &basis = call->cost->basis;
    //: Tooltip of a model call's cost: USD per million input and output tokens, and their source
    QString text = tr("$%1 / $%2 per million input / output tokens")
                       .arg(QLocale().toString(basis.inputPerMTok, 'g', 6),
                            QLocale().toString(basis.outputPerMTok, 'g', 6));
    if (basis.cacheReadPerMTok)
        text += tr(", $%1 cached").arg(QLocale().toString(*basis.cacheReadPerMTok, 'g', 6));
    if (!basis.source.isEmpty())
        text += u" ("_s + basis.source + u')';
    return text;
}

QString TraceModel::tokenTimingText(const TraceNode &node)
{
    const std::optional<TokenTiming> timing = tokenTiming(node);
    if (!timing)
        return {};
    //: Tooltip of a model call's tokens: the wait for the first streamed token
    QString text = tr("First token after %1").arg(formatDuration(timing->timeToFirstTokenUs));
    if (timing->tokensPerSecond > 0)
        //: Output tokens per second after the first token
        text += tr(" · %1 tokens/s").arg(QLocale().toString(timing->tokensPerSecond, 'f', 1));
    return text;
}

// The tokens of the sub-agents a tool call asked: its part of the turn's.
TokenUsage TraceModel::subAgentUsage(const TraceNode &call) const
{
    TokenUsage usage;
    for (int child : call.children) {
        if (const auto *turn = std::get_if<TurnData>(&m_trace->node(child).payload))
            usage += turn->usage;
    }
    return usage;
}

QVariant TraceModel::displayData(const TraceNode &node, int column) const
{
    switch (column) {
    case NameColumn:
        // Playground re-runs are kept in the call's node: the tree says there are some to look at.
        if (const auto *call = std::get_if<ModelCallData>(&node.payload); call && !call->variants.isEmpty())
            //: A model call's name in the trace, with how many times it was re-run in the playground
            return tr("%1 · re-runs: %2").arg(node.label).arg(call->variants.size());
        return node.label;
    case KindColumn: return kindDisplayName(node.kind);
    case StatusColumn: return statusDisplayName(node.status);
    case DurationColumn:
        // A running step has no duration yet; an empty cell says so better than "0 ms".
        if (node.endedUs <= 0)
            return QString();
        // The machine's time: what a person took to decide is the Wait's, shown in the tooltip.
        if (node.kind == TraceKind::Wait || node.children.isEmpty())
            return formatDuration(node.durationUs());
        return formatDuration(stepTiming(*m_trace, node.id).workingUs());
    case TokensColumn: {
        TokenUsage usage;
        if (const auto *call = std::get_if<ModelCallData>(&node.payload))
            usage = call->response.usage;
        else if (const auto *turn = std::get_if<TurnData>(&node.payload))
            usage = turn->usage;
        else if (node.kind == TraceKind::ToolCall)
            usage = subAgentUsage(node);
        // Zero means "not reported", not "free".
        return usage.isEmpty() ? QString() : QLocale().toString(usage.total());
    }
    case CostColumn: return costText(*m_trace, node.id);
    }
    return {};
}

QVariant TraceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Name");
    case KindColumn: return tr("Kind");
    case StatusColumn: return tr("Status");
    case DurationColumn: return tr("Duration");
    case TokensColumn: return tr("Tokens");
    case CostColumn: return tr("Cost");
    }
    return {};
}

QHash<int, QByteArray> TraceModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractItemModel::roleNames();
    names.insert(NodeIdRole, "nodeId");
    names.insert(KindRole, "kind");
    names.insert(StatusRole, "status");
    names.insert(StartedUsRole, "startedUs");
    names.insert(EndedUsRole, "endedUs");
    names.insert(DurationUsRole, "durationUs");
    names.insert(IsErrorRole, "isError");
    names.insert(ToolNameRole, "toolName");
    names.insert(PayloadJsonRole, "payloadJson");
    names.insert(TokenTimingRole, "tokenTiming");
    names.insert(CostUsdRole, "costUsd");
    names.insert(WaitingUsRole, "waitingUs");
    names.insert(WorkingUsRole, "workingUs");
    return names;
}

const TraceNode *TraceModel::nodeAt(const QModelIndex &index) const
{
    const int id = nodeId(index);
    if (!m_trace || !m_trace->isValid(id))
        return nullptr;
    return &m_trace->node(id);
}

void TraceModel::onAboutToAppend(int parent, int row)
{
    Q_ASSERT(QThread::currentThread() == thread());
    const QModelIndex parentIndex = parent == -1 ? QModelIndex() : indexForNode(parent);
    beginInsertRows(parentIndex, row, row);
}

void TraceModel::onAppended(int id)
{
    Q_ASSERT(QThread::currentThread() == thread());
    Q_UNUSED(id)
    endInsertRows();
}

void TraceModel::onNodeChanged(int id)
{
    Q_ASSERT(QThread::currentThread() == thread());
    const QModelIndex first = indexForNode(id, 0);
    if (!first.isValid())
        return;
    emit dataChanged(first, indexForNode(id, ColumnCount - 1));
    // A wait's time is taken out of the working time of every step above it.
    if (m_trace->node(id).kind == TraceKind::Wait) {
        for (int parent = m_trace->node(id).parent; parent != -1; parent = m_trace->node(parent).parent) {
            const QModelIndex duration = indexForNode(parent, DurationColumn);
            emit dataChanged(duration, duration,
                             {Qt::DisplayRole, Qt::ToolTipRole, WaitingUsRole, WorkingUsRole});
        }
        return;
    }
    // A model call's cost is also its iteration's and turn's.
    if (m_trace->node(id).kind != TraceKind::ModelCall)
        return;
    for (int parent = m_trace->node(id).parent; parent != -1; parent = m_trace->node(parent).parent) {
        const QModelIndex cost = indexForNode(parent, CostColumn);
        emit dataChanged(cost, cost, {Qt::DisplayRole, CostUsdRole});
    }
}

void TraceModel::onAboutToReset()
{
    Q_ASSERT(QThread::currentThread() == thread());
    beginResetModel();
}

void TraceModel::onReset()
{
    Q_ASSERT(QThread::currentThread() == thread());
    endResetModel();
}

void TraceModel::onTraceDestroyed()
{
    Q_ASSERT(QThread::currentThread() == thread());
    // The QPointer is already null here, so views asking during the reset see no rows.
    beginResetModel();
    endResetModel();
}

} // namespace Loopscope
