#pragma once

#include "agent/conversation/attachment.h"

#include <QList>
#include <QStatusBar>
#include <QTimer>

QT_BEGIN_NAMESPACE
class QLabel;
class QPlainTextEdit;
QT_END_NAMESPACE

namespace Loopscope {
class ChatSession;
struct AgentEvent;
} // namespace Loopscope

namespace Loopscope::Ui {

/*!
    The main window's status bar: the session's provider and model, its tokens,
    cost, context gauge, iteration and loop state, kept current from the
    session's own signals. In a narrow window the fields fall back to their
    brief forms, the least telling first, with the full words in their tooltips;
    the provider's words are elided to what is left.

    A passing message (say()) takes the provider's place for a while: elided to
    the room there is, never cut mid-word, its whole text in its tooltip, and
    gone when its time is up.
*/
class SessionStatusBar final : public QStatusBar
{
    Q_OBJECT

public:
    // \a draft is the question being typed: the context gauge counts it in.
    SessionStatusBar(ChatSession *session, QPlainTextEdit *draft, QWidget *parent = nullptr);

    // The files waiting to go with the draft: the context gauge counts them in too.
    void setDraftAttachments(const QList<Attachment> &attachments);

    // The fields' full words, joined with " | ": what a window wide enough for all of them shows.
    QString text() const;

    static constexpr int MessageTimeoutMs = 12'000;
    // Shows \a message in place of the provider until \a timeoutMs have passed or another comes.
    void say(const QString &message, int timeoutMs = MessageTimeoutMs);
    QString message() const { return m_messageText; } // empty once it has expired
    QLabel *messageLabel() const { return m_message; }

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    QLabel *addField(const QString &accessibleName);
    void setPaused(bool paused);
    void refresh();
    // The provider field: what the next turn goes to, what the agent speaking now runs on during a
    // turn, and what answered the last one when that differs.
    QString providerWords() const;
    // The profile and model \a agent's requests go to, naming the agent when it has a profile of its own.
    QString providerWords(const QString &agent) const;
    void followSpeaker(const Loopscope::AgentEvent &event);
    void findSpeakerOfRestoredSession();
    // Sets a field's words, and the short form it falls back to in a narrow window.
    static void setField(QLabel *label, const QString &full, const QString &brief);
    // Every field whole when they fit, else the brief forms, the least telling first.
    void fitFields();
    void clearSaid();

    ChatSession *m_session;
    QPlainTextEdit *m_draft;
    QList<Attachment> m_draftAttachments;
    QLabel *m_provider;
    QLabel *m_tokens;
    QLabel *m_cost;
    QLabel *m_context;
    QLabel *m_iteration;
    QLabel *m_state;
    QLabel *m_message;
    QString m_messageText;
    QTimer m_messageTimer;
    bool m_paused = false;
    // The agent whose part of the turn runs now, or that answered the last one; empty before any
    // (or for the default agent).
    QString m_speaker;
};

} // namespace Loopscope::Ui
