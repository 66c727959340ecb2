#include "ui/trace/tracetimeline.h"

#include "agent/trace/trace.h"
#include "agent/trace/tracemodel.h"
#include "ui/trace/traceicons.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QStyle>
#include <QStyleOptionFocusRect>
#include <QToolTip>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

constexpr int Margin = 8;
constexpr int LaneGap = 4;
constexpr qreal MinimumBarWidth = 3;
constexpr int LiveIntervalMs = 100;
constexpr int RefreshDelayMs = 16;
constexpr qint64 MinimumRangeUs = 1000;

QColor readableTextOn(const QColor &fill)
{
    // Perceived brightness: dark text on light fills, light text on dark ones.
    const int brightness = (fill.red() * 299 + fill.green() * 587 + fill.blue() * 114) / 1000;
    return brightness > 150 ? QColor(Qt::black) : QColor(Qt::white);
}

// 1, 2 or 5 times a power of ten microseconds, at least `atLeastUs`.
qint64 niceStep(qint64 atLeastUs)
{
    qint64 power = 1;
    while (true) {
        for (qint64 factor : {1, 2, 5}) {
            if (factor * power >= atLeastUs)
                return factor * power;
        }
        power *= 10;
    }
}

} // namespace

TraceTimeline::TraceTimeline(Trace *trace, QWidget *parent)
    : QWidget(parent)
    , m_trace(trace)
{
    setAccessibleName(tr("Timeline"));
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);

    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(RefreshDelayMs);
    connect(&m_refreshTimer, &QTimer::timeout, this, &TraceTimeline::refresh);
    m_liveTimer.setInterval(LiveIntervalMs);
    connect(&m_liveTimer, &QTimer::timeout, this, &TraceTimeline::refresh);

    if (trace) {
        connect(trace, &Trace::appended, this, &TraceTimeline::onNodeAppended);
        connect(trace, &Trace::nodeChanged, this, &TraceTimeline::onNodeChanged);
        connect(trace, &Trace::reset, this, &TraceTimeline::onTraceReset);
        connect(trace, &QObject::destroyed, this, &TraceTimeline::scheduleRefresh);
    }
    refresh();
}

void TraceTimeline::setClock(const Clock *clock)
{
    m_clock = clock ? clock : &m_systemClock;
    refresh();
}

void TraceTimeline::setTurn(int turnId)
{
    if (turnId == m_requestedTurn)
        return;
    m_requestedTurn = turnId;
    refresh();
}

int TraceTimeline::turn() const
{
    return m_shownTurn;
}

void TraceTimeline::setSelectedNode(int nodeId)
{
    if (nodeId == m_selected)
        return;
    m_selected = nodeId;
    update();
}

int TraceTimeline::laneCount() const
{
    int lanes = 0;
    for (const TimelineItem &item : m_items)
        lanes = std::max(lanes, item.lane + 1);
    return lanes;
}

void TraceTimeline::onNodeAppended(int id)
{
    if (concernsShownTurn(id) || (m_requestedTurn == -1 && m_trace->node(id).parent == -1))
        scheduleRefresh();
}

void TraceTimeline::onNodeChanged(int id)
{
    if (concernsShownTurn(id))
        scheduleRefresh();
}

void TraceTimeline::onTraceReset()
{
    // Node ids start again from 0: whatever was chosen is gone.
    m_requestedTurn = -1;
    m_selected = -1;
    refresh();
}

bool TraceTimeline::concernsShownTurn(int id) const
{
    if (!m_trace || !m_trace->isValid(id) || m_shownTurn < 0)
        return false;
    int node = id;
    while (m_trace->node(node).parent != -1)
        node = m_trace->node(node).parent;
    return node == m_shownTurn;
}

void TraceTimeline::scheduleRefresh()
{
    if (!m_refreshTimer.isActive())
        m_refreshTimer.start();
}

