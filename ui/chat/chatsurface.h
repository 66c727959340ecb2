#pragma once

#include <QColor>
#include <QRectF>

QT_BEGIN_NAMESPACE
class QPainter;
class QPalette;
class QWidget;
QT_END_NAMESPACE

namespace Loopscope::Ui {

/*!
    The chat's few surfaces, each a colour derived from the widget's palette at
    paint time, so that light and dark themes (and a theme switch while the
    app runs) look right without a colour written down anywhere.
*/
enum class ChatSurface {
    None, // the plain background
    UserMessage,
    Card, // a tool call
    Code,
    Notice,
    Approval,
};

QColor mixColors(const QColor &from, const QColor &to, qreal amount);
QColor surfaceFill(ChatSurface surface, const QPalette &palette);
QColor surfaceBorder(ChatSurface surface, const QPalette &palette);

// What an item's outline says: nothing, that it is selected (a solid line in the highlight colour),
// or that the composer edits it (a dashed line in the text's colour, so the two never look alike).
enum class ChatOutline { None, Selected, Editing, SelectedAndEditing };

// A rounded rectangle in the widget's rect, its radius from the font.
void paintSurface(QPainter &painter, const QWidget *widget, ChatSurface surface,
                  ChatOutline outline = ChatOutline::None);

// Spacing in font units, so 1x and 2x screens and large fonts look alike.
int chatSpacing(const QWidget *widget, qreal lines = 0.5);

} // namespace Loopscope::Ui
