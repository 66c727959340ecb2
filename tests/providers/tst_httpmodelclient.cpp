#include "agent/providers/retrypolicy.h"
#include "agent/wire/secretredactor.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>
#include <QTimeZone>

// Declared before the first QTest::addColumn<HttpHeaders>() uses it: a release
// build instantiates QMetaTypeId there and refuses a later specialisation.
Q_DECLARE_METATYPE(Loopscope::HttpHeaders)

using namespace Loopscope;
using namespace Qt::StringLiterals;

// The parts of HttpModelClient that decide without a network: when to retry
// and how long to wait, and what is blanked before anything is recorded.
// The client's behaviour over HTTP is covered by each adapter's test.
class HttpModelClientTest : public QObject
{
    Q_OBJECT

private slots:
    void retriesFollowTheSdkRules_data()
    {
        QTest::addColumn<int>("retriesDone");
        QTest::addColumn<int>("status");
        QTest::addColumn<HttpHeaders>("headers");
        QTest::addColumn<double>("random");
        QTest::addColumn<qint64>("expected"); // -1: no retry

        const HttpHeaders none;
        QTest::newRow("connection error, first retry, no jitter") << 0 << 0 << none << 0.0 << qint64(500);
        QTest::newRow("second retry doubles") << 1 << 503 << none << 0.0 << qint64(1000);
        QTest::newRow("full jitter takes a quarter off") << 1 << 503 << none << 0.999999 << qint64(750);
        QTest::newRow("no third retry by default") << 2 << 503 << none << 0.0 << qint64(-1);
        for (int status : {408, 409, 429, 500, 502, 503, 504, 529})
            QTest::addRow("status %d is retried", status) << 0 << status << none << 0.0 << qint64(500);
        for (int status : {400, 401, 403, 404, 422})
            QTest::addRow("status %d is not retried", status) << 0 << status << none << 0.0 << qint64(-1);
        QTest::newRow("x-should-retry: true retries a 400")
            << 0 << 400 << HttpHeaders{{"x-should-retry", "true"}} << 0.0 << qint64(500);
        QTest::newRow("x-should-retry: false stops a 503")
            << 0 << 503 << HttpHeaders{{"X-Should-Retry", "false"}} << 0.0 << qint64(-1);
        QTest::newRow("retry-after-ms wins")
            << 0 << 429 << HttpHeaders{{"retry-after-ms", "1234"}, {"retry-after", "9"}} << 0.0
            << qint64(1234);
        QTest::newRow("retry-after in seconds")
            << 0 << 429 << HttpHeaders{{"Retry-After", "2"}} << 0.0 << qint64(2000);
        QTest::newRow("retry-after as an HTTP date")
            << 0 << 503 << HttpHeaders{{"retry-after", "Sat, 21 Nov 2026 10:00:07 GMT"}} << 0.0
            << qint64(7000);
        QTest::newRow("retry-after over 60 s falls back to backoff")
            << 0 << 429 << HttpHeaders{{"retry-after", "3600"}} << 0.0 << qint64(500);
        QTest::newRow("a nonsense retry-after falls back to backoff")
            << 0 << 429 << HttpHeaders{{"retry-after", "soon"}} << 0.0 << qint64(500);
    }

    void retriesFollowTheSdkRules()
    {
        QFETCH(int, retriesDone);
        QFETCH(int, status);
        QFETCH(HttpHeaders, headers);
        QFETCH(double, random);
        QFETCH(qint64, expected);

        RetryPolicy policy(2);
        policy.setRandom([random] { return random; });
        policy.setNow([] { return QDateTime(QDate(2026, 11, 21), QTime(10, 0, 0), QTimeZone::utc()); });
        const std::optional<qint64> delay = policy.retryDelay(retriesDone, status, headers);

        QCOMPARE(delay.value_or(-1), expected);
    }

    void theBackoffIsCappedAtEightSeconds()
    {
        RetryPolicy policy(10);
        policy.setRandom([] { return 0.0; });
        QCOMPARE(policy.retryDelay(4, 0, {}).value_or(-1), 8000);
        QCOMPARE(policy.retryDelay(9, 0, {}).value_or(-1), 8000);
    }