void TraceTimeline::refresh()
{
    m_refreshTimer.stop();
    const int previousLanes = laneCount();
    m_shownTurn = -1;
    if (m_trace) {
        if (m_requestedTurn >= 0)
            m_shownTurn = m_trace->isValid(m_requestedTurn) ? m_requestedTurn : -1;
        else if (!m_trace->roots().isEmpty())
            m_shownTurn = m_trace->roots().constLast();
    }
    m_items
        = m_shownTurn >= 0 ? timelineItems(*m_trace, m_shownTurn, m_clock->nowUs()) : QList<TimelineItem>();
    setAccessibleDescription(tr("%n step(s) of the turn on a time axis", nullptr, int(m_items.size())));
    if (laneCount() != previousLanes)
        updateGeometry();
    updateLiveTimer();
    update();
}

void TraceTimeline::updateLiveTimer()
{
    bool running = m_trace && m_shownTurn >= 0 && m_trace->node(m_shownTurn).status == TraceStatus::Running;
    running = running
              || std::any_of(m_items.cbegin(), m_items.cend(), [](const auto &i) { return i.isRunning(); });
    if (running && isVisible()) {
        if (!m_liveTimer.isActive())
            m_liveTimer.start();
    } else {
        m_liveTimer.stop();
    }
}

void TraceTimeline::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh();
}

void TraceTimeline::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_liveTimer.stop();
}

TraceTimeline::Range TraceTimeline::timeRange() const
{
    Range range;
    if (!m_trace || m_shownTurn < 0)
        return range;
    const TraceNode &turn = m_trace->node(m_shownTurn);
    // The turn's own span: what happened before it (an MCP server's start-up it waited for) does not
    // stretch the scale. Only a step that outlived a finished turn may lengthen it.
    range.startUs = turn.startedUs;
    range.endUs = turn.status == TraceStatus::Running ? m_clock->nowUs() : turn.endedUs;
    for (const TimelineItem &item : m_items)
        range.endUs = std::max(range.endUs, item.endUs);
    range.endUs = std::max(range.endUs, range.startUs + MinimumRangeUs);
    return range;
}

int TraceTimeline::laneHeight() const
{
    return fontMetrics().height() + 8;
}

int TraceTimeline::axisHeight() const
{
    return fontMetrics().height() + 10;
}

QRectF TraceTimeline::plotRect() const
{
    return QRectF(Margin, axisHeight() + LaneGap, std::max(1, width() - 2 * Margin),
                  std::max(1, height() - axisHeight() - LaneGap - Margin));
}

qreal TraceTimeline::xFor(qint64 us, const Range &range, const QRectF &plot) const
{
    const double fraction = double(us - range.startUs) / double(range.endUs - range.startUs);
    return plot.left() + fraction * plot.width();
}

QRectF TraceTimeline::itemGeometry(const TimelineItem &item, const Range &range, const QRectF &plot) const
{
    const qreal top = plot.top() + item.lane * (laneHeight() + LaneGap);
    const qreal x0 = xFor(item.startUs, range, plot);
    if (item.isMarker()) {
        const qreal side = laneHeight() * 0.7;
        return QRectF(x0 - side / 2, top + (laneHeight() - side) / 2, side, side);
    }
    const qreal x1 = std::max(xFor(item.endUs, range, plot), x0 + MinimumBarWidth);
    return QRectF(x0, top, x1 - x0, laneHeight());
}

QRect TraceTimeline::itemRect(int nodeId) const
{
    const Range range = timeRange();
    const QRectF plot = plotRect();
    for (const TimelineItem &item : m_items) {
        if (item.nodeId == nodeId)
            return itemGeometry(item, range, plot).toAlignedRect();
    }
    return {};
}

int TraceTimeline::nodeAt(const QPoint &pos) const
{
    const Range range = timeRange();
    const QRectF plot = plotRect();
    // Markers are drawn over bars, so they win a tie; a small slop makes thin bars clickable.
    int hit = -1;
    for (const TimelineItem &item : m_items) {
        const QRectF rect = itemGeometry(item, range, plot).adjusted(-2, 0, 2, 0);
        if (rect.contains(pos) && (hit == -1 || item.isMarker()))
            hit = item.nodeId;
    }
    return hit;
}

QSize TraceTimeline::sizeHint() const
{
    return QSize(480, minimumSizeHint().height());
}

QSize TraceTimeline::minimumSizeHint() const
{
    return QSize(160, heightForLanes(std::max(1, laneCount())));
}

int TraceTimeline::heightForLanes(int lanes) const
{
    return axisHeight() + LaneGap + lanes * (laneHeight() + LaneGap) + Margin;
}

