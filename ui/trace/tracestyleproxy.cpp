#include "ui/trace/tracestyleproxy.h"

#include "agent/trace/tracemodel.h"
#include "ui/trace/traceicons.h"

#include <QGuiApplication>

namespace Loopscope::Ui {

TraceStyleProxy::TraceStyleProxy(QObject *parent)
    : QIdentityProxyModel(parent)
    , m_palette(QGuiApplication::palette())
{
    for (int kind = int(TraceKind::Turn); kind <= int(LastTraceKind); ++kind)
        m_kindIcons.append(TraceIcons::kindIcon(TraceKind(kind)));
}

void TraceStyleProxy::setPalette(const QPalette &palette)
{
    if (palette == m_palette)
        return;
    m_palette = palette;
    emitForegroundChanged({});
}

void TraceStyleProxy::emitForegroundChanged(const QModelIndex &parent)
{
    const int rows = rowCount(parent);
    if (rows == 0)
        return;
    emit dataChanged(index(0, 0, parent), index(rows - 1, columnCount(parent) - 1, parent),
                     {Qt::ForegroundRole});
    for (int row = 0; row < rows; ++row)
        emitForegroundChanged(index(row, 0, parent));
}

QVariant TraceStyleProxy::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    switch (role) {
    case Qt::DecorationRole: {
        if (index.column() != TraceModel::NameColumn)
            break;
        const int kind = QIdentityProxyModel::data(index, TraceModel::KindRole).toInt();
        return kind >= 0 && kind < m_kindIcons.size() ? QVariant(m_kindIcons.at(kind)) : QVariant();
    }
    case Qt::ForegroundRole: {
        const auto status = TraceStatus(QIdentityProxyModel::data(index, TraceModel::StatusRole).toInt());
        if (index.column() == TraceModel::StatusColumn)
            return TraceIcons::statusColor(status, m_palette);
        // Other cells keep the palette's text colour unless the step went wrong or never ran.
        if (status == TraceStatus::Running || status == TraceStatus::Ok)
            break;
        return TraceIcons::statusColor(status, m_palette);
    }
    }
    return QIdentityProxyModel::data(index, role);
}

} // namespace Loopscope::Ui
