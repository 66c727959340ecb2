#include "agent/replay/replaymodelclient.h"

#include "agent/replay/requestcomparison.h"

#include <QTimer>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// A few pieces cut after a space, so that a view animates the answer as it would a stream.
QStringList streamingChunks(const QString &text)
{
    constexpr int Pieces = 4;
    constexpr qsizetype ShortText = 48;
    if (text.isEmpty())
        return {};
    if (text.size() < ShortText)
        return {text};
    QStringList chunks;
    qsizetype start = 0;
    for (int piece = 1; piece < Pieces; ++piece) {
        const qsizetype space = text.indexOf(u' ', std::max(text.size() * piece / Pieces, start));
        if (space < 0 || space + 1 >= text.size())
            break;
        chunks.append(text.mid(start, space + 1 - start));
        start = space + 1;
    }
    chunks.append(text.mid(start));
    return chunks;
}

} // namespace

ReplayModelClient::ReplayModelClient(const RecordedTurn &turn, QObject *parent)
    : ModelClient(parent)
    , m_calls(turn.modelCalls)
    , m_stoppedAtEnd(turn.wasStopped())
{}

ReplayModelClient::~ReplayModelClient()
{
    if (m_busy && m_mode == Mode::Live && m_live)
        m_live->cancel();
}

void ReplayModelClient::setLiveClient(ModelClient *live)
{
    if (live == m_live || m_mode == Mode::Live)
        return;
    if (m_live)
        disconnect(m_live, nullptr, this, nullptr);
    m_live = live;
    m_liveConnected = false;
}

void ReplayModelClient::send(const ModelRequest &request)
{
    Q_ASSERT_X(!m_busy, "ReplayModelClient::send", "one request at a time");
    m_requests.append(request);
    m_busy = true;
    const quint64 serial = ++m_serial;
    const int number = int(m_requests.size());

    switch (m_mode) {
    case Mode::Live:
        if (m_live) {
            m_live->send(request);
        } else {
            fail({ModelError::Kind::Protocol, 0, tr("The live model client of the replay is gone.")}, serial);
        }
        return;
    case Mode::Stopped: fail({ModelError::Kind::Protocol, 0, stopMessage()}, serial); return;
    case Mode::Replaying:
    case Mode::Waiting: break;
    }
    // Asynchronous like every client: the agent is still inside its dispatch.
    QTimer::singleShot(0, this, [this, number, request, serial] { answer(number, request, serial); });
}

void ReplayModelClient::answer(int number, const ModelRequest &request, quint64 serial)
{
    if (serial != m_serial || !m_busy)
        return; // cancelled meanwhile
    const int index = number - 1;
    if (index >= m_calls.size()) {
        if (m_stoppedAtEnd) {
            emit recordingEnded(number);
            return;
        }
        diverge(number, tr("the recording has no model call %1: the recorded turn ended after %2 model calls")
                            .arg(number)
                            .arg(m_calls.size()));
        return;
    }
    const RecordedModelCall &recorded = m_calls.at(index);
    if (const auto what = RequestComparison::difference(recorded.request, request)) {
        diverge(number, *what);
        return;
    }
    if (recorded.cancelled) {
        emit recordingEnded(number);
        return;
    }
    if (!recorded.response) {
        ModelError error;
        error.kind = recorded.httpStatus > 0 ? ModelError::Kind::Http : ModelError::Kind::Network;
        error.httpStatus = recorded.httpStatus;
        error.message = recorded.error.isEmpty() ? tr("The recorded model call failed.") : recorded.error;
        m_busy = false;
        emit failed(error);
        return;
    }
    play(*recorded.response, streamingChunks(recorded.response->text), 0, serial);
}

void ReplayModelClient::play(const ModelResponse &response, const QStringList &chunks, int next,
                             quint64 serial)
{
    if (serial != m_serial || !m_busy)
        return;
    if (next < chunks.size()) {
        emit textDelta(chunks.at(next));
        QTimer::singleShot(m_chunkDelayMs, this, [this, response, chunks, next, serial] {
            play(response, chunks, next + 1, serial);
        });
        return;
    }
    for (int i = 0; i < response.toolCalls.size(); ++i) {
        const ToolCall &call = response.toolCalls.at(i);
        emit toolCallDelta({i, call.id, call.name, call.arguments});
    }
    if (serial != m_serial || !m_busy)
        return;
    m_busy = false;
    emit finished(response);
}

void ReplayModelClient::diverge(int number, const QString &what)
{
    m_divergence = Divergence{number, what};
    m_held = m_requests.at(number - 1);
    m_mode = Mode::Waiting;
    emit diverged(number, what);
    if (m_mode != Mode::Waiting)
        return; // decided by a slot already
    switch (m_policy) {
    case OnDivergence::Wait: return;
    case OnDivergence::Stop: stop(); return;
    case OnDivergence::GoLive:
        if (!goLive())
            stop();
        return;
    }
}

bool ReplayModelClient::goLive(ModelClient *live)
{
    if (live)
        setLiveClient(live);
    if (m_mode != Mode::Waiting || !m_busy || !m_live)
        return false;
    m_mode = Mode::Live;
    connectLive();
    m_live->send(m_held);
    emit wentLive();
    return true;
}

bool ReplayModelClient::stop()
{
    if (m_mode != Mode::Waiting)
        return false;
    m_mode = Mode::Stopped;
    fail({ModelError::Kind::Protocol, 0, stopMessage()}, m_serial);
    return true;
}

void ReplayModelClient::fail(const ModelError &error, quint64 serial)
{
    QTimer::singleShot(0, this, [this, error, serial] {
        if (serial != m_serial || !m_busy)
            return;
        m_busy = false;
        emit failed(error);
    });
}

void ReplayModelClient::connectLive()
{
    if (m_liveConnected || !m_live)
        return;
    m_liveConnected = true;
    // Only what answers the request this client passed on goes further.
    const auto forwarding = [this] {
        return m_mode == Mode::Live && m_busy;
    };
    connect(m_live, &ModelClient::textDelta, this, [this, forwarding](const QString &text) {
        if (forwarding())
            emit textDelta(text);
    });
    connect(m_live, &ModelClient::toolCallDelta, this, [this, forwarding](const ToolCallDelta &delta) {
        if (forwarding())
            emit toolCallDelta(delta);
    });
    connect(m_live, &ModelClient::attemptFinished, this, [this, forwarding](const ModelAttempt &attempt) {
        if (forwarding())
            emit attemptFinished(attempt);
    });
    connect(m_live, &ModelClient::finished, this, [this, forwarding](const ModelResponse &response) {
        if (!forwarding())
            return;
        m_busy = false;
        emit finished(response);
    });
    connect(m_live, &ModelClient::failed, this, [this, forwarding](const ModelError &error) {
        if (!forwarding())
            return;
        m_busy = false;
        emit failed(error);
    });
}

void ReplayModelClient::cancel()
{
    if (!m_busy)
        return;
    m_busy = false;
    ++m_serial;
    if (m_mode == Mode::Live && m_live)
        m_live->cancel();
    else if (m_mode == Mode::Waiting)
        m_mode = Mode::Stopped;
}

QString ReplayModelClient::providerName() const
{
    if (m_mode == Mode::Live && m_live)
        return m_live->providerName();
    return u"replay"_s;
}

QString ReplayModelClient::stopMessage() const
{
    return tr("The replay diverged from the recording at model call %1; stopped.")
        .arg(m_divergence ? m_divergence->modelCall : int(m_requests.size()));
}

} // namespace Loopscope
