#pragma once

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QVBoxLayout;
QT_END_NAMESPACE

namespace Loopscope::Ui {

/*!
    Where the user writes: a multi-line editor that grows with its text, Send
    (Ctrl+Enter, or Enter when "send on Enter" is on, Shift+Enter then making
    a new line) and, while a turn runs, Stop (or Esc) in its place.

    Editing the last question is a state of its own, shown by a banner over
    the editor with Cancel: Send then asks for a resend in the question's
    place (editResendRequested), and Cancel, Esc or emptying the editor leave
    it, so a question written afterwards is sent as a new one.
*/
class ChatComposer final : public QWidget
{
    Q_OBJECT

public:
    explicit ChatComposer(QWidget *parent = nullptr);

    QString text() const;
    // E.g. the last question, to edit and resend; the cursor goes to the end.
    void setText(const QString &text);

    // Puts the last question into the editor to be edited and resent in its place; the draft
    // written before comes back on Cancel.
    void beginEdit(const QString &question);
    // Leaves edit mode, the draft written before it back in the editor; nothing when not editing.
    void cancelEdit();
    bool isEditing() const { return m_editing; }
    QWidget *editBanner() const { return m_editBanner; }
    QPushButton *cancelEditButton() const { return m_cancelEdit; }

    // Inserts at the cursor (e.g. an MCP prompt or resource), on a line of its own when needed.
    void insertText(const QString &text);
    // A widget beside the editor, above Send (e.g. the MCP button); the composer takes it.
    void addAccessory(QWidget *widget);

    // Busy: a turn runs, Stop replaces Send and sending waits.
    void setBusy(bool busy);
    bool isBusy() const { return m_busy; }

    void setSendOnEnter(bool sendOnEnter);
    bool sendOnEnter() const { return m_sendOnEnter; }

    QPlainTextEdit *editor() const { return m_editor; }
    QPushButton *sendButton() const { return m_send; }
    QPushButton *stopButton() const { return m_stop; }

    // Emits sendRequested() (editResendRequested() in edit mode, which it leaves) with the text and
    // empties the editor; nothing while busy or with nothing but blanks written.
    void send();

signals:
    void sendRequested(const QString &text);
    void editResendRequested(const QString &text);
    void editingChanged(bool editing);
    void cancelRequested();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void setEditing(bool editing);
    void onTextChanged();
    void updatePlaceholder();
    void updateSendEnabled();
    void fitEditor();

    QPlainTextEdit *m_editor;
    QPushButton *m_send;
    QPushButton *m_stop;
    QVBoxLayout *m_buttons;
    QWidget *m_editBanner;
    QLabel *m_editLabel;
    QPushButton *m_cancelEdit;
    QString m_draftBeforeEdit;
    bool m_editing = false;
    bool m_busy = false;
    bool m_sendOnEnter = false;
};

} // namespace Loopscope::Ui
