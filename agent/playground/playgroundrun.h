#pragma once

#include "agent/config/providerprofile.h"
#include "agent/trace/clock.h"
#include "agent/trace/tracenode.h"

#include <QObject>

#include <memory>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
QT_END_NAMESPACE

namespace Loopscope {

class ModelClient;
class SecretStore;
class Trace;

/*!
    Sends one model request to one provider profile, as the playground's
    "Send" does: the profile's key from the environment or the keychain (as
    ChatSession::useProfile() finds it), the same HttpModelClient and protocol
    the agent talks through, one request, no tools run, no loop. Whatever
    happens ends in finished() with a variant: the answer, or why there is
    none. After cancel() it emits nothing more. One run at a time.
*/
class PlaygroundRun final : public QObject
{
    Q_OBJECT

public:
    // secrets may be nullptr: keys then come from the environment only.
    PlaygroundRun(QNetworkAccessManager *network, SecretStore *secrets, QObject *parent = nullptr);
    ~PlaygroundRun() override;

    // An empty model in the request's options takes the profile's.
    void start(const ProviderProfile &profile, const ModelRequest &request);
    void cancel();
    bool isRunning() const { return m_running; }

    void setClock(std::shared_ptr<const Clock> clock) { m_clock = std::move(clock); }

signals:
    void textDelta(const QString &text);
    void finished(const Loopscope::ModelCallVariant &variant);

private:
    void send(const QString &key);
    void finish(ModelCallVariant variant);

    QNetworkAccessManager *m_network;
    SecretStore *m_secrets;
    std::shared_ptr<const Clock> m_clock;
    ProviderProfile m_profile;
    ModelCallVariant m_variant;
    std::unique_ptr<ModelClient> m_client;
    bool m_running = false;
    int m_generation = 0; // a key that arrives after cancel() belongs to a dead run
};

/*!
    Keeps a re-run under the model call it varies. False (nothing changed)
    when node is not a model call.
*/
bool addModelCallVariant(Trace &trace, int node, const ModelCallVariant &variant);

} // namespace Loopscope
