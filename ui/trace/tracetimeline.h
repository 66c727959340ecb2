#pragma once

#include "agent/trace/clock.h"
#include "ui/trace/tracetimelinelayout.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

namespace Loopscope {
class Trace;
}

namespace Loopscope::Ui {

/*!
    A waterfall of one turn: its model and tool calls as bars on a time axis,
    calls that overlapped (parallel tools) in lanes of their own, errors as
    markers. It follows the Trace live: running calls grow until they finish.
    Clicking a bar (or moving with the arrow keys) reports the node, so the
    inspector can select it.
*/
class TraceTimeline final : public QWidget
{
    Q_OBJECT

public:
    explicit TraceTimeline(Trace *trace, QWidget *parent = nullptr);

    // Where "now" comes from for running calls; not owned. By default the system clock.
    void setClock(const Clock *clock);

    // The turn to show; -1 follows the latest turn.
    void setTurn(int turnId);
    int turn() const; // the turn shown, or -1

    // Outlines one item; -1 for none.
    void setSelectedNode(int nodeId);
    int selectedNode() const { return m_selected; }

    const QList<TimelineItem> &items() const { return m_items; }
    int laneCount() const;
    QRect itemRect(int nodeId) const; // in widget coordinates; empty when the node has no bar or marker
    int nodeAt(const QPoint &pos) const;
    // The height that shows this many lanes without scrolling.
    int heightForLanes(int lanes) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void nodeClicked(int nodeId);

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    struct Range
    {
        qint64 startUs = 0;
        qint64 endUs = 0;
    };

    void onNodeAppended(int id);
    void onNodeChanged(int id);
    void onTraceReset();
    bool concernsShownTurn(int id) const;
    void scheduleRefresh();
    void refresh();
    void updateLiveTimer();

    Range timeRange() const;
    int laneHeight() const;
    int axisHeight() const;
    QRectF plotRect() const;
    qreal xFor(qint64 us, const Range &range, const QRectF &plot) const;
    QRectF itemGeometry(const TimelineItem &item, const Range &range, const QRectF &plot) const;
    QString axisLabel(qint64 offsetUs, qint64 stepUs) const;
    QString toolTipFor(const TimelineItem &item) const;
    void selectByKeyboard(int index);

    QPointer<Trace> m_trace;
    SystemClock m_systemClock;
    const Clock *m_clock = &m_systemClock;
    int m_requestedTurn = -1;
    int m_shownTurn = -1;
    int m_selected = -1;
    QList<TimelineItem> m_items;
    QTimer m_refreshTimer; // coalesces bursts of trace changes
    QTimer m_liveTimer;    // grows running bars
};

} // namespace Loopscope::Ui
