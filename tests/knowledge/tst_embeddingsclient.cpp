#include "agent/knowledge/embeddingsclient.h"

#include "tests/support/fakeembeddings.h"
#include "tests/support/fakehttpserver.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QPointer>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <algorithm>

using namespace Loopscope;
using namespace Loopscope::Testing;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(Loopscope::ProviderKind)

namespace {

// A vector that says which text it belongs to: its length, its first character, 1.
QList<float> vectorOf(const QString &text)
{
    return {float(text.size()), text.isEmpty() ? 0.0f : float(text.front().unicode()), 1.0f};
}

RetryPolicy quickRetries(int maxRetries = 2)
{
    RetryPolicy policy(maxRetries);
    policy.setBaseDelayMs(1);
    policy.setRandom([] { return 0.0; });
    return policy;
}

} // namespace

/*
    The embeddings client against an embeddings server on 127.0.0.1, in each
    of the three wire formats: batches, the cap on requests in flight,
    retries, and vectors of the wrong size.
*/
class TestEmbeddingsClient final : public QObject
{
    Q_OBJECT

private:
    QNetworkAccessManager m_network;

    static QUrl baseUrl(const FakeHttpServer &server, ProviderKind kind)
    {
        return kind == ProviderKind::OpenAi ? QUrl(server.baseUrl().toString() + u"/v1"_s) : server.baseUrl();
    }

private slots:
    void eachWireFormatEmbedsInBatchesInTheOrderOfTheTexts_data()
    {
        QTest::addColumn<ProviderKind>("kind");
        QTest::addColumn<QByteArray>("path");
        QTest::addColumn<QByteArray>("keyHeader");
        QTest::addColumn<QByteArray>("keyValue");
        QTest::newRow("OpenAI-compatible /v1/embeddings") << ProviderKind::OpenAi << "/v1/embeddings"_ba
                                                          << "Authorization"_ba
                                                          << "Bearer k-123"_ba;
        QTest::newRow("Ollama /api/embed") << ProviderKind::Ollama << "/api/embed"_ba
                                           << "Authorization"_ba
                                           << "Bearer k-123"_ba;
        QTest::newRow("Gemini batchEmbedContents")
            << ProviderKind::Gemini << "/v1beta/models/text-embedding-004:batchEmbedContents"_ba
            << "x-goog-api-key"_ba
            << "k-123"_ba;
    }

