#pragma once

#include "agent/session/mcpbridge.h"

#include <QList>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
QT_END_NAMESPACE

namespace Loopscope::Ui {

/*!
    An MCP server's request for a model call (sampling), inline in the chat
    like an approval and never modal: which server asks, the model it would
    prefer, its system prompt and messages (text ones editable), the tools it
    offers the model, the output limit, and the model it will run on (the
    session's unless the user types another). Run and Decline; it only reports
    the decision, the chat passes it to the session.
*/
class SamplingCard final : public QWidget
{
    Q_OBJECT

public:
    // \a sessionModel: what the request runs on unless changed here.
    SamplingCard(const McpSamplingRequest &request, const QString &sessionModel, QWidget *parent = nullptr);

    // The request as edited now, and the model chosen (empty: the session's).
    McpSamplingDecision decision(bool accepted) const;

    // The request is over (decided here or settled elsewhere): disabled, \a outcome says how it ended.
    void finish(const QString &outcome);
    bool isFinished() const { return m_closed; }

    QPlainTextEdit *systemPromptEdit() const { return m_systemPrompt; }
    // The edit of the request's \a index-th message; null when that message is not plain text.
    QPlainTextEdit *messageEdit(int index) const { return m_messages.value(index); }
    QSpinBox *maxTokensBox() const { return m_maxTokens; }
    QLineEdit *modelEdit() const { return m_model; }
    QPushButton *runButton() const { return m_run; }
    QPushButton *declineButton() const { return m_decline; }

signals:
    void decided(const Loopscope::McpSamplingDecision &decision);

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void decide(bool accepted);

    McpSamplingRequest m_request;
    QString m_sessionModel;
    bool m_closed = false;
    QPlainTextEdit *m_systemPrompt;
    QList<QPlainTextEdit *> m_messages; // one per message; null where the content is not only text
    QSpinBox *m_maxTokens;
    QLineEdit *m_model;
    QLabel *m_outcome;
    QPushButton *m_run;
    QPushButton *m_decline;
};

} // namespace Loopscope::Ui
