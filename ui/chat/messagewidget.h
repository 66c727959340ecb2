#pragma once

#include "agent/conversation/attachment.h"
#include "agent/trace/tracenode.h"
#include "ui/chat/chatitem.h"

#include <QList>

QT_BEGIN_NAMESPACE
class QHBoxLayout;
class QLabel;
class QToolButton;
QT_END_NAMESPACE

namespace Loopscope::Ui {

class AttachmentChip;
class MarkdownView;
class SourcesLine;

/*!
    A message of the user (plain text on a tinted surface) or of the assistant
    (Markdown) with the sources it drew on under it, with Copy and, on the
    last ones, Edit or Regenerate. The files sent with a question show under
    it as chips that open them.
*/
class MessageWidget final : public ChatItem
{
    Q_OBJECT

public:
    enum class Role { User, Assistant };

    explicit MessageWidget(Role role, QWidget *parent = nullptr);

    Role role() const { return m_role; }
    void setText(const QString &text);
    QString text() const;
    void setAttachments(const QList<Attachment> &attachments);
    QList<Attachment> attachments() const { return m_attachments; }
    QList<AttachmentChip *> attachmentChips() const { return m_chips; }
    QString plainText() const override { return text(); }
    // An answer's sources, in a line under it; none hides the line.
    void setSources(const QList<RetrievalHit> &sources);
    // The agent that said an answer, in place of "Assistant"; empty: the session's own agent.
    void setAgent(const QString &agent);
    QString agent() const { return m_agent; }

    // Edit is offered on the user's last message, Regenerate on the last answer.
    void setLastActionAvailable(bool available);
    bool isLastActionAvailable() const { return m_lastActionAvailable; }

    MarkdownView *markdownView() const { return m_markdown; }
    SourcesLine *sourcesLine() const { return m_sources; }
    QToolButton *copyButton() const { return m_copy; }
    QToolButton *lastActionButton() const { return m_lastAction; }

    void copyToClipboard();

signals:
    void editRequested(const QString &text);
    void regenerateRequested();

private:
    Role m_role;
    QString m_agent;
    QLabel *m_author;
    MarkdownView *m_markdown;
    SourcesLine *m_sources;
    QWidget *m_chipRow;
    QHBoxLayout *m_chipLayout;
    QList<Attachment> m_attachments;
    QList<AttachmentChip *> m_chips;
    QToolButton *m_copy;
    QToolButton *m_lastAction;
    bool m_lastActionAvailable = false;
};

} // namespace Loopscope::Ui
