#pragma once

#include "agent/loop/agentevent.h"
#include "agent/session/contextgauge.h"
#include "agent/trace/tracecost.h"

#include <QObject>

namespace Loopscope {

class Trace;

/*!
    The figures the status bar shows for a conversation: tokens and cost of
    the turn and the session, the context the next request builds on, the
    estimate of an answer still streaming, and the iteration running. Counted
    from the agent's events as they come, and recounted from the trace when it
    did not grow under our eyes (opened, cleared).
*/
class SessionUsage final : public QObject
{
    Q_OBJECT

public:
    explicit SessionUsage(const Trace *trace, QObject *parent = nullptr);

    // A turn begins: its counts start at nothing.
    void startTurn();
    void observe(const AgentEvent &event, int maxIterations);
    // The turn ended (answered, failed or cancelled).
    void finishTurn();
    // Everything again from the trace, without a turn or iteration.
    void recount();

    TokenUsage turnUsage() const { return m_turnUsage; }
    TokenUsage sessionUsage() const { return m_sessionUsage; }
    // Output tokens of the answer streaming now, ~4 characters a token until the provider reports
    // the real usage; 0 when nothing streams.
    qint64 streamingTokenEstimate() const { return (m_streamedChars + 3) / 4; }
    CostSum turnCost() const { return m_turnCost; }
    CostSum sessionCost() const { return m_sessionCost; }
    // The last request's tokens as the provider counted them, plus its answer: the history now.
    qint64 contextTokens() const { return m_contextTokens; }
    int iteration() const { return m_iteration; }
    // ≈ the next request's tokens when \a text is sent now with \a attachments.
    qint64 nextRequestEstimate(const QString &text, const QList<Attachment> &attachments = {}) const
    {
        return m_contextTokens + ContextGauge::estimateTokens(text, attachments);
    }

signals:
    void changed();
    void iterationChanged(int iteration, int maxIterations);

private:
    const Trace *m_trace;
    TokenUsage m_turnUsage;
    TokenUsage m_sessionUsage;
    CostSum m_turnCost;
    CostSum m_sessionCost;
    qint64 m_contextTokens = 0;
    qint64 m_streamedChars = 0; // of the model call streaming now
    int m_iteration = 0;
};

} // namespace Loopscope