    void eachWireFormatEmbedsInBatchesInTheOrderOfTheTexts()
    {
        QFETCH(ProviderKind, kind);
        QFETCH(QByteArray, path);
        QFETCH(QByteArray, keyHeader);
        QFETCH(QByteArray, keyValue);
        FakeHttpServer server;
        QVERIFY(server.listen());
        server.setHandler(embeddingsHandler(kind, vectorOf));
        const QString model = kind == ProviderKind::Gemini ? u"text-embedding-004"_s : u"nomic-embed-text"_s;
        EmbeddingsClient client(&m_network, {kind, baseUrl(server, kind), model, u"k-123"_s});
        client.setBatchSize(2);
        QSignalSpy finished(&client, &EmbeddingsClient::finished);
        QSignalSpy progress(&client, &EmbeddingsClient::progress);

        const QStringList texts{u"alpha"_s, u"be"_s, u"gamma ray"_s, u"δ"_s, u"epsilon"_s};
        QVERIFY(client.embed(texts));
        QVERIFY(!client.embed(texts)); // one run at a time
        QVERIFY(finished.wait(10'000));

        QList<Embedding> expected;
        for (const QString &text : texts)
            expected.append(vectorOf(text));
        QCOMPARE(finished.constFirst().at(0).value<QList<Embedding>>(), expected);
        QCOMPARE(client.dimensions(), 3);
        QCOMPARE(progress.constLast(), (QList<QVariant>{5, 5}));
        // Three requests of at most two passages, with the model and the key where the provider wants them.
        const QList<HttpRequestRecord> requests = server.requests();
        QCOMPARE(requests.size(), 3);
        QCOMPARE(client.requestCount(), 3);
        QStringList sent;
        for (const HttpRequestRecord &request : requests) {
            QCOMPARE(request.method, "POST"_ba);
            QCOMPARE(request.path, path);
            QCOMPARE(request.header(keyHeader), keyValue);
            const QStringList inputs = embeddingsInputs(kind, request.json());
            QVERIFY(inputs.size() <= 2);
            sent += inputs;
            if (kind == ProviderKind::Gemini)
                QCOMPARE(request.json()[u"requests"_s][0][u"model"_s].toString(), u"models/"_s + model);
            else
                QCOMPARE(request.json()[u"model"_s].toString(), model);
        }
        sent.sort();
        QStringList all = texts;
        all.sort();
        QCOMPARE(sent, all);
    }

    void noMoreRequestsThanTheCapAreInFlight()
    {
        FakeHttpServer server;
        QVERIFY(server.listen());
        int open = 0;
        int most = 0;
        server.setHandler([&](const HttpRequestRecord &request, HttpExchange &exchange) {
            most = std::max(most, ++open);
            QList<QList<float>> vectors;
            for (const QString &text : embeddingsInputs(ProviderKind::Ollama, request.json()))
                vectors.append(vectorOf(text));
            QTimer::singleShot(30, &exchange, [&open, &exchange, vectors] {
                --open;
                exchange.respondJson(200, embeddingsResponse(ProviderKind::Ollama, vectors));
            });
        });
        EmbeddingsClient client(&m_network, {ProviderKind::Ollama, server.baseUrl(), u"m"_s, {}});
        client.setBatchSize(1);
        client.setMaxInFlight(2);
        QSignalSpy finished(&client, &EmbeddingsClient::finished);
        QVERIFY(client.embed({u"a"_s, u"b"_s, u"c"_s, u"d"_s, u"e"_s, u"f"_s}));
        QVERIFY(finished.wait(10'000));
        QCOMPARE(server.requests().size(), 6);
        QCOMPARE(most, 2);
    }

    void aFailedRequestIsTriedAgainAfterABackoff()
    {
        FakeHttpServer server;
        QVERIFY(server.listen());
        const FakeHttpServer::Handler answer = embeddingsHandler(ProviderKind::OpenAi, vectorOf);
        server.setHandler([&answer](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (exchange.requestIndex() == 0)
                exchange.respondJson(503, {{u"error"_s, u"busy"_s}});
            else
                answer(request, exchange);
        });
        EmbeddingsClient client(&m_network,
                                {ProviderKind::OpenAi, baseUrl(server, ProviderKind::OpenAi), u"m"_s, {}});
        client.setRetryPolicy(quickRetries());
        QSignalSpy finished(&client, &EmbeddingsClient::finished);
        QSignalSpy failed(&client, &EmbeddingsClient::failed);
        QVERIFY(client.embed({u"one"_s, u"two"_s}));
        QVERIFY(finished.wait(10'000));
        QVERIFY(failed.isEmpty());
        QCOMPARE(client.requestCount(), 2);
        QCOMPARE(finished.constFirst().at(0).value<QList<Embedding>>(),
                 (QList<Embedding>{vectorOf(u"one"_s), vectorOf(u"two"_s)}));
    }

    void anEndpointThatKeepsFailingSaysSo()
    {
        FakeHttpServer server;
        QVERIFY(server.listen());
        server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respondJson(404, {{u"error"_s, u"model \"m\" not found"_s}});
        });
        EmbeddingsClient client(&m_network, {ProviderKind::Ollama, server.baseUrl(), u"m"_s, {}});
        client.setRetryPolicy(quickRetries());
        QSignalSpy failed(&client, &EmbeddingsClient::failed);
        QVERIFY(client.embed({u"one"_s}));
        QVERIFY(failed.wait(10'000));
        const QString message = failed.constFirst().at(0).toString();
        QVERIFY2(message.contains(u"HTTP 404"_s) && message.contains(u"not found"_s), qPrintable(message));
        QCOMPARE(client.requestCount(), 1); // a 404 is not tried again
        QVERIFY(!client.isBusy());
    }

    void vectorsOfTheWrongSizeAreAClearError_data()
    {
        QTest::addColumn<int>("dimensions");
        QTest::addColumn<QString>("said");
        QTest::newRow("the index holds other vectors")
            << 768 << u"a vector of 3 dimensions for passage 1, not 768"_s;
        QTest::newRow("one vector differs from the first")
            << 0 << u"a vector of 4 dimensions for passage 2, not 3"_s;
    }

    void vectorsOfTheWrongSizeAreAClearError()
    {
        QFETCH(int, dimensions);
        QFETCH(QString, said);
        FakeHttpServer server;
        QVERIFY(server.listen());
        server.setHandler(embeddingsHandler(ProviderKind::Gemini, [](const QString &text) {
            return text == u"long"_s ? QList<float>{1, 2, 3, 4} : QList<float>{1, 2, 3};
        }));
        EmbeddingsClient client(&m_network, {ProviderKind::Gemini, server.baseUrl(), u"m"_s, u"k"_s});
        client.setDimensions(dimensions);
        QSignalSpy failed(&client, &EmbeddingsClient::failed);
        QVERIFY(client.embed({u"short"_s, u"long"_s}));
        QVERIFY(failed.wait(10'000));
        const QString message = failed.constFirst().at(0).toString();
        QVERIFY2(message.contains(said), qPrintable(message));
    }

    void anthropicOffersNoEmbeddings()
    {
        EmbeddingsClient client(&m_network, {ProviderKind::Anthropic, {}, u"m"_s, u"k"_s});
        QSignalSpy failed(&client, &EmbeddingsClient::failed);
        QVERIFY(client.embed({u"one"_s}));
        QVERIFY(failed.isEmpty()); // never from inside embed()
        QVERIFY(failed.wait(5'000));
        QVERIFY(failed.constFirst().at(0).toString().contains(u"Anthropic offers no embeddings"_s));
        QCOMPARE(client.requestCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestEmbeddingsClient)
#include "tst_embeddingsclient.moc"
