// The playground window, offscreen: it opens on a recorded model call with
// its request, sends the edited request to a fake OpenAI-compatible server
// on 127.0.0.1, and lists the answer as a re-run kept under the call.

#include "agent/playground/playgroundrequest.h"
#include "agent/playground/playgroundrun.h"
#include "agent/session/chatsession.h"
#include "agent/trace/trace.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/openaicompletion.h"
#include "translations/translations.h"
#include "ui/playground/playgroundwindow.h"

#include <QComboBox>
#include <QJsonArray>
#include <QJsonObject>
#include <QLineEdit>
#include <QListWidget>
#include <QNetworkAccessManager>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace Loopscope;
using namespace Loopscope::Ui;
using namespace Qt::StringLiterals;

namespace {

const QString keyVariable = u"LOOPSCOPE_PLAYGROUND_WINDOW_KEY"_s;

} // namespace

class PlaygroundWindowTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        qputenv(keyVariable.toLatin1().constData(), "sk-window-0123456789");
        // As the app does: the English plural forms.
        Translations::install();
    }

    void init()
    {
        m_server = std::make_unique<FakeHttpServer>();
        QVERIFY(m_server->listen());
        m_server->setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            exchange.respondJson(200,
                                 openAiCompletion(u"Answer from "_s + request.json()[u"model"_s].toString(),
                                                  request.json()[u"model"_s].toString()));
        });
        m_network = std::make_unique<QNetworkAccessManager>();
        m_session = std::make_unique<ChatSession>(m_network.get());
        AgentConfig config;
        config.model.stream = false;
        SessionSetup setup = m_session->setup();
        setup.loop = config;
        m_session->apply(setup);
        m_session->apply(m_session->setup().withProvider(profile(), u"sk-window-0123456789"_s));
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"What is two and two?"_s));
        QTRY_COMPARE(finished.size(), 1);
        for (int node = 0; node < m_session->trace()->size(); ++node) {
            if (m_session->trace()->node(node).kind == TraceKind::ModelCall)
                m_call = node;
        }
        QVERIFY(m_call >= 0);
    }

    void cleanup()
    {
        m_session.reset();
        m_network.reset();
        m_server.reset();
        m_call = -1;
    }

    void opensOnTheCallWithItsMessagesAndSendsTheEdit()
    {
        PlaygroundWindow window(m_session.get(), m_call, {profile()},
                                new PlaygroundRun(m_network.get(), nullptr));
        window.setAttribute(Qt::WA_DeleteOnClose, false);
        window.show();
        auto *request = window.findChild<QPlainTextEdit *>(u"requestEdit"_s);
        auto *model = window.findChild<QLineEdit *>(u"modelEdit"_s);
        auto *variants = window.findChild<QListWidget *>(u"variantList"_s);
        QVERIFY(request && model && variants);
        QString error;
        const auto shown = PlaygroundRequest::fromText(request->toPlainText(), &error);
        QVERIFY2(shown, qPrintable(error));
        QCOMPARE(*shown, m_session->trace()->node(m_call).data<ModelCallData>().request);
        QVERIFY(request->toPlainText().contains(u"What is two and two?"_s));
        QCOMPARE(model->text(), u"test-model"_s);
        QCOMPARE(variants->count(), 0);

        model->setText(u"bigger-model"_s);
        QSignalSpy added(&window, &PlaygroundWindow::variantAdded);
        window.findChild<QPushButton *>(u"sendButton"_s)->click();
        QTRY_COMPARE(added.size(), 1);
        QCOMPARE(m_server->requests().constLast().json()[u"model"_s].toString(), u"bigger-model"_s);
        QCOMPARE(variants->count(), 1);
        QVERIFY(window.findChild<QPlainTextEdit *>(u"variantResponse"_s)
                    ->toPlainText()
                    .contains(u"Answer from bigger-model"_s));
        QCOMPARE(m_session->trace()->node(m_call).data<ModelCallData>().variants.size(), 1);

        QSignalSpy forks(&window, &PlaygroundWindow::forkRequested);
        window.findChild<QPushButton *>(u"forkButton"_s)->click();
        QCOMPARE(forks.size(), 1);
        QCOMPARE(forks.first().first().value<Transcript>().messages.constLast().text,
                 u"Answer from bigger-model"_s);
    }

    // Several profiles speak the same protocol: the playground starts on the one the call went to,
    // not on the first of its kind.
    void opensOnTheProfileTheCallWentTo_data()
    {
        QTest::addColumn<QString>("agentsProfile");
        QTest::newRow("the session's") << QString();
        QTest::newRow("the agent's own") << u"Billing profile"_s;
    }

    void opensOnTheProfileTheCallWentTo()
    {
        QFETCH(QString, agentsProfile);
        const ProviderProfile first
            = openAiTestProfile(m_server->baseUrl(), u"A first profile"_s, keyVariable);
        const ProviderProfile billing
            = openAiTestProfile(m_server->baseUrl(), u"Billing profile"_s, keyVariable);
        if (!agentsProfile.isEmpty()) {
            AgentPreset agent;
            agent.name = u"billing"_s;
            agent.instructions = u"You answer invoices."_s;
            agent.provider = agentsProfile;
            SessionSetup setup = m_session->setup();
            setup.agents.agents = {agent};
            setup.agent = agent.name;
            setup.agentProviders.insert(agentsProfile, {billing, u"sk-window-0123456789"_s, {}, 600'000});
            m_session->apply(setup);
            QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
            QVERIFY(m_session->send(u"Was invoice 7 paid?"_s));
            QTRY_COMPARE(finished.size(), 1);
            m_call = m_session->trace()->size() - 1;
            while (m_session->trace()->node(m_call).kind != TraceKind::ModelCall)
                --m_call;
        }

        PlaygroundWindow window(m_session.get(), m_call, {first, profile(), billing},
                                new PlaygroundRun(m_network.get(), nullptr));
        window.setAttribute(Qt::WA_DeleteOnClose, false);

        QCOMPARE(window.findChild<QComboBox *>(u"profileBox"_s)->currentText(),
                 agentsProfile.isEmpty() ? profile().name : agentsProfile);
    }

    void aMalformedEditIsRefusedAndKept()
    {
        PlaygroundWindow window(m_session.get(), m_call, {profile()},
                                new PlaygroundRun(m_network.get(), nullptr));
        window.setAttribute(Qt::WA_DeleteOnClose, false);
        auto *request = window.findChild<QPlainTextEdit *>(u"requestEdit"_s);
        request->setPlainText(u"{\"messages\": ["_s);
        const int sent = int(m_server->requests().size());
        window.send();
        QVERIFY2(window.statusText().contains(u"not valid JSON"_s), qPrintable(window.statusText()));
        QCOMPARE(request->toPlainText(), u"{\"messages\": ["_s);
        QCOMPARE(int(m_server->requests().size()), sent);
    }

    void aModelEditedInTheJsonIsTheOneSentWhenTheFieldIsLeftAlone()
    {
        PlaygroundWindow window(m_session.get(), m_call, {profile()},
                                new PlaygroundRun(m_network.get(), nullptr));
        window.setAttribute(Qt::WA_DeleteOnClose, false);
        auto *request = window.findChild<QPlainTextEdit *>(u"requestEdit"_s);
        auto *model = window.findChild<QLineEdit *>(u"modelEdit"_s);
        QCOMPARE(model->text(), u"test-model"_s);
        QVERIFY(request->toPlainText().contains(u"\"test-model\""_s));
        request->setPlainText(request->toPlainText().replace(u"\"test-model\""_s, u"\"json-model\""_s));
        QSignalSpy added(&window, &PlaygroundWindow::variantAdded);
        window.send();
        QTRY_COMPARE(added.size(), 1);
        QCOMPARE(m_server->requests().constLast().json()[u"model"_s].toString(), u"json-model"_s);
        // The field shows what was sent, and typing there wins the next time.
        QCOMPARE(model->text(), u"json-model"_s);
        model->setText(u"field-model"_s);
        window.send();
        QTRY_COMPARE(added.size(), 2);
        QCOMPARE(m_server->requests().constLast().json()[u"model"_s].toString(), u"field-model"_s);
    }

    void theReRunsCountTheirTokensInWords()
    {
        PlaygroundWindow window(m_session.get(), m_call, {profile()},
                                new PlaygroundRun(m_network.get(), nullptr));
        window.setAttribute(Qt::WA_DeleteOnClose, false);
        QSignalSpy added(&window, &PlaygroundWindow::variantAdded);
        window.send();
        QTRY_COMPARE(added.size(), 1);
        const QString item = window.findChild<QListWidget *>(u"variantList"_s)->item(0)->text();
        QVERIFY2(item.endsWith(u" 15 tokens"_s), qPrintable(item));
    }

    void forkIsOfferedOnlyForAResponseThatCanBeForked()
    {
        m_server->setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            QJsonObject completion = openAiCompletion(QString(), u"test-model"_s);
            QJsonObject choice = completion[u"choices"_s].toArray().first().toObject();
            QJsonObject message = choice[u"message"_s].toObject();
            message[u"content"_s] = QJsonValue::Null;
            message[u"tool_calls"_s] = QJsonArray{QJsonObject{
                {u"id"_s, u"call_1"_s},
                {u"type"_s, u"function"_s},
                {u"function"_s, QJsonObject{{u"name"_s, u"calculator"_s}, {u"arguments"_s, u"{}"_s}}}}};
            choice[u"message"_s] = message;
            choice[u"finish_reason"_s] = u"tool_calls"_s;
            completion[u"choices"_s] = QJsonArray{choice};
            exchange.respondJson(200, completion);
        });
        PlaygroundWindow window(m_session.get(), m_call, {profile()},
                                new PlaygroundRun(m_network.get(), nullptr));
        window.setAttribute(Qt::WA_DeleteOnClose, false);
        QSignalSpy added(&window, &PlaygroundWindow::variantAdded);
        window.send();
        QTRY_COMPARE(added.size(), 1);
        auto *fork = window.findChild<QPushButton *>(u"forkButton"_s);
        QVERIFY(!fork->isEnabled());
        QVERIFY2(fork->toolTip().contains(u"calls 1 tool,"_s), qPrintable(fork->toolTip()));
    }

private:
    ProviderProfile profile() const
    {
        return openAiTestProfile(m_server->baseUrl(), u"Window test"_s, keyVariable);
    }

    std::unique_ptr<FakeHttpServer> m_server;
    std::unique_ptr<QNetworkAccessManager> m_network;
    std::unique_ptr<ChatSession> m_session;
    int m_call = -1;
};

QTEST_MAIN(PlaygroundWindowTest)
#include "tst_playgroundwindow.moc"
