#pragma once

#include "agent/conversation/attachment.h"
#include "ui/chat/composerattachments.h"

#include <QList>
#include <QPointer>
#include <QWidget>

#include <functional>

QT_BEGIN_NAMESPACE
class QFileDialog;
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

    Files go with the question as attachments (ComposerAttachments, shown as
    chips over the editor): from Attach (a file dialog), dropped on the editor
    or on a widget given to takeDropsOn() (the chat), or pasted. Send waits
    while one is being read and refuses, saying why and keeping the text, when
    a chosen file has gone from disk since. An attachment check (e.g. the
    model reads no images) refuses the same way, offering Send anyway.
*/
class ChatComposer final : public QWidget
{
    Q_OBJECT

public:
    explicit ChatComposer(QWidget *parent = nullptr);

    QString text() const;
    // E.g. the last question, to edit and resend; the cursor goes to the end.
    void setText(const QString &text);

    // Puts the last question and its attachments into the composer to be edited and resent in its
    // place; the draft written before (its attachments too) comes back on Cancel.
    void beginEdit(const QString &question, const QList<Attachment> &attachments = {});
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
    QPushButton *attachButton() const { return m_attach; }
    ComposerAttachments *attachmentList() const { return m_attachments; }
    // What goes with the question sent next.
    QList<Attachment> attachments() const;
    // Once they went with a question.
    void clearAttachments();
    // Says, under the chips, why the message was not sent (e.g. the model reads no images).
    void showAttachmentProblem(const QString &text);
    // Files dropped on \a widget (e.g. the chat) are attached as if dropped on the editor.
    void takeDropsOn(QWidget *widget);
    // Opens the file dialog (not modal to the event loop: the files arrive from its signal).
    void chooseFiles();
    QFileDialog *fileDialog() const { return m_fileDialog; }
    QPushButton *stopButton() const { return m_stop; }

    // Why \a attachments cannot go with the message (e.g. the model is known to read no images); empty
    // when they can.
    using AttachmentCheck = std::function<QString(const QList<Attachment> &attachments)>;
    // Asked on each send(): a refusal shows under the chips with Send anyway, and the message stays.
    void setAttachmentCheck(AttachmentCheck check);
    // Shown with a refusal of the attachment check; sends past it.
    QPushButton *sendAnywayButton() const { return m_sendAnyway; }

    // Emits sendRequested() (editResendRequested() in edit mode, which it leaves) with the text and
    // empties the editor; nothing while busy or with nothing but blanks written, nor while an
    // attachment is being read or has gone from disk, nor when the attachment check refuses (the
    // reason shows, the text stays).
    void send();
    // send() past the attachment check, as the user chose with Send anyway.
    void sendAnyway();

signals:
    // \a pastAttachmentCheck: the user chose to send past the attachment check's refusal.
    void sendRequested(const QString &text, bool pastAttachmentCheck);
    void editResendRequested(const QString &text, bool pastAttachmentCheck);
    void editingChanged(bool editing);
    void cancelRequested();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void submit(bool checkAttachments);
    void setEditing(bool editing);
    void onTextChanged();
    void updatePlaceholder();
    void updateSendEnabled();
    void fitEditor();

    ComposerAttachments *m_attachments;
    QPlainTextEdit *m_editor;
    QPushButton *m_attach;
    QFileDialog *m_fileDialog = nullptr; // made on first use, a child
    QList<QPointer<QWidget>> m_dropTargets;
    QPushButton *m_send;
    QPushButton *m_stop;
    QPushButton *m_sendAnyway;
    AttachmentCheck m_attachmentCheck;
    QVBoxLayout *m_buttons;
    QWidget *m_editBanner;
    QLabel *m_editLabel;
    QPushButton *m_cancelEdit;
    QString m_draftBeforeEdit;
    QList<ComposerAttachments::Item> m_draftAttachmentsBeforeEdit;
    bool m_editing = false;
    bool m_busy = false;
    bool m_sendOnEnter = false;
};

} // namespace Loopscope::Ui
