#include "ui/chat/chatcomposer.h"

#include "ui/chat/chatsurface.h"
#include "ui/chat/composerattachments.h"

#include <QAbstractTextDocumentLayout>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

constexpr int MinimumLines = 2;
constexpr int MaximumLines = 10;

// The editor: files and images pasted or dropped into it become attachments, text stays text.
class ComposerEditor final : public QPlainTextEdit
{
public:
    ComposerEditor(ComposerAttachments *attachments, QWidget *parent)
        : QPlainTextEdit(parent)
        , m_attachments(attachments)
    {}

protected:
    bool canInsertFromMimeData(const QMimeData *source) const override
    {
        return ComposerAttachments::canTake(source) || QPlainTextEdit::canInsertFromMimeData(source);
    }
    void insertFromMimeData(const QMimeData *source) override
    {
        if (!m_attachments->take(source))
            QPlainTextEdit::insertFromMimeData(source);
    }

private:
    ComposerAttachments *m_attachments;
};

} // namespace

ChatComposer::ChatComposer(QWidget *parent)
    : QWidget(parent)
    , m_attachments(new ComposerAttachments(this))
    , m_editor(new ComposerEditor(m_attachments, this))
    , m_attach(new QPushButton(tr("Attach…"), this))
    , m_send(new QPushButton(tr("Send"), this))
    , m_stop(new QPushButton(tr("Stop"), this))
    , m_sendAnyway(new QPushButton(tr("Send Anyway"), this))
    , m_editBanner(new QWidget(this))
    , m_editLabel(
          new QLabel(tr("Editing your last question: Send asks it again in its place."), m_editBanner))
    , m_cancelEdit(new QPushButton(tr("Cancel"), m_editBanner))
{
    m_editor->setAccessibleName(tr("Message"));
    m_editor->setTabChangesFocus(true);
    m_editor->installEventFilter(this);
    connect(m_editor, &QPlainTextEdit::textChanged, this, &ChatComposer::onTextChanged);
    connect(m_editor->document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged, this,
            &ChatComposer::fitEditor);

    m_send->setIcon(QIcon::fromTheme(u"document-send"_s));
    m_send->setAccessibleName(tr("Send the message"));
    connect(m_send, &QPushButton::clicked, this, &ChatComposer::send);

    m_stop->setIcon(QIcon::fromTheme(u"process-stop"_s));
    m_stop->setAccessibleName(tr("Stop the turn"));
    m_stop->setToolTip(tr("Stop the agent (Esc)"));
    m_stop->hide();
    connect(m_stop, &QPushButton::clicked, this, &ChatComposer::cancelRequested);

    m_sendAnyway->setAccessibleName(tr("Send the message with its attachments all the same"));
    m_sendAnyway->setToolTip(tr("Send the message as it is, though the model may refuse it"));
    m_sendAnyway->hide();
    connect(m_sendAnyway, &QPushButton::clicked, this, &ChatComposer::sendAnyway);
    // Other attachments are another message: the refusal was about these.
    connect(m_attachments, &ComposerAttachments::changed, m_sendAnyway, &QWidget::hide);

    m_attach->setIcon(QIcon::fromTheme(u"mail-attachment"_s));
    m_attach->setAccessibleName(tr("Attach files to the message"));
    m_attach->setToolTip(tr("Attach images or documents (or drop or paste them here)"));
    connect(m_attach, &QPushButton::clicked, this, &ChatComposer::chooseFiles);

    m_buttons = new QVBoxLayout;
    m_buttons->setContentsMargins(0, 0, 0, 0);
    m_buttons->addStretch(1);
    m_buttons->addWidget(m_attach);
    m_buttons->addWidget(m_send);
    m_buttons->addWidget(m_stop);

    m_editLabel->setWordWrap(true);
    m_cancelEdit->setAccessibleName(tr("Cancel editing the last question"));
    m_cancelEdit->setToolTip(tr("Leave the question as it was (Esc)"));
    connect(m_cancelEdit, &QPushButton::clicked, this, &ChatComposer::cancelEdit);
    m_editBanner->setAccessibleName(tr("Editing the last question"));
    m_editBanner->setBackgroundRole(QPalette::AlternateBase);
    m_editBanner->setAutoFillBackground(true);
    auto *banner = new QHBoxLayout(m_editBanner);
    banner->setContentsMargins(chatSpacing(this, 0.5), 0, 0, 0);
    banner->addWidget(m_editLabel, 1);
    banner->addWidget(m_cancelEdit);
    m_editBanner->hide();

    auto *row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(chatSpacing(this, 0.5));
    row->addWidget(m_editor, 1);
    row->addLayout(m_buttons);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(chatSpacing(this, 0.25));
    layout->addWidget(m_editBanner);
    layout->addWidget(m_attachments);
    layout->addWidget(m_sendAnyway, 0, Qt::AlignLeft);
    layout->addLayout(row);

    // Tab goes from the message to Send, as before Attach was there; Attach comes after them.
    setTabOrder(m_send, m_attach);

    updatePlaceholder();
    updateSendEnabled();
    fitEditor();
    setFocusProxy(m_editor);
}

