#pragma once

#include "agent/trace/tracenode.h"

#include <QIdentityProxyModel>
#include <QList>
#include <QPalette>

namespace Loopscope::Ui {

/*!
    Dresses the TraceModel for a view: a glyph per kind in the name column and
    status colours, which the agent-side model leaves out because it knows
    nothing of palettes. Colours follow the palette given with setPalette(),
    so a theme switch repaints them.
*/
class TraceStyleProxy final : public QIdentityProxyModel
{
    Q_OBJECT

public:
    explicit TraceStyleProxy(QObject *parent = nullptr);

    void setPalette(const QPalette &palette);
    QPalette palette() const { return m_palette; }

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    void emitForegroundChanged(const QModelIndex &parent);

    QPalette m_palette;
    QList<QIcon> m_kindIcons; // indexed by TraceKind
};

} // namespace Loopscope::Ui
