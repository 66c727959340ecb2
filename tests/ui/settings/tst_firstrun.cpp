#include "agent/config/providerprofile.h"
#include "agent/providers/ollamaprobe.h"
#include "tests/support/fakehttpserver.h"
#include "ui/settings/firstrunpanel.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QLabel>
#include <QNetworkAccessManager>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

QJsonObject tags(const QStringList &names)
{
    QJsonArray models;
    for (const QString &name : names)
        models.append(QJsonObject{{u"name"_s, name}, {u"model"_s, name}, {u"size"_s, 4'700'000'000LL}});
    return {{u"models"_s, models}};
}

// How the fake server answers /api/tags in a "not found" case.
enum class Failure { NotFound404, ConnectionRefused, Silence, NotOllama };

} // namespace

Q_DECLARE_METATYPE(Failure)

class FirstRunTest : public QObject
{
    Q_OBJECT

private:
    // A server that plays Ollama with these models.
    static void serveModels(FakeHttpServer &server, const QStringList &names)
    {
        server.setHandler([names](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (request.method == "GET" && request.path == "/api/tags")
                exchange.respondJson(200, tags(names));
            else
                exchange.respondJson(404, {{u"error"_s, u"not found"_s}});
        });
    }

    // The base URL of a port where nothing listens any more.
    static QUrl closedPortUrl()
    {
        FakeHttpServer server;
        return server.listen() ? server.baseUrl() : QUrl();
    }

private slots:
    void theProbeFindsOllamaAndListsItsModels()
    {
        FakeHttpServer server;
        QVERIFY(server.listen());
        serveModels(server, {u"qwen2.5:7b"_s, u"llama3.2:latest"_s});
        QNetworkAccessManager network;
        OllamaProbe probe(&network);
        QSignalSpy found(&probe, &OllamaProbe::found);
        QSignalSpy notFound(&probe, &OllamaProbe::notFound);

        probe.probe(server.baseUrl());

        QTRY_COMPARE(found.size(), 1);
        QCOMPARE(found.at(0).at(0).toUrl(), server.baseUrl());
        QCOMPARE(found.at(0).at(1).toStringList(), (QStringList{u"qwen2.5:7b"_s, u"llama3.2:latest"_s}));
        QCOMPARE(notFound.size(), 0);
        QCOMPARE(server.requests().size(), 1);
        QCOMPARE(server.requests().constFirst().method, "GET"_ba);
        QCOMPARE(server.requests().constFirst().path, "/api/tags"_ba);
        QVERIFY(!probe.isProbing());
    }

    void aServerWithoutModelsIsStillFound()
    {
        FakeHttpServer server;
        QVERIFY(server.listen());
        serveModels(server, {});
        QNetworkAccessManager network;
        OllamaProbe probe(&network);
        QSignalSpy found(&probe, &OllamaProbe::found);

        probe.probe(server.baseUrl());

        QTRY_COMPARE(found.size(), 1);
        QCOMPARE(found.at(0).at(1).toStringList(), QStringList());
    }

    void theProbeReportsNotFound_data()
    {
        QTest::addColumn<Failure>("failure");
        QTest::addColumn<QString>("reasonMentions");
        QTest::newRow("another server answers 404") << Failure::NotFound404 << u"404"_s;
        QTest::newRow("nothing listens on the port") << Failure::ConnectionRefused << u"Nothing answered"_s;
        QTest::newRow("the server accepts but never answers")
            << Failure::Silence << u"did not answer within"_s;
        QTest::newRow("a 200 that is not Ollama's") << Failure::NotOllama << u"not like an Ollama server"_s;
    }

    void theProbeReportsNotFound()
    {
        QFETCH(Failure, failure);
        QFETCH(QString, reasonMentions);
        FakeHttpServer server;
        QVERIFY(server.listen());
        QUrl url = server.baseUrl();
        server.setHandler([failure](const HttpRequestRecord &, HttpExchange &exchange) {
            switch (failure) {
            case Failure::NotFound404: exchange.respond(404, {}, "404 page not found"_ba); break;
            case Failure::Silence: exchange.stall(); break;
            case Failure::NotOllama: exchange.respondJson(200, {{u"status"_s, u"ok"_s}}); break;
            case Failure::ConnectionRefused: break;
            }
        });
        if (failure == Failure::ConnectionRefused)
            url = closedPortUrl();
        QNetworkAccessManager network;
        OllamaProbe probe(&network);
        QSignalSpy found(&probe, &OllamaProbe::found);
        QSignalSpy notFound(&probe, &OllamaProbe::notFound);
        QElapsedTimer clock;
        clock.start();

        probe.probe(url, 400);

        QTRY_COMPARE(notFound.size(), 1);
        QVERIFY2(notFound.at(0).at(0).toString().contains(reasonMentions),
                 qPrintable(notFound.at(0).at(0).toString()));
        QVERIFY(notFound.at(0).at(0).toString().contains(url.toDisplayString()));
        QVERIFY(clock.elapsed() < 5000);
        QTest::qWait(100); // nothing more arrives, e.g. a late found() after the timeout
        QCOMPARE(found.size(), 0);
        QCOMPARE(notFound.size(), 1);
    }

    void aNewProbeDropsTheOneInFlight()
    {
        FakeHttpServer slow;
        QVERIFY(slow.listen());
        slow.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) { exchange.stall(); });
        FakeHttpServer fast;
        QVERIFY(fast.listen());
        serveModels(fast, {u"phi3"_s});
        QNetworkAccessManager network;
        OllamaProbe probe(&network);
        QSignalSpy found(&probe, &OllamaProbe::found);
        QSignalSpy notFound(&probe, &OllamaProbe::notFound);

        probe.probe(slow.baseUrl(), 300);
        QTRY_COMPARE(slow.requests().size(), 1);
        probe.probe(fast.baseUrl(), 300);

        QTRY_COMPARE(found.size(), 1);
        QCOMPARE(found.at(0).at(0).toUrl(), fast.baseUrl());
        QTest::qWait(500); // past the first probe's timeout
        QCOMPARE(notFound.size(), 0);
    }

    void thePanelOffersTheFoundModelAndSavesItAsTheDefaultProfile_data()
    {
        QTest::addColumn<QStringList>("models");
        QTest::addColumn<int>("chosen");
        QTest::addColumn<bool>("choiceShown");
        QTest::newRow("one model, offered directly") << QStringList{u"qwen2.5:7b"_s} << 0 << false;
        QTest::newRow("three models, the user picks the second")
            << QStringList{u"qwen2.5:7b"_s, u"llama3.2:latest"_s, u"mistral"_s} << 1 << true;
    }

    void thePanelOffersTheFoundModelAndSavesItAsTheDefaultProfile()
    {
        QFETCH(QStringList, models);
        QFETCH(int, chosen);
        QFETCH(bool, choiceShown);
        FakeHttpServer server;
        QVERIFY(server.listen());
        serveModels(server, models);
        QTemporaryDir dir;
        QSettings settings(dir.filePath(u"settings.ini"_s), QSettings::IniFormat);
        ProviderProfileStore store(&settings);
        QNetworkAccessManager network;
        OllamaProbe probe(&network);
        Ui::FirstRunPanel panel(&store, &probe);
        panel.show();
        QSignalSpy created(&panel, &Ui::FirstRunPanel::profileCreated);
        auto *use = panel.findChild<QPushButton *>(u"useOllamaButton"_s);
        auto *combo = panel.findChild<QComboBox *>(u"ollamaModelCombo"_s);
        QVERIFY(use && combo);
        QVERIFY(!use->isVisible());

        panel.lookForOllama(server.baseUrl());

        QTRY_VERIFY(use->isVisible());
        QCOMPARE(combo->isVisible(), choiceShown);
        QCOMPARE(use->text(), u"&Use Ollama with %1"_s.arg(models.constFirst()));
        combo->setCurrentIndex(chosen);
        QCOMPARE(use->text(), u"&Use Ollama with %1"_s.arg(models.at(chosen)));
        QCOMPARE(use->accessibleName(), u"Use Ollama with %1"_s.arg(models.at(chosen)));

        QTest::mouseClick(use, Qt::LeftButton);

        QCOMPARE(created.size(), 1);
        const QString id = created.at(0).at(0).toString();
        QCOMPARE(store.defaultProfileId(), id);
        const std::optional<ProviderProfile> profile = store.profile(id);
        QVERIFY(profile);
        QCOMPARE(profile->kind, ProviderKind::Ollama);
        QCOMPARE(profile->model, models.at(chosen));
        QCOMPARE(profile->effectiveBaseUrl(), server.baseUrl());
        QVERIFY(!use->isEnabled()); // a second click would make a second profile
    }

    void anExistingOllamaProfileIsNotOverwritten()
    {
        FakeHttpServer server;
        QVERIFY(server.listen());
        serveModels(server, {u"phi3"_s});
        QTemporaryDir dir;
        QSettings settings(dir.filePath(u"settings.ini"_s), QSettings::IniFormat);
        ProviderProfileStore store(&settings);
        ProviderProfile earlier{u"ollama"_s, u"Mine"_s, ProviderKind::Ollama, {}, u"llama3.2"_s, {}, {}};
        earlier.defaults.model = earlier.model;
        store.save(earlier);
        QNetworkAccessManager network;
        OllamaProbe probe(&network);
        Ui::FirstRunPanel panel(&store, &probe);
        QSignalSpy created(&panel, &Ui::FirstRunPanel::profileCreated);
        auto *use = panel.findChild<QPushButton *>(u"useOllamaButton"_s);

        panel.lookForOllama(server.baseUrl());
        QTRY_VERIFY(use->isEnabled() && !use->isHidden());
        use->click();

        QCOMPARE(created.size(), 1);
        QCOMPARE(created.at(0).at(0).toString(), u"ollama-2"_s);
        QCOMPARE(store.profile(u"ollama"_s), std::optional<ProviderProfile>(earlier));
        QCOMPARE(store.profiles().size(), 2);
    }

    void withoutOllamaThePanelExplainsAndOffersTheSettings_data()
    {
        QTest::addColumn<bool>("serverRunsWithoutModels");
        QTest::addColumn<QString>("explanationMentions");
        QTest::newRow("no server") << false << u"add a provider"_s;
        QTest::newRow("a server without models") << true << u"ollama pull"_s;
    }

    void withoutOllamaThePanelExplainsAndOffersTheSettings()
    {
        QFETCH(bool, serverRunsWithoutModels);
        QFETCH(QString, explanationMentions);
        FakeHttpServer server;
        QVERIFY(server.listen());
        serveModels(server, {});
        const QUrl url = serverRunsWithoutModels ? server.baseUrl() : closedPortUrl();
        QTemporaryDir dir;
        QSettings settings(dir.filePath(u"settings.ini"_s), QSettings::IniFormat);
        ProviderProfileStore store(&settings);
        QNetworkAccessManager network;
        OllamaProbe probe(&network);
        Ui::FirstRunPanel panel(&store, &probe);
        panel.show();
        QSignalSpy openSettings(&panel, &Ui::FirstRunPanel::openSettingsRequested);
        QSignalSpy created(&panel, &Ui::FirstRunPanel::profileCreated);
        auto *status = panel.findChild<QLabel *>(u"ollamaStatusLabel"_s);
        auto *lookAgain = panel.findChild<QPushButton *>(u"lookAgainButton"_s);
        auto *settingsButton = panel.findChild<QPushButton *>(u"openSettingsButton"_s);
        QVERIFY(status && lookAgain && settingsButton);

        panel.lookForOllama(url, 400);
        QVERIFY(!lookAgain->isEnabled()); // while looking

        QTRY_VERIFY(lookAgain->isEnabled());
        QVERIFY2(status->text().contains(explanationMentions), qPrintable(status->text()));
        QVERIFY(!panel.findChild<QPushButton *>(u"useOllamaButton"_s)->isVisible());
        QVERIFY(settingsButton->isVisible());
        QTest::mouseClick(settingsButton, Qt::LeftButton);
        QCOMPARE(openSettings.size(), 1);
        QCOMPARE(created.size(), 0);
        QVERIFY(store.profiles().isEmpty());
    }

    void thePanelOffersTheTwoExamplesWithoutAProvider_data()
    {
        QTest::addColumn<QString>("button");
        QTest::addColumn<QString>("label");
        QTest::addColumn<QString>("resourcePath");
        QTest::newRow("parallel tools") << u"parallelExampleButton"_s << u"two tools in parallel"_s
                                        << u":/examples/example-three-iterations.loopscope.json"_s;
        QTest::newRow("recovery") << u"recoveryExampleButton"_s << u"wrong tool calls and the recovery"_s
                                  << u":/examples/example-error-recovery.loopscope.json"_s;
    }

    void thePanelOffersTheTwoExamplesWithoutAProvider()
    {
        QFETCH(QString, button);
        QFETCH(QString, label);
        QFETCH(QString, resourcePath);
        QTemporaryDir dir;
        QSettings settings(dir.filePath(u"settings.ini"_s), QSettings::IniFormat);
        ProviderProfileStore store(&settings);
        QNetworkAccessManager network;
        OllamaProbe probe(&network);
        Ui::FirstRunPanel panel(&store, &probe);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSignalSpy openExample(&panel, &Ui::FirstRunPanel::openExampleRequested);

        auto *example = panel.findChild<QPushButton *>(button);
        QVERIFY(example);
        QVERIFY(example->isVisible());
        QVERIFY2(example->text().startsWith(u"Open an example: "_s), qPrintable(example->text()));
        QVERIFY2(example->text().contains(label), qPrintable(example->text()));
        QTest::mouseClick(example, Qt::LeftButton);
        QCOMPARE(openExample.size(), 1);
        QCOMPARE(openExample.constFirst().constFirst().toString(), resourcePath);
        QVERIFY(QFile::exists(resourcePath));
    }

    void lookingAgainFindsAServerThatStartedLater()
    {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(u"settings.ini"_s), QSettings::IniFormat);
        ProviderProfileStore store(&settings);
        QNetworkAccessManager network;
        OllamaProbe probe(&network);
        Ui::FirstRunPanel panel(&store, &probe);
        panel.show();
        FakeHttpServer server;
        QVERIFY(server.listen());
        auto *use = panel.findChild<QPushButton *>(u"useOllamaButton"_s);
        auto *lookAgain = panel.findChild<QPushButton *>(u"lookAgainButton"_s);

        panel.lookForOllama(server.baseUrl(), 400); // no handler: every request gets a 404
        QTRY_VERIFY(lookAgain->isEnabled());
        QVERIFY(!use->isVisible());

        serveModels(server, {u"gemma2"_s});
        QTest::mouseClick(lookAgain, Qt::LeftButton);
        QTRY_VERIFY(use->isVisible());
        QCOMPARE(use->text(), u"&Use Ollama with gemma2"_s);
    }
};

QTEST_MAIN(FirstRunTest)
#include "tst_firstrun.moc"
