#pragma once

#include "agent/model/modelclient.h"
#include "agent/replay/recordedturn.h"

#include <QPointer>

#include <optional>

namespace Loopscope {

/*! Where a replay parted from its recording: the model call (from 1) and why, in words. */
struct Divergence
{
    int modelCall = 0;
    QString what;
    bool operator==(const Divergence &) const = default;
};

/*!
    A ModelClient that answers from a recording instead of a network. Each
    request takes the next recorded model call: if the request is the one the
    recording answered (RequestComparison), the recorded response streams
    back in a few chunks, asynchronously like a real client; a recorded
    failure fails the same way. A recorded call the user cancelled emits
    recordingEnded(): whoever runs the replay cancels the turn there too.

    The first request that differs, or one the recording has no call for, is
    a divergence: diverged() says where and why, and the policy decides what
    happens to that request and every later one. Wait holds it until
    goLive() or stop(); Stop fails it; GoLive sends it, and all that follow,
    to the live client, whose signals this client passes on.
*/
class ReplayModelClient final : public ModelClient
{
    Q_OBJECT

public:
    enum class OnDivergence { Wait, Stop, GoLive };
    Q_ENUM(OnDivergence)

    explicit ReplayModelClient(const RecordedTurn &turn, QObject *parent = nullptr);
    ~ReplayModelClient() override;

    void setOnDivergence(OnDivergence policy) { m_policy = policy; }
    OnDivergence onDivergence() const { return m_policy; }
    // The client for GoLive (not owned); goLive() may also name one.
    void setLiveClient(ModelClient *live);
    // The pause between streamed chunks; 0 still lets the event loop run between them.
    void setChunkDelayMs(int ms) { m_chunkDelayMs = std::max(0, ms); }

    std::optional<Divergence> divergence() const { return m_divergence; }
    // A divergent request is held, waiting for goLive() or stop().
    bool isWaiting() const { return m_mode == Mode::Waiting; }
    bool isLive() const { return m_mode == Mode::Live; }
    // Every request received, in order.
    const QList<ModelRequest> &requests() const { return m_requests; }

    // After a divergence: send the held request and every later one to \a live
    // (or the live client set before). False when nothing diverged or no live client is known.
    bool goLive(ModelClient *live = nullptr);
    // After a divergence: fail the held request, saying where the replay parted.
    bool stop();

    void send(const ModelRequest &request) override;
    void cancel() override;
    // "replay" while answering from the recording, the live client's name after goLive().
    QString providerName() const override;

signals:
    void diverged(int modelCall, const QString &what);
    // The recorded turn was cancelled by its user before model call \a modelCall answered.
    void recordingEnded(int modelCall);
    // The held request went to the live client, and every later one will.
    void wentLive();

private:
    enum class Mode { Replaying, Waiting, Live, Stopped };

    void answer(int number, const ModelRequest &request, quint64 serial);
    void diverge(int number, const QString &what);
    void play(const ModelResponse &response, const QStringList &chunks, int next, quint64 serial);
    void fail(const ModelError &error, quint64 serial);
    void connectLive();
    QString stopMessage() const;

    QList<RecordedModelCall> m_calls;
    bool m_stoppedAtEnd = false;
    OnDivergence m_policy = OnDivergence::Wait;
    QPointer<ModelClient> m_live;
    bool m_liveConnected = false;
    int m_chunkDelayMs = 0;

    Mode m_mode = Mode::Replaying;
    std::optional<Divergence> m_divergence;
    QList<ModelRequest> m_requests;
    ModelRequest m_held;
    bool m_busy = false;
    quint64 m_serial = 0;
};

} // namespace Loopscope
