#pragma once

#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>
#include <QUrl>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
class QNetworkReply;
QT_END_NAMESPACE

namespace Loopscope {

/*!
    Looks for an Ollama server (GET {baseUrl}/api/tags) so a first run can
    offer it. Asynchronous and bounded by a short timeout; never blocks.
    One probe at a time: a new probe() drops the one in flight, silently.
*/
class OllamaProbe final : public QObject
{
    Q_OBJECT

public:
    explicit OllamaProbe(QNetworkAccessManager *network, QObject *parent = nullptr);
    ~OllamaProbe() override;

    void probe(const QUrl &baseUrl = QUrl(QStringLiteral("http://localhost:11434")), int timeoutMs = 1500);
    bool isProbing() const { return !m_reply.isNull(); }

signals:
    // models: the names the server has pulled; may be empty.
    void found(const QUrl &baseUrl, const QStringList &models);
    void notFound(const QString &reason);

private:
    void onFinished();
    void releaseReply();

    QNetworkAccessManager *m_network;
    QPointer<QNetworkReply> m_reply;
    QUrl m_baseUrl;
    QTimer m_timeout;
    bool m_timedOut = false;
};

} // namespace Loopscope