    void credentialHeadersAreBlanked_data()
    {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<bool>("redacted");
        QTest::newRow("Authorization") << "Authorization"_ba << true;
        QTest::newRow("x-api-key, any case") << "X-Api-Key"_ba << true;
        QTest::newRow("x-goog-api-key") << "x-goog-api-key"_ba << true;
        QTest::newRow("anthropic-version stays") << "anthropic-version"_ba << false;
        QTest::newRow("Accept stays") << "Accept"_ba << false;
    }

    void credentialHeadersAreBlanked()
    {
        QFETCH(QByteArray, name);
        QFETCH(bool, redacted);
        const HttpHeaders result = SecretRedactor().headers({{name, "value-1234"}});
        QCOMPARE(result.constFirst().second == "[redacted]", redacted);
    }

    void keysInUrlsAndTextAreBlanked()
    {
        SecretRedactor redactor;
        redactor.addSecret(u"AIzaSy-secret-key-42"_s);
        redactor.addSecret(u"short"_s); // too short to be a key: blanking it would mangle text

        const QUrl url(
            u"https://generativelanguage.googleapis.com/v1beta/models/g:generateContent?key=AIzaSy-secret-key-42&alt=sse"_s);
        const QString redactedUrl = redactor.url(url).toString();
        QVERIFY(!redactedUrl.contains(u"AIzaSy"_s));
        QVERIFY(redactedUrl.contains(u"alt=sse"_s));
        QVERIFY(redactedUrl.contains(u"key=%5Bredacted%5D"_s) || redactedUrl.contains(u"key=[redacted]"_s));

        QCOMPARE(redactor.text(u"API key AIzaSy-secret-key-42 not valid, short story"_s),
                 u"API key [redacted] not valid, short story"_s);
        const QJsonValue json = redactor.json(
            QJsonObject{{u"error"_s, QJsonObject{{u"message"_s, u"bad key AIzaSy-secret-key-42"_s}}},
                        {u"list"_s, QJsonArray{u"AIzaSy-secret-key-42"_s, 7}}});
        QCOMPARE(json.toObject().value(u"error"_s).toObject().value(u"message"_s).toString(),
                 u"bad key [redacted]"_s);
        QCOMPARE(json.toObject().value(u"list"_s).toArray().at(0).toString(), u"[redacted]"_s);
        QCOMPARE(json.toObject().value(u"list"_s).toArray().at(1).toInt(), 7);
    }

    void aScanSuspectsEveryWayJsonCanSpellASecret_data()
    {
        QTest::addColumn<QString>("secret");
        QTest::addColumn<QList<QByteArray>>("reads");
        QTest::addColumn<bool>("suspected");
        const QString key = u"sk-scan-0123456789"_s;
        QTest::newRow("a body without the key")
            << key << QList<QByteArray>{"{\"content\":\"4 \\\"quoted\\\" \\/ words\"}"_ba} << false;
        QTest::newRow("the key verbatim")
            << key << QList<QByteArray>{"{\"content\":\"sk-scan-0123456789\"}"_ba} << true;
        QTest::newRow("the key split across reads")
            << key << QList<QByteArray>{"{\"content\":\"sk-sc"_ba, "an-01234"_ba, "56789\"}"_ba} << true;
        QTest::newRow("a unicode escape, which could spell it")
            << key << QList<QByteArray>{"{\"content\":\"\\u0073k-scan\"}"_ba} << true;
        QTest::newRow("a unicode escape split across reads")
            << key << QList<QByteArray>{"{\"content\":\"\\"_ba, "u0073k\"}"_ba} << true;
        QTest::newRow("a key with a slash, which JSON may escape")
            << u"sk-slash/0123456789"_s << QList<QByteArray>{"{\"content\":\"plain\"}"_ba} << true;
        QTest::newRow("no key at all")
            << QString() << QList<QByteArray>{"{\"content\":\"\\u0041\"}"_ba} << false;
    }

    void aScanSuspectsEveryWayJsonCanSpellASecret()
    {
        QFETCH(QString, secret);
        QFETCH(QList<QByteArray>, reads);
        QFETCH(bool, suspected);
        SecretRedactor redactor;
        redactor.addSecret(secret);
        SecretScan scan = redactor.scan();
        for (const QByteArray &read : reads)
            scan.feed(read);
        QCOMPARE(scan.mayHoldSecret(), suspected);
        scan.reset();
        QCOMPARE(scan.mayHoldSecret(), suspected && secret.contains(u'/'));
    }
};

QTEST_GUILESS_MAIN(HttpModelClientTest)
#include "tst_httpmodelclient.moc"
