#include "ui/trace/tracefilterproxymodel.h"

#include "agent/trace/tracemodel.h"

namespace Loopscope::Ui {

namespace {

constexpr quint32 kindBit(TraceKind kind)
{
    return quint32(1) << int(kind);
}

} // namespace

TraceFilterProxyModel::TraceFilterProxyModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setRecursiveFilteringEnabled(true);
    // A matching model call does not bring its retries along: they are steps of their own.
    setAutoAcceptChildRows(false);
}

void TraceFilterProxyModel::setKinds(const QList<TraceKind> &kinds)
{
    quint32 mask = 0;
    for (TraceKind kind : kinds)
        mask |= kindBit(kind);
    apply(mask, m_toolName, m_errorsOnly);
}

QList<TraceKind> TraceFilterProxyModel::kinds() const
{
    QList<TraceKind> result;
    for (int kind = int(TraceKind::Turn); kind <= int(LastTraceKind); ++kind) {
        if (m_kindMask & kindBit(TraceKind(kind)))
            result.append(TraceKind(kind));
    }
    return result;
}

void TraceFilterProxyModel::setKindEnabled(TraceKind kind, bool enabled)
{
    apply(enabled ? m_kindMask | kindBit(kind) : m_kindMask & ~kindBit(kind), m_toolName, m_errorsOnly);
}

void TraceFilterProxyModel::setToolName(const QString &name)
{
    apply(m_kindMask, name.trimmed(), m_errorsOnly);
}

void TraceFilterProxyModel::setErrorsOnly(bool errorsOnly)
{
    apply(m_kindMask, m_toolName, errorsOnly);
}

void TraceFilterProxyModel::clearFilters()
{
    apply(0, {}, false);
}

bool TraceFilterProxyModel::isFiltering() const
{
    return m_kindMask != 0 || !m_toolName.isEmpty() || m_errorsOnly;
}

void TraceFilterProxyModel::apply(quint32 kindMask, const QString &toolName, bool errorsOnly)
{
    if (kindMask == m_kindMask && toolName == m_toolName && errorsOnly == m_errorsOnly)
        return;
    m_kindMask = kindMask;
    m_toolName = toolName;
    m_errorsOnly = errorsOnly;
    invalidateFilter();
    emit filtersChanged();
}

bool TraceFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (!isFiltering())
        return true;
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    const auto kind = TraceKind(index.data(TraceModel::KindRole).toInt());
    if (m_kindMask != 0 && !(m_kindMask & kindBit(kind)))
        return false;
    if (!m_toolName.isEmpty()) {
        if (kind != TraceKind::ToolCall
            || !index.data(TraceModel::ToolNameRole).toString().contains(m_toolName, Qt::CaseInsensitive))
            return false;
    }
    if (m_errorsOnly && kind != TraceKind::Error && !index.data(TraceModel::IsErrorRole).toBool())
        return false;
    return true;
}

} // namespace Loopscope::Ui
