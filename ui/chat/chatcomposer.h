#pragma once

#include <QWidget>

QT_BEGIN_NAMESPACE
class QPlainTextEdit;
class QPushButton;
class QVBoxLayout;
QT_END_NAMESPACE

namespace Loopscope::Ui {

/*!
    Where the user writes: a multi-line editor that grows with its text, Send
    (Ctrl+Enter, or Enter when "send on Enter" is on, Shift+Enter then making
    a new line) and, while a turn runs, Stop (or Esc) in its place.
*/
class ChatComposer final : public QWidget
{
    Q_OBJECT

public:
    explicit ChatComposer(QWidget *parent = nullptr);

    QString text() const;
    // E.g. the last question, to edit and resend; the cursor goes to the end.
    void setText(const QString &text);

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

    // Emits sendRequested() with the text and empties the editor; nothing
    // while busy or with nothing but blanks written.
    void send();

signals:
    void sendRequested(const QString &text);
    void cancelRequested();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void updatePlaceholder();
    void updateSendEnabled();
    void fitEditor();

    QPlainTextEdit *m_editor;
    QPushButton *m_send;
    QPushButton *m_stop;
    QVBoxLayout *m_buttons;
    bool m_busy = false;
    bool m_sendOnEnter = false;
};

} // namespace Loopscope::Ui
