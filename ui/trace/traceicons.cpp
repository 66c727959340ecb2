#include "ui/trace/traceicons.h"

#include <QIconEngine>
#include <QPainter>
#include <QPainterPath>
#include <QPalette>
#include <QPixmap>

#include <cmath>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

/*
    Paints one kind's glyph into whatever rectangle it is given. QIcon asks for
    pixmaps in device pixels, so the glyph is drawn at the screen's resolution
    instead of being scaled from a small bitmap.
*/
class GlyphEngine final : public QIconEngine
{
public:
    explicit GlyphEngine(TraceKind kind)
        : m_kind(kind)
    {}

    void paint(QPainter *painter, const QRect &rect, QIcon::Mode mode, QIcon::State state) override
    {
        Q_UNUSED(state)
        const qreal side = std::min(rect.width(), rect.height());
        if (side <= 0)
            return;
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        // Work in a 16 x 16 box centred in the rectangle.
        const QPointF origin = QRectF(rect).center() - QPointF(side / 2, side / 2);
        painter->translate(origin);
        painter->scale(side / 16.0, side / 16.0);

        QColor fill = TraceIcons::kindColor(m_kind);
        if (mode == QIcon::Disabled) {
            const int grey = qGray(fill.rgb());
            fill = QColor(grey, grey, grey, 160);
        }
        QColor outline = fill.darker(160);
        outline.setAlpha(fill.alpha());
        painter->setPen(QPen(outline, 1.2, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        painter->setBrush(fill);
        paintGlyph(painter, outline);
        painter->restore();
    }

    QPixmap pixmap(const QSize &size, QIcon::Mode mode, QIcon::State state) override
    {
        return scaledPixmap(size, mode, state, 1.0);
    }

    QPixmap scaledPixmap(const QSize &size, QIcon::Mode mode, QIcon::State state, qreal scale) override
    {
        // QIcon asks with the size already in device pixels and the ratio it will show the pixmap at.
        QPixmap result(size);
        result.fill(Qt::transparent);
        {
            QPainter painter(&result);
            paint(&painter, QRect(QPoint(0, 0), size), mode, state);
        }
        result.setDevicePixelRatio(scale);
        return result;
    }

    QSize actualSize(const QSize &size, QIcon::Mode mode, QIcon::State state) override
    {
        Q_UNUSED(mode)
        Q_UNUSED(state)
        return size;
    }

    bool isNull() override { return false; }
    QIconEngine *clone() const override { return new GlyphEngine(m_kind); }
    QString key() const override { return u"LoopscopeTraceGlyph"_s; }

private:
    void paintGlyph(QPainter *painter, const QColor &outline) const
    {
        switch (m_kind) {
        case TraceKind::Turn: { // a speech bubble
            QPainterPath bubble;
            bubble.addRoundedRect(QRectF(1.5, 2, 13, 9.5), 2.5, 2.5);
            QPainterPath tail;
            tail.moveTo(4, 10.5);
            tail.lineTo(4, 14.5);
            tail.lineTo(8, 10.5);
            tail.closeSubpath();
            painter->drawPath(bubble.united(tail));
            return;
        }
        case TraceKind::Iteration: { // a loop: an open circle with an arrow head
            painter->setBrush(Qt::NoBrush);
            painter->setPen(QPen(outline, 2.2, Qt::SolidLine, Qt::RoundCap));
            painter->drawArc(QRectF(2.5, 2.5, 11, 11), 100 * 16, 290 * 16);
            painter->setBrush(outline);
            painter->setPen(Qt::NoPen);
            painter->drawPolygon(QPolygonF({QPointF(6.5, 0.5), QPointF(10.5, 2.8), QPointF(6.5, 5.5)}));
            return;
        }
        case TraceKind::ModelCall: { // a hexagon
            QPolygonF hexagon;
            for (int i = 0; i < 6; ++i) {
                const double angle = M_PI / 6 + i * M_PI / 3;
                hexagon << QPointF(8 + 6.5 * std::cos(angle), 8 + 6.5 * std::sin(angle));
            }
            painter->drawPolygon(hexagon);
            return;
        }
        case TraceKind::Retry: // an hourglass: waited, then tried again
            painter->drawPolygon(QPolygonF({QPointF(3, 1.5), QPointF(13, 1.5), QPointF(8, 8),
                                            QPointF(13, 14.5), QPointF(3, 14.5), QPointF(8, 8)}));
            return;
        case TraceKind::ToolCall: { // a hammer
            painter->drawRoundedRect(QRectF(2, 2, 12, 5), 1, 1);
            painter->drawRoundedRect(QRectF(6.5, 7, 3, 8), 1, 1);
            return;
        }
        case TraceKind::ShieldCheck: { // a shield
            QPainterPath shield;
            shield.moveTo(8, 1.2);
            shield.lineTo(14, 3.5);
            shield.cubicTo(14, 9.5, 11.5, 13, 8, 15);
            shield.cubicTo(4.5, 13, 2, 9.5, 2, 3.5);
            shield.closeSubpath();
            painter->drawPath(shield);
            return;
        }
        case TraceKind::Reflection: { // a half-lit disc
            const QRectF disc(2, 2, 12, 12);
            painter->setBrush(Qt::NoBrush);
            painter->drawEllipse(disc);
            painter->setBrush(TraceIcons::kindColor(m_kind));
            painter->drawChord(disc, 90 * 16, 180 * 16);
            return;
        }
        case TraceKind::Summary: { // lines of text
            painter->setPen(QPen(outline, 2.2, Qt::SolidLine, Qt::RoundCap));
            painter->drawLine(QPointF(2.5, 4), QPointF(13.5, 4));
            painter->drawLine(QPointF(2.5, 8), QPointF(13.5, 8));
            painter->drawLine(QPointF(2.5, 12), QPointF(9.5, 12));
            return;
        }
        case TraceKind::Handoff: // an arrow to the right
            painter->drawPolygon(
                QPolygonF({QPointF(1.5, 5.5), QPointF(8, 5.5), QPointF(8, 2), QPointF(14.5, 8),
                           QPointF(8, 14), QPointF(8, 10.5), QPointF(1.5, 10.5)}));
            return;
        case TraceKind::Error: { // a warning triangle with an exclamation mark
            painter->drawPolygon(QPolygonF({QPointF(8, 1.2), QPointF(15, 14.5), QPointF(1, 14.5)}));
            painter->setPen(QPen(Qt::white, 1.8, Qt::SolidLine, Qt::RoundCap));
            painter->drawLine(QPointF(8, 5.8), QPointF(8, 9.6));
            painter->drawPoint(QPointF(8, 12.4));
            return;
        }
        case TraceKind::McpServer: { // a plug: a body with two prongs
            painter->drawRoundedRect(QRectF(3, 6, 10, 8), 2, 2);
            painter->drawRect(QRectF(5, 1.5, 2, 4.5));
            painter->drawRect(QRectF(9, 1.5, 2, 4.5));
            return;
        }
        case TraceKind::Wait: // an hourglass
            painter->drawPolygon(QPolygonF({QPointF(3, 1.5), QPointF(13, 1.5), QPointF(8, 8),
                                            QPointF(13, 14.5), QPointF(3, 14.5), QPointF(8, 8)}));
            return;
        case TraceKind::Compaction: // two arrows pressing a bar together
            painter->drawRect(QRectF(2, 6.5, 12, 3));
            painter->drawPolygon(QPolygonF({QPointF(5, 1), QPointF(11, 1), QPointF(8, 5)}));
            painter->drawPolygon(QPolygonF({QPointF(5, 15), QPointF(11, 15), QPointF(8, 11)}));
            return;
        case TraceKind::Retrieval: { // a magnifying glass
            painter->setBrush(Qt::NoBrush);
            painter->setPen(QPen(outline, 2.2));
            painter->drawEllipse(QRectF(2, 2, 8.5, 8.5));
            painter->setPen(QPen(outline, 2.8, Qt::SolidLine, Qt::RoundCap));
            painter->drawLine(QPointF(9.5, 9.5), QPointF(14, 14));
            return;
        }
        case TraceKind::McpAuth: { // a key: a ring and a bit
            painter->drawEllipse(QRectF(1.5, 4.5, 7, 7));
            painter->drawRect(QRectF(8, 7, 7, 2));
            painter->drawRect(QRectF(12, 9, 2, 3));
            return;
        }
        }
    }

    TraceKind m_kind;
};

} // namespace

QIcon TraceIcons::kindIcon(TraceKind kind)
{
    return QIcon(new GlyphEngine(kind));
}

QColor TraceIcons::kindColor(TraceKind kind)
{
    switch (kind) {
    case TraceKind::Turn: return QColor(0x5b, 0x8d, 0xd6);
    case TraceKind::Iteration: return QColor(0x7a, 0x86, 0x99);
    case TraceKind::ModelCall: return QColor(0x8e, 0x6b, 0xd9);
    case TraceKind::Retry: return QColor(0xe0, 0x9a, 0x3e);
    case TraceKind::ToolCall: return QColor(0x2f, 0xa8, 0x8f);
    case TraceKind::ShieldCheck: return QColor(0x4c, 0x9b, 0xc9);
    case TraceKind::Reflection: return QColor(0xc2, 0x7b, 0xb8);
    case TraceKind::Summary: return QColor(0x8a, 0x9a, 0x5b);
    case TraceKind::Handoff: return QColor(0xd1, 0x8a, 0x4b);
    case TraceKind::Error: return QColor(0xd9, 0x3f, 0x3f);
    case TraceKind::McpServer: return QColor(0x3f, 0x8f, 0x5f);
    case TraceKind::Wait: return QColor(0x9a, 0xa3, 0xb0);
    case TraceKind::Compaction: return QColor(0x6f, 0x7f, 0xc7);
    case TraceKind::Retrieval: return QColor(0xb5, 0x8a, 0x2e);
    case TraceKind::McpAuth: return QColor(0xb0, 0x8d, 0x2f);
    }
    return {};
}

bool TraceIcons::isDark(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

QColor TraceIcons::statusColor(TraceStatus status, const QPalette &palette)
{
    // Pairs of one hue: the first for light bases, the second for dark ones.
    // Each keeps a contrast ratio of at least 4.5 against typical base and window colours.
    const bool dark = isDark(palette);
    switch (status) {
    case TraceStatus::Running: return dark ? QColor(0x6c, 0xb6, 0xff) : QColor(0x09, 0x5a, 0xc2);
    case TraceStatus::Ok: return dark ? QColor(0x4c, 0xc3, 0x5f) : QColor(0x0f, 0x6d, 0x2e);
    case TraceStatus::Error: return dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xc0, 0x1c, 0x28);
    case TraceStatus::Blocked: return dark ? QColor(0xf0, 0x98, 0x4a) : QColor(0xa3, 0x4a, 0x00);
    case TraceStatus::Denied: return dark ? QColor(0xd8, 0xa4, 0xff) : QColor(0x7a, 0x3e, 0xc8);
    case TraceStatus::Limited: return dark ? QColor(0xe8, 0xc5, 0x4a) : QColor(0x80, 0x5d, 0x00);
    case TraceStatus::Cancelled:
    case TraceStatus::Skipped: return palette.color(QPalette::PlaceholderText);
    }
    return palette.color(QPalette::Text);
}

} // namespace Loopscope::Ui
