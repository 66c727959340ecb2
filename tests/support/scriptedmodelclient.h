#pragma once

#include "agent/model/modelclient.h"

#include <QList>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <optional>

namespace Loopscope {

/*!
    A ModelClient that follows a script instead of a network: each request
    takes the next step, which streams its text in chunks, reports failed
    attempts, then answers or fails, always asynchronously like a real client.
    It records every request so tests can assert what the model was shown.
*/
class ScriptedModelClient final : public ModelClient
{
    Q_OBJECT

public:
    struct Step
    {
        ModelResponse response;
        std::optional<ModelError> error;
        QStringList chunks;          // streamed text; empty: the response text in one chunk
        QList<ModelAttempt> retries; // failed attempts reported before the answer
        int delayMs = 0;             // -1: never answer (until cancelled)
    };
    using Responder = std::function<Step(const ModelRequest &)>;

    using ModelClient::ModelClient;

    static Step text(const QString &text, TokenUsage usage = {10, 5});
    static Step calls(const QList<ToolCall> &calls, const QString &text = {}, TokenUsage usage = {10, 5});
    static Step failure(const QString &message, int httpStatus = 500);
    static Step hang();
    static ToolCall call(const QString &id, const QString &name, const QString &arguments);

    void enqueue(const Step &step) { m_script.append(step); }
    void enqueue(const QList<Step> &steps) { m_script += steps; }
    // Answers requests once the script is used up.
    void setResponder(Responder responder) { m_responder = std::move(responder); }

    const QList<ModelRequest> &requests() const { return m_requests; }
    int cancelCount() const { return m_cancelCount; }
    bool isBusy() const { return m_busy; }

    void send(const ModelRequest &request) override;
    void cancel() override;
    QString providerName() const override { return QStringLiteral("scripted"); }

private:
    void play(const Step &step, quint64 serial);

    QList<Step> m_script;
    Responder m_responder;
    QList<ModelRequest> m_requests;
    int m_cancelCount = 0;
    bool m_busy = false;
    quint64 m_serial = 0;
};

} // namespace Loopscope