QString ChatComposer::text() const
{
    return m_editor->toPlainText();
}

void ChatComposer::setText(const QString &text)
{
    m_editor->setPlainText(text);
    m_editor->moveCursor(QTextCursor::End);
    m_editor->setFocus();
}

void ChatComposer::beginEdit(const QString &question, const QList<Attachment> &attachments)
{
    if (question.trimmed().isEmpty())
        return;
    if (!m_editing) {
        m_draftBeforeEdit = text();
        m_draftAttachmentsBeforeEdit = m_attachments->items();
    }
    setEditing(true);
    setText(question);
    // The question's files as they went: read from the session, not from disk again.
    QList<ComposerAttachments::Item> items;
    for (const Attachment &attachment : attachments)
        items.append({attachment, QString()});
    m_attachments->setItems(items);
}

void ChatComposer::cancelEdit()
{
    if (!m_editing)
        return;
    const QString draft = m_draftBeforeEdit;
    const QList<ComposerAttachments::Item> draftAttachments = m_draftAttachmentsBeforeEdit;
    setEditing(false);
    setText(draft);
    m_attachments->setItems(draftAttachments);
}

void ChatComposer::setEditing(bool editing)
{
    if (m_editing == editing)
        return;
    m_editing = editing;
    m_editBanner->setVisible(editing);
    if (!editing) {
        m_draftBeforeEdit.clear();
        m_draftAttachmentsBeforeEdit.clear();
    }
    emit editingChanged(editing);
}

// An emptied editor has nothing left to put in the question's place: what is written next is new.
void ChatComposer::onTextChanged()
{
    if (m_editing && text().trimmed().isEmpty())
        setEditing(false);
    updateSendEnabled();
}

void ChatComposer::insertText(const QString &text)
{
    QTextCursor cursor = m_editor->textCursor();
    const bool lineStart = cursor.atBlockStart();
    cursor.insertText(lineStart || text.isEmpty() ? text : u'\n' + text);
    m_editor->setTextCursor(cursor);
    m_editor->setFocus();
}

void ChatComposer::addAccessory(QWidget *widget)
{
    widget->setParent(this);
    // As wide as Send: a column of buttons, not a word floating above one.
    widget->setSizePolicy(QSizePolicy::Preferred, widget->sizePolicy().verticalPolicy());
    m_buttons->insertWidget(1, widget); // after the stretch, above Attach and Send
}

void ChatComposer::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    const bool hadFocus = m_send->hasFocus() || m_stop->hasFocus();
    m_busy = busy;
    m_send->setVisible(!busy);
    m_stop->setVisible(busy);
    if (hadFocus) {
        QWidget *next = busy ? static_cast<QWidget *>(m_stop) : m_editor;
        next->setFocus();
    }
    updateSendEnabled();
}

void ChatComposer::setSendOnEnter(bool sendOnEnter)
{
    m_sendOnEnter = sendOnEnter;
    updatePlaceholder();
}

QList<Attachment> ChatComposer::attachments() const
{
    return m_attachments->attachments();
}

void ChatComposer::clearAttachments()
{
    m_attachments->clear();
}

void ChatComposer::showAttachmentProblem(const QString &text)
{
    m_attachments->showProblem(text);
}

void ChatComposer::takeDropsOn(QWidget *widget)
{
    widget->setAcceptDrops(true);
    widget->installEventFilter(this);
    m_dropTargets.append(widget);
}

void ChatComposer::chooseFiles()
{
    if (!m_fileDialog) {
        m_fileDialog = new QFileDialog(this, tr("Attach Files"));
        m_fileDialog->setFileMode(QFileDialog::ExistingFiles);
        m_fileDialog->setNameFilters({tr("Images and documents (*.png *.jpg *.jpeg *.webp *.gif *.pdf *.txt "
                                         "*.md *.json *.csv *.xml *.yaml *.yml *.html *.log *.py *.cpp *.h "
                                         "*.js *.ts *.rs *.go *.java *.sh)"),
                                      tr("All files (*)")});
        connect(m_fileDialog, &QFileDialog::filesSelected, m_attachments, &ComposerAttachments::addFiles);
    }
    m_fileDialog->open();
}

