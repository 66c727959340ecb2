#include "ui/chat/chatsurface.h"

#include <QPainter>
#include <QPainterPath>
#include <QPalette>
#include <QStyle>
#include <QWidget>

#include <cmath>

namespace Loopscope::Ui {

QColor mixColors(const QColor &from, const QColor &to, qreal amount)
{
    const qreal keep = 1.0 - amount;
    return QColor::fromRgbF(float(from.redF() * keep + to.redF() * amount),
                            float(from.greenF() * keep + to.greenF() * amount),
                            float(from.blueF() * keep + to.blueF() * amount));
}

QColor surfaceFill(ChatSurface surface, const QPalette &palette)
{
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    switch (surface) {
    case ChatSurface::None: return Qt::transparent;
    case ChatSurface::UserMessage: return mixColors(base, palette.color(QPalette::Highlight), 0.12);
    case ChatSurface::Card: return mixColors(base, text, 0.035);
    case ChatSurface::Code: return mixColors(base, text, 0.07);
    case ChatSurface::Notice: return mixColors(base, text, 0.06);
    case ChatSurface::Approval: return mixColors(base, palette.color(QPalette::Highlight), 0.08);
    }
    return base;
}

QColor surfaceBorder(ChatSurface surface, const QPalette &palette)
{
    const QColor base = palette.color(QPalette::Base);
    switch (surface) {
    case ChatSurface::None:
    case ChatSurface::UserMessage: return Qt::transparent;
    case ChatSurface::Approval: return mixColors(base, palette.color(QPalette::Highlight), 0.6);
    default: return mixColors(base, palette.color(QPalette::Text), 0.16);
    }
}

void paintSurface(QPainter &painter, const QWidget *widget, ChatSurface surface, ChatOutline outline)
{
    const QPalette &palette = widget->palette();
    if (surface == ChatSurface::None && outline == ChatOutline::None)
        return;
    const qreal outlineWidth
        = std::max(2, widget->style()->pixelMetric(QStyle::PM_DefaultFrameWidth, nullptr, widget));
    const bool selected = outline == ChatOutline::Selected || outline == ChatOutline::SelectedAndEditing;
    const bool editing = outline == ChatOutline::Editing || outline == ChatOutline::SelectedAndEditing;
    const qreal penWidth = outline == ChatOutline::None ? 1.0 : outlineWidth;
    const qreal radius = widget->fontMetrics().height() * 0.4;
    const QRectF rect
        = QRectF(widget->rect()).adjusted(penWidth / 2, penWidth / 2, -penWidth / 2, -penWidth / 2);

    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    QPainterPath path;
    path.addRoundedRect(rect, radius, radius);
    painter.fillPath(path, surfaceFill(surface, palette));
    const QColor editColor = mixColors(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.7);
    const QColor border = selected  ? palette.color(QPalette::Highlight)
                          : editing ? editColor
                                    : surfaceBorder(surface, palette);
    if (border.alpha() > 0) {
        painter.setPen(QPen(border, penWidth, editing && !selected ? Qt::DashLine : Qt::SolidLine));
        painter.drawPath(path);
    }
    if (selected && editing) {
        // Selected too: the dashes inside the selection's line.
        QPainterPath inner;
        inner.addRoundedRect(rect.adjusted(penWidth, penWidth, -penWidth, -penWidth), radius, radius);
        painter.setPen(QPen(editColor, penWidth, Qt::DashLine));
        painter.drawPath(inner);
    }
    painter.restore();
}

int chatSpacing(const QWidget *widget, qreal lines)
{
    return std::max(1, int(std::lround(widget->fontMetrics().height() * lines)));
}

} // namespace Loopscope::Ui
