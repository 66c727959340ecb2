#include "tests/support/scriptedmodelclient.h"

using namespace Qt::StringLiterals;

namespace Loopscope {

ScriptedModelClient::Step ScriptedModelClient::text(const QString &text, TokenUsage usage)
{
    Step step;
    step.response.text = text;
    step.response.finishReason = FinishReason::Stop;
    step.response.usage = usage;
    return step;
}

ScriptedModelClient::Step ScriptedModelClient::calls(const QList<ToolCall> &calls, const QString &text,
                                                     TokenUsage usage)
{
    Step step;
    step.response.text = text;
    step.response.toolCalls = calls;
    step.response.finishReason = FinishReason::ToolCalls;
    step.response.usage = usage;
    return step;
}

ScriptedModelClient::Step ScriptedModelClient::failure(const QString &message, int httpStatus)
{
    Step step;
    step.error = ModelError{ModelError::Kind::Http, httpStatus, message};
    return step;
}

ScriptedModelClient::Step ScriptedModelClient::hang()
{
    Step step;
    step.delayMs = -1;
    return step;
}

ToolCall ScriptedModelClient::call(const QString &id, const QString &name, const QString &arguments)
{
    return {id, name, arguments, {}};
}

void ScriptedModelClient::send(const ModelRequest &request)
{
    Q_ASSERT_X(!m_busy, "ScriptedModelClient::send", "one request at a time");
    m_requests.append(request);
    m_busy = true;
    const quint64 serial = ++m_serial;

    Step step;
    if (!m_script.isEmpty())
        step = m_script.takeFirst();
    else if (m_responder)
        step = m_responder(request);
    else
        step = failure(u"the test script has no step left for request %1"_s.arg(m_requests.size()), 0);

    if (step.delayMs < 0)
        return;
    QTimer::singleShot(step.delayMs, this, [this, step, serial] { play(step, serial); });
}

void ScriptedModelClient::play(const Step &step, quint64 serial)
{
    if (serial != m_serial || !m_busy)
        return; // cancelled meanwhile
    for (const ModelAttempt &attempt : step.retries)
        emit attemptFinished(attempt);

    ModelResponse response = step.response;
    const QStringList chunks
        = step.chunks.isEmpty() && !response.text.isEmpty() ? QStringList{response.text} : step.chunks;
    for (const QString &chunk : chunks)
        emit textDelta(chunk);
    response.streamedChunks = int(chunks.size());

    m_busy = false;
    if (step.error)
        emit failed(*step.error);
    else
        emit finished(response);
}

void ScriptedModelClient::cancel()
{
    if (!m_busy)
        return;
    m_busy = false;
    ++m_serial;
    ++m_cancelCount;
}

} // namespace Loopscope