void ChatComposer::setAttachmentCheck(AttachmentCheck check)
{
    m_attachmentCheck = std::move(check);
}

void ChatComposer::send()
{
    submit(true);
}

void ChatComposer::sendAnyway()
{
    submit(false);
}

void ChatComposer::submit(bool checkAttachments)
{
    const QString message = text().trimmed();
    if (m_busy || message.isEmpty())
        return;
    m_sendAnyway->hide();
    // Nothing half-sent: a file still being read or gone since it was chosen keeps the whole message here.
    if (!m_attachments->check().isEmpty())
        return;
    if (checkAttachments && m_attachmentCheck) {
        if (const QString refusal = m_attachmentCheck(m_attachments->attachments()); !refusal.isEmpty()) {
            m_attachments->showProblem(refusal);
            m_sendAnyway->show();
            return;
        }
    }
    const bool edited = m_editing;
    setEditing(false);
    m_editor->clear();
    if (edited)
        emit editResendRequested(message, !checkAttachments);
    else
        emit sendRequested(message, !checkAttachments);
}

bool ChatComposer::eventFilter(QObject *watched, QEvent *event)
{
    const bool dropTarget
        = std::any_of(m_dropTargets.cbegin(), m_dropTargets.cend(),
                      [watched](const QPointer<QWidget> &target) { return target.data() == watched; });
    if (dropTarget) {
        switch (event->type()) {
        case QEvent::DragEnter:
        case QEvent::DragMove: {
            auto *drag = static_cast<QDragMoveEvent *>(event);
            if (!ComposerAttachments::canTake(drag->mimeData()))
                break;
            drag->acceptProposedAction();
            return true;
        }
        case QEvent::Drop: {
            auto *drop = static_cast<QDropEvent *>(event);
            if (!m_attachments->take(drop->mimeData()))
                break;
            drop->acceptProposedAction();
            return true;
        }
        default: break;
        }
        return QWidget::eventFilter(watched, event);
    }
    if (watched != m_editor || event->type() != QEvent::KeyPress)
        return QWidget::eventFilter(watched, event);

    const auto *key = static_cast<QKeyEvent *>(event);
    const Qt::KeyboardModifiers modifiers = key->modifiers() & ~Qt::KeypadModifier;
    switch (key->key()) {
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (modifiers == Qt::ControlModifier || (m_sendOnEnter && modifiers == Qt::NoModifier)) {
            send();
            return true;
        }
        if (modifiers == Qt::ShiftModifier) {
            // A paragraph break, not the soft line break QPlainTextEdit makes of Shift+Enter.
            m_editor->textCursor().insertText(u"\n"_s);
            return true;
        }
        break;
    case Qt::Key_Escape:
        if (m_busy) {
            emit cancelRequested();
            return true;
        }
        if (m_editing) {
            cancelEdit();
            return true;
        }
        break;
    default: break;
    }
    return QWidget::eventFilter(watched, event);
}

void ChatComposer::updatePlaceholder()
{
    const QString hint = m_sendOnEnter ? tr("Message the agent (Enter to send, Shift+Enter for a new line)")
                                       : tr("Message the agent (Ctrl+Enter to send)");
    m_editor->setPlaceholderText(hint);
    m_send->setToolTip(m_sendOnEnter ? tr("Send (Enter)") : tr("Send (Ctrl+Enter)"));
}

void ChatComposer::updateSendEnabled()
{
    m_send->setEnabled(!m_busy && !text().trimmed().isEmpty());
    m_sendAnyway->setEnabled(m_send->isEnabled());
}

// From two lines up to ten as the text grows; then it scrolls.
void ChatComposer::fitEditor()
{
    const int lines = std::clamp(int(m_editor->document()->lineCount()), MinimumLines, MaximumLines);
    const QMargins margins = m_editor->contentsMargins();
    const int height = lines * m_editor->fontMetrics().lineSpacing()
                       + int(2 * m_editor->document()->documentMargin()) + margins.top() + margins.bottom();
    if (height != m_editor->height())
        m_editor->setFixedHeight(height);
}

} // namespace Loopscope::Ui
