#include "ui/chat/chatitem.h"

#include <QChildEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPointer>
#include <QResizeEvent>
#include <QTimer>

namespace Loopscope::Ui {

ChatItem::ChatItem(Kind kind, QWidget *parent)
    : QWidget(parent)
    , m_kind(kind)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    // A streaming answer grows at the bottom many times a second: only what is
    // new needs painting (see resizeEvent()), not the whole visible message.
    setAttribute(Qt::WA_StaticContents);
    watch(this);
}

void ChatItem::setSelected(bool selected)
{
    if (m_selected == selected)
        return;
    m_selected = selected;
    update();
}

void ChatItem::setReplaced(bool replaced)
{
    if (m_replaced == replaced)
        return;
    m_replaced = replaced;
    QPalette dimmed;
    if (replaced) {
        dimmed = palette();
        for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text})
            dimmed.setColor(role, dimmed.color(QPalette::PlaceholderText));
    }
    setPalette(dimmed);
    setToolTip(replaced ? tr("Asked again: the model no longer sees this turn; the trace keeps it.")
                        : QString());
}

void ChatItem::setEditing(bool editing)
{
    if (m_editing == editing)
        return;
    m_editing = editing;
    update();
}

void ChatItem::setSurface(ChatSurface surface)
{
    m_surface = surface;
    update();
}

// Static contents repaint only the area a resize uncovers, but the surface's
// rounded bottom edge moves with the height, and a new width moves the right edge.
void ChatItem::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    const QSize old = event->oldSize();
    if (old.width() != width() || old.height() > height()) {
        update();
        return;
    }
    const int edge = fontMetrics().height() + 4;
    update(0, std::max(0, old.height() - edge), width(), edge);
}

void ChatItem::paintEvent(QPaintEvent *event)
{
    Q_UNUSED(event);
    QPainter painter(this);
    const ChatOutline outline = m_selected && m_editing ? ChatOutline::SelectedAndEditing
                                : m_selected            ? ChatOutline::Selected
                                : m_editing             ? ChatOutline::Editing
                                                        : ChatOutline::None;
    paintSurface(painter, this, m_surface, outline);
}

// Every descendant, present and future, reports its mouse presses here.
void ChatItem::watch(QObject *object)
{
    if (!object->isWidgetType())
        return; // e.g. a text document's frames, which get no clicks
    object->installEventFilter(this);
    for (QObject *child : object->children())
        watch(child);
}

bool ChatItem::eventFilter(QObject *watched, QEvent *event)
{
    switch (event->type()) {
    case QEvent::ChildAdded: {
        QObject *child = static_cast<QChildEvent *>(event)->child();
        if (!child->isWidgetType())
            break;
        watch(child);
        // Widgets may install filters of their own while they are built (a
        // scroll area on its viewport) that eat presses: once the child is
        // complete, installing again puts this filter first.
        QTimer::singleShot(0, this, [this, child = QPointer<QObject>(child)] {
            if (child)
                watch(child);
        });
        break;
    }
    case QEvent::FocusIn: {
        const Qt::FocusReason reason = static_cast<const QFocusEvent *>(event)->reason();
        if (reason == Qt::TabFocusReason || reason == Qt::BacktabFocusReason)
            emit tabbedInto(static_cast<QWidget *>(watched));
        break;
    }
    case QEvent::MouseButtonPress:
        // A press a child ignores travels on to its parents, within the same
        // delivery: count it once.
        if (static_cast<const QMouseEvent *>(event)->button() != Qt::LeftButton || m_pressReported)
            break;
        m_pressReported = true;
        QTimer::singleShot(0, this, [this] { m_pressReported = false; });
        emit activated();
        break;
    default: break;
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace Loopscope::Ui
