#include "ui/inspector/mcplogfiltermodel.h"

#include "agent/mcp/mcpmessagelog.h"

namespace Loopscope::Ui {

McpLogFilterModel::McpLogFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{}

void McpLogFilterModel::setMethod(const QString &method)
{
    m_method = method.trimmed();
    invalidateFilter();
}

void McpLogFilterModel::setDirection(Direction direction)
{
    m_direction = direction;
    invalidateFilter();
}

void McpLogFilterModel::setText(const QString &text)
{
    m_text = text;
    invalidateFilter();
}

QByteArray McpLogFilterModel::jsonLines() const
{
    QByteArray lines;
    for (int row = 0; row < rowCount(); ++row)
        lines += index(row, 0).data(McpMessageLog::JsonLineRole).toString().toUtf8() + '\n';
    return lines;
}

bool McpLogFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    if (m_direction != Direction::Both
        && index.data(McpMessageLog::OutgoingRole).toBool() != (m_direction == Direction::Sent))
        return false;
    if (!m_method.isEmpty()
        && !index.data(McpMessageLog::MethodRole).toString().contains(m_method, Qt::CaseInsensitive))
        return false;
    return m_text.isEmpty()
           || index.data(McpMessageLog::SearchTextRole).toString().contains(m_text, Qt::CaseInsensitive);
}

} // namespace Loopscope::Ui
