#pragma once

#include <QStatusBar>

QT_BEGIN_NAMESPACE
class QLabel;
class QPlainTextEdit;
QT_END_NAMESPACE

namespace Loopscope {
class ChatSession;
} // namespace Loopscope

namespace Loopscope::Ui {

/*!
    The main window's status bar: the session's provider and model, its tokens,
    cost, context gauge, iteration and loop state, kept current from the
    session's own signals. In a narrow window the fields fall back to their
    brief forms, the least telling first, with the full words in their tooltips;
    the provider's words are elided to what is left.
*/
class SessionStatusBar final : public QStatusBar
{
    Q_OBJECT

public:
    // \a draft is the question being typed: the context gauge counts it in.
    SessionStatusBar(ChatSession *session, QPlainTextEdit *draft, QWidget *parent = nullptr);

    // The fields' full words, joined with " | ": what a window wide enough for all of them shows.
    QString text() const;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    QLabel *addField(const QString &accessibleName);
    void setPaused(bool paused);
    void refresh();
    // Sets a field's words, and the short form it falls back to in a narrow window.
    static void setField(QLabel *label, const QString &full, const QString &brief);
    // Every field whole when they fit, else the brief forms, the least telling first.
    void fitFields();

    ChatSession *m_session;
    QPlainTextEdit *m_draft;
    QLabel *m_provider;
    QLabel *m_tokens;
    QLabel *m_cost;
    QLabel *m_context;
    QLabel *m_iteration;
    QLabel *m_state;
    bool m_paused = false;
};

} // namespace Loopscope::Ui
