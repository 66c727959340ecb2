#pragma once

#include "agent/providers/providerkind.h"
#include "agent/providers/providerprotocol.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QUrl>

#include <optional>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
class QNetworkReply;
QT_END_NAMESPACE

namespace Loopscope {

/*!
    Asks a provider how much context a model holds, where the provider says so: Ollama's
    POST /api/show, Gemini's GET v1beta/models/{model}. Each endpoint and model is asked once for
    the object's life (a session, a run) and the answer, or the failure, is kept. A lookup is
    bounded by a short timeout so a turn waiting for it starts soon all the same; a failure only
    means falling back to the price table, so it goes to the debug log (loopscope.contextwindow),
    never to the user as an error.
*/
class ContextWindowLookup final : public QObject
{
    Q_OBJECT

public:
    static constexpr int DefaultTimeoutMs = 3'000;

    explicit ContextWindowLookup(QNetworkAccessManager *network, QObject *parent = nullptr);
    ~ContextWindowLookup() override;

    // Whether \a kind has a model-information endpoint to ask.
    static bool canAsk(ProviderKind kind);
    // Asks unless \a model on that endpoint was asked already; settled() follows a new lookup.
    void lookUp(ProviderKind kind, const ProviderEndpoint &endpoint, const QString &model);
    bool isPending(ProviderKind kind, const QUrl &baseUrl, const QString &model) const;
    // What the provider said; nullopt while it is asked, after a failure, or when never asked.
    std::optional<ModelContextInfo> answer(ProviderKind kind, const QUrl &baseUrl,
                                           const QString &model) const;
    // Bounds each lookup from now on: no answer within it counts as a failure.
    void setTimeoutMs(int timeoutMs) { m_timeoutMs = timeoutMs; }

signals:
    // A lookup ended, with an answer or without.
    void settled();

private:
    static QString keyOf(ProviderKind kind, const QUrl &baseUrl, const QString &model);
    void onFinished(const QString &key, ProviderKind kind, QNetworkReply *reply);

    QNetworkAccessManager *m_network;
    int m_timeoutMs = DefaultTimeoutMs;
    QHash<QString, std::optional<ModelContextInfo>> m_answers; // asked and ended; nullopt: it failed
    QHash<QString, QPointer<QNetworkReply>> m_pending;
};

/*!
    The window a request is fitted into, and the num_ctx Ollama is sent, from what is known:
    the \a override (the profile's field) wins; else what the \a provider said; else the price
    \a table. For Ollama, whose server reserves memory for the whole num_ctx, a model's trained
    length (often 128k and more) is capped at OllamaWindowCap; a Modelfile's own num_ctx is a
    choice someone made on that server and is kept, up to the trained length.
*/
struct ContextWindowChoice
{
    static constexpr qint64 OllamaWindowCap = 32'768;

    static std::optional<qint64> choose(ProviderKind kind, std::optional<qint64> override,
                                        const std::optional<ModelContextInfo> &provider,
                                        std::optional<qint64> table);
};

} // namespace Loopscope