QString TraceTimeline::axisLabel(qint64 offsetUs, qint64 stepUs) const
{
    const QLocale locale;
    if (stepUs < 1000)
        return tr("%1 ms").arg(locale.toString(double(offsetUs) / 1000.0, 'f', stepUs < 100 ? 2 : 1));
    if (stepUs < 1'000'000 && offsetUs < 1'000'000)
        return tr("%1 ms").arg(locale.toString(offsetUs / 1000));
    const int decimals = stepUs >= 1'000'000 ? 0 : stepUs >= 100'000 ? 1 : 2;
    return tr("%1 s").arg(locale.toString(double(offsetUs) / 1e6, 'f', decimals));
}

void TraceTimeline::paintEvent(QPaintEvent *event)
{
    Q_UNUSED(event)
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    const QColor textColor = palette().color(QPalette::Text);
    const QColor quietColor = palette().color(QPalette::PlaceholderText);

    if (m_items.isEmpty()) {
        painter.setPen(quietColor);
        painter.drawText(
            rect().adjusted(Margin, Margin, -Margin, -Margin), Qt::AlignCenter | Qt::TextWordWrap,
            m_shownTurn < 0 ? tr("No turn to show yet.") : tr("No model or tool calls in this turn yet."));
        return;
    }

    const Range range = timeRange();
    const QRectF plot = plotRect();
    const QFontMetrics metrics = fontMetrics();

    // The axis: ticks about every 90 pixels, labelled with the offset from the turn's start.
    QColor gridColor = palette().color(QPalette::Mid);
    const qint64 spanUs = range.endUs - range.startUs;
    const qint64 stepUs = niceStep(qint64(std::ceil(double(spanUs) * 90.0 / std::max(1.0, plot.width()))));
    painter.setPen(gridColor);
    painter.drawLine(QPointF(plot.left(), axisHeight() - 0.5), QPointF(plot.right(), axisHeight() - 0.5));
    for (qint64 offset = 0; offset <= spanUs; offset += stepUs) {
        const qreal x = xFor(range.startUs + offset, range, plot);
        QColor faint = gridColor;
        faint.setAlpha(70);
        painter.setPen(faint);
        painter.drawLine(QPointF(x, axisHeight()), QPointF(x, height()));
        painter.setPen(quietColor);
        const QString label = axisLabel(offset, stepUs);
        const qreal labelWidth = metrics.horizontalAdvance(label);
        const qreal left = std::clamp(x - labelWidth / 2, 0.0, std::max(0.0, width() - labelWidth));
        painter.drawText(QPointF(left, metrics.ascent() + 3), label);
    }

    painter.setRenderHint(QPainter::Antialiasing);
    // Bars first, markers on top.
    for (bool markers : {false, true}) {
        for (const TimelineItem &item : std::as_const(m_items)) {
            if (item.isMarker() != markers)
                continue;
            const QRectF geometry = itemGeometry(item, range, plot);
            const bool selected = item.nodeId == m_selected;
            QColor fill = TraceIcons::kindColor(item.isError() ? TraceKind::Error : item.kind);
            if (item.status == TraceStatus::Cancelled || item.status == TraceStatus::Skipped)
                fill = palette().color(QPalette::Mid);

            if (item.isMarker()) {
                QPolygonF diamond({QPointF(geometry.center().x(), geometry.top()),
                                   QPointF(geometry.right(), geometry.center().y()),
                                   QPointF(geometry.center().x(), geometry.bottom()),
                                   QPointF(geometry.left(), geometry.center().y())});
                painter.setPen(QPen(selected ? palette().color(QPalette::Highlight) : fill.darker(150),
                                    selected ? 2.5 : 1));
                painter.setBrush(fill);
                painter.drawPolygon(diamond);
                continue;
            }

            // Waiting for someone is not the machine's time: a grey, hatched bar whatever the decision.
            if (item.isWait() && item.status != TraceStatus::Cancelled)
                fill = TraceIcons::kindColor(TraceKind::Wait);
            if (item.isRunning())
                fill.setAlpha(170);
            painter.setBrush(fill);
            QPen outline(selected ? palette().color(QPalette::Highlight) : fill.darker(140),
                         selected ? 2.5 : 1);
            if ((item.isRunning() || item.isWait()) && !selected)
                outline.setStyle(Qt::DashLine);
            painter.setPen(outline);
            const QRectF barRect = geometry.adjusted(0.5, 0.5, -0.5, -0.5);
            painter.drawRoundedRect(barRect, 3, 3);
            if (item.isWait()) {
                painter.setPen(Qt::NoPen);
                painter.setBrush(QBrush(fill.darker(150), Qt::BDiagPattern));
                painter.drawRoundedRect(barRect, 3, 3);
            }

            const QRectF textRect = geometry.adjusted(5, 0, -4, 0);
            if (textRect.width() > metrics.averageCharWidth() * 3) {
                QColor opaqueFill = fill;
                opaqueFill.setAlpha(255);
                painter.setPen(item.isRunning() ? textColor : readableTextOn(opaqueFill));
                painter.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft,
                                 metrics.elidedText(item.label, Qt::ElideRight, int(textRect.width())));
            }
            if (selected && hasFocus()) {
                QStyleOptionFocusRect option;
                option.initFrom(this);
                option.rect = geometry.adjusted(-3, -2, 3, 2).toAlignedRect();
                style()->drawPrimitive(QStyle::PE_FrameFocusRect, &option, &painter, this);
            }
        }
    }
}

