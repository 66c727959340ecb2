#pragma once

#include "ui/chat/chatitem.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
QT_END_NAMESPACE

namespace Loopscope::Ui {

/*!
    Why a turn did not end with an answer, said in the conversation where it
    happened instead of in a dialog: a provider error, a limit, a cancel, a
    safety block or a handoff; also a model call being retried (and how that
    ended) and a context window nearly full. Offers Retry where asking again
    can help.
*/
class NoticeCard final : public ChatItem
{
    Q_OBJECT

public:
    enum class Severity {
        Error,
        Limit,
        Cancelled,
        Blocked,
        Info,
        Retrying,
        Recovered,
        RetriesFailed,
        ContextFull,
        Compacted
    };
    Q_ENUM(Severity)

    // A retryable notice shows Retry while it belongs to the latest turn.
    NoticeCard(Severity severity, const QString &message, bool retryable, QWidget *parent = nullptr);

    Severity severity() const { return m_severity; }
    QString title() const;
    QString message() const { return m_message; }
    QString plainText() const override;
    // What the notice says changed, e.g. a retry that recovered.
    void setNotice(Severity severity, const QString &message);

    bool isRetryable() const { return m_retryable; }
    // Retry belongs to the latest turn only; older notices lose it.
    void setRetryAvailable(bool available);
    bool isRetryAvailable() const { return m_retryable && m_retryAvailable; }
    QPushButton *retryButton() const { return m_retry; }

    static QString titleFor(Severity severity);

signals:
    void retryRequested();

private:
    Severity m_severity;
    QString m_message;
    bool m_retryable;
    bool m_retryAvailable = false;
    QLabel *m_icon;
    QLabel *m_title;
    QLabel *m_text;
    QPushButton *m_retry;
};

} // namespace Loopscope::Ui
