#pragma once

#include "ui/chat/chatsurface.h"

#include <QWidget>

namespace Loopscope::Ui {

/*!
    One entry of the conversation: a message, a tool call or a notice. It
    remembers the trace node it stands for, so the chat and the trace can
    select each other, and reports a click anywhere inside it, even on child
    widgets that handle the click themselves (text views, buttons).
*/
class ChatItem : public QWidget
{
    Q_OBJECT

public:
    enum class Kind { UserMessage, AssistantMessage, ToolCall, Notice };
    Q_ENUM(Kind)

    explicit ChatItem(Kind kind, QWidget *parent = nullptr);

    Kind kind() const { return m_kind; }

    int traceNode() const { return m_traceNode; }
    void setTraceNode(int node) { m_traceNode = node; }

    // The turn this item belongs to: the chat drops a turn when it is asked again.
    int turn() const { return m_turn; }
    void setTurn(int turn) { m_turn = turn; }

    bool isSelected() const { return m_selected; }
    void setSelected(bool selected);
    // Of a turn asked again: dimmed, with a tooltip saying the model no longer sees it.
    bool isReplaced() const { return m_replaced; }
    void setReplaced(bool replaced);
    // The question the composer is editing: outlined, unlike a selection, with dashes, until the edit ends.
    bool isEditing() const { return m_editing; }
    void setEditing(bool editing);

    // What the item says, as plain text: for Copy and for tests.
    virtual QString plainText() const = 0;

signals:
    void activated();
    // Tab or Shift+Tab gave \a widget, inside the item, the focus.
    void tabbedInto(QWidget *widget);

protected:
    void setSurface(ChatSurface surface);
    ChatSurface surface() const { return m_surface; }

    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void watch(QObject *object);

    Kind m_kind;
    int m_traceNode = -1;
    int m_turn = -1;
    bool m_selected = false;
    bool m_editing = false;
    bool m_replaced = false;
    ChatSurface m_surface = ChatSurface::None;
    bool m_pressReported = false;
};

} // namespace Loopscope::Ui