QString TraceTimeline::toolTipFor(const TimelineItem &item) const
{
    const qint64 offsetUs = item.startUs - timeRange().startUs;
    const QString status = TraceModel::statusDisplayName(item.status);
    QString duration;
    if (item.isRunning())
        duration = tr("running for %1").arg(TraceModel::formatDuration(item.endUs - item.startUs));
    else if (!item.isMarker())
        duration = tr("took %1").arg(TraceModel::formatDuration(item.endUs - item.startUs));
    if (item.startedBeforeTurnUs > 0) {
        //: Tooltip of a step that began before its turn (an MCP server's start-up the turn waited for)
        return tr("%1\n%2 · %3\nstarted %4 before the turn")
            .arg(item.label, TraceModel::kindDisplayName(item.kind), status,
                 TraceModel::formatSpan(item.startedBeforeTurnUs));
    }
    //: Tooltip of a timeline bar: label, kind, status, start offset, duration
    return tr("%1\n%2 · %3\nstarted at +%4 %5")
        .arg(item.label, TraceModel::kindDisplayName(item.kind), status, TraceModel::formatDuration(offsetUs),
             duration)
        .trimmed();
}

bool TraceTimeline::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int id = nodeAt(help->pos());
        const auto item = std::find_if(m_items.cbegin(), m_items.cend(),
                                       [id](const TimelineItem &i) { return i.nodeId == id; });
        if (item == m_items.cend()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), toolTipFor(*item), this, itemRect(id));
        }
        return true;
    }
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        updateGeometry();
    return QWidget::event(event);
}

void TraceTimeline::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    const int id = nodeAt(event->position().toPoint());
    if (id < 0)
        return QWidget::mousePressEvent(event);
    setSelectedNode(id);
    emit nodeClicked(id);
}

void TraceTimeline::selectByKeyboard(int index)
{
    if (index < 0 || index >= m_items.size())
        return;
    const int id = m_items.at(index).nodeId;
    setSelectedNode(id);
    emit nodeClicked(id);
}

void TraceTimeline::keyPressEvent(QKeyEvent *event)
{
    const auto current = std::find_if(m_items.cbegin(), m_items.cend(),
                                      [this](const TimelineItem &i) { return i.nodeId == m_selected; });
    const int index = current == m_items.cend() ? -1 : int(current - m_items.cbegin());
    switch (event->key()) {
    case Qt::Key_Right: selectByKeyboard(index < 0 ? 0 : index + 1); break;
    case Qt::Key_Left: selectByKeyboard(index < 0 ? int(m_items.size()) - 1 : index - 1); break;
    case Qt::Key_Home: selectByKeyboard(0); break;
    case Qt::Key_End: selectByKeyboard(int(m_items.size()) - 1); break;
    default: QWidget::keyPressEvent(event); return;
    }
}

} // namespace Loopscope::Ui
