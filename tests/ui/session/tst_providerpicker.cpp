// The toolbar's provider and model picker and the status bar's provider field: what they name is what
// the next turn goes to, also while the agent the turns start with runs on a provider profile of its
// own; during and after a turn handed to an agent on another profile, what answered (over real HTTP
// on 127.0.0.1), also in the session opened again.

#include "agent/config/appsettings.h"
#include "agent/session/chatsession.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/nokeychainstore.h"
#include "tests/support/openaicompletion.h"
#include "ui/session/providerpicker.h"
#include "ui/session/sessionstatusbar.h"

#include <QComboBox>
#include <QJsonDocument>
#include <QLineEdit>
#include <QNetworkAccessManager>
#include <QPlainTextEdit>
#include <QPointer>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

using namespace Loopscope;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(Loopscope::AgentPreset)

namespace {

ProviderProfile profileNamed(const QString &id, const QString &name, const QString &model,
                             const QUrl &url = QUrl(u"http://127.0.0.1:9/v1"_s)) // none listens there
{
    ProviderProfile profile;
    profile.id = id;
    profile.name = name;
    profile.baseUrl = url;
    profile.model = model;
    return profile;
}

const ProviderProfile sessionProfile
    = profileNamed(u"session-id"_s, u"Session profile"_s, u"session-model"_s);
const ProviderProfile agentsProfile = profileNamed(u"agents-id"_s, u"Agents profile"_s, u"agents-model"_s);

// A picker and a status bar over one session, with both profiles stored and the first one chosen.
struct PickerOnASession
{
    QTemporaryDir dir;
    QSettings settings{dir.filePath(u"settings.ini"_s), QSettings::IniFormat};
    AppSettings appSettings{&settings};
    ProviderProfileStore profiles{&settings};
    NoKeychainStore secrets{dir.filePath(u"keys"_s)};
    QNetworkAccessManager network;
    ChatSession session{&network};
    QWidget window;
    Ui::ProviderPicker picker{&session, &profiles, &appSettings, &secrets, &window};
    QPlainTextEdit draft;
    Ui::SessionStatusBar bar{&session, &draft};

    // Both profiles at \a url (by default one where nothing listens: listing models fails quietly).
    explicit PickerOnASession(const QUrl &url = QUrl(u"http://127.0.0.1:9/v1"_s))
    {
        const ProviderProfile mine
            = profileNamed(sessionProfile.id, sessionProfile.name, sessionProfile.model, url);
        const ProviderProfile agents
            = profileNamed(agentsProfile.id, agentsProfile.name, agentsProfile.model, url);
        profiles.save(mine);
        profiles.save(agents);
        picker.reloadProfiles(mine.id);
        SessionSetup setup = session.setup();
        setup.loop.model.stream = false;
        setup.provider = SessionSetup::Provider{mine, u"sk-session"_s, {}, 600'000};
        setup.agentProviders.insert(agents.name, SessionSetup::Provider{agents, u"sk-agents"_s, {}, 600'000});
        session.apply(setup);
    }

    // The turns start as the first of \a agents.
    void runAs(const QList<AgentPreset> &agents)
    {
        SessionSetup setup = session.setup();
        setup.agents.agents = agents;
        setup.agent = agents.constFirst().name;
        session.apply(setup);
    }

    QString providerField() const { return bar.text().split(u" | "_s).constFirst(); }
};

AgentPreset agentNamed(const QString &name, std::optional<QString> provider, std::optional<QString> model)
{
    AgentPreset agent;
    agent.name = name;
    agent.instructions = u"You help."_s;
    agent.provider = std::move(provider);
    agent.model = std::move(model);
    return agent;
}

} // namespace

class ProviderPickerTest : public QObject
{
    Q_OBJECT

private slots:
    void thePickerNamesWhatTheNextTurnGoesTo_data()
    {
        QTest::addColumn<AgentPreset>("agent");
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QString>("model");
        QTest::addColumn<bool>("providerChoosable");
        QTest::addColumn<bool>("modelChoosable");
        QTest::addColumn<QString>("status");

        QTest::newRow("an agent without a profile runs on the session's, which the user may change")
            << agentNamed(u"helper"_s, std::nullopt, std::nullopt) << sessionProfile.id << u"session-model"_s
            << true << true << u"Session profile · session-model"_s;
        QTest::newRow("an agent that names a model runs on it on the session's profile, set by the agent")
            << agentNamed(u"helper"_s, std::nullopt, u"own-model"_s) << sessionProfile.id << u"own-model"_s
            << true << false << u"Session profile · own-model"_s;
        QTest::newRow("an agent on its own profile runs on that profile's model, set by the agent")
            << agentNamed(u"billing"_s, agentsProfile.name, std::nullopt) << agentsProfile.id
            << u"agents-model"_s << false << false << u"Agents profile · agents-model (agent billing)"_s;
        QTest::newRow("an agent on its own profile that names a model runs on that model")
            << agentNamed(u"billing"_s, agentsProfile.name, u"big-model"_s) << agentsProfile.id
            << u"big-model"_s << false << false << u"Agents profile · big-model (agent billing)"_s;
    }

    void thePickerNamesWhatTheNextTurnGoesTo()
    {
        QFETCH(AgentPreset, agent);
        QFETCH(QString, provider);
        QFETCH(QString, model);
        QFETCH(bool, providerChoosable);
        QFETCH(bool, modelChoosable);
        QFETCH(QString, status);
        PickerOnASession on;
        QCOMPARE(on.picker.providerBox()->currentData().toString(), sessionProfile.id);
        QVERIFY(on.picker.providerBox()->isEnabled());

        on.runAs({agent});

        QCOMPARE(on.picker.providerBox()->currentData().toString(), provider);
        QCOMPARE(on.picker.modelBox()->currentText(), model);
        QCOMPARE(on.picker.providerBox()->isEnabled(), providerChoosable);
        QCOMPARE(on.picker.modelBox()->isEnabled(), modelChoosable);
        // Why nothing can be chosen there: the agent decides, and where to change that.
        const QString setBy = u"Set by agent \"%1\""_s.arg(agent.name);
        QCOMPARE(on.picker.providerBox()->toolTip().contains(setBy), !providerChoosable);
        QCOMPARE(on.picker.modelBox()->toolTip().contains(setBy), !modelChoosable);
        QCOMPARE(on.providerField(), status);
    }

    void whenTheAgentNoLongerDecidesTheSessionsProviderIsShownAndChoosableAgain()
    {
        PickerOnASession on;
        on.runAs({agentNamed(u"billing"_s, agentsProfile.name, std::nullopt)});
        QVERIFY(!on.picker.providerBox()->isEnabled());

        SessionSetup setup = on.session.setup();
        setup.agent.clear();
        on.session.apply(setup);

        QCOMPARE(on.picker.providerBox()->currentData().toString(), sessionProfile.id);
        QCOMPARE(on.picker.modelBox()->currentText(), u"session-model"_s);
        QVERIFY(on.picker.providerBox()->isEnabled());
        QVERIFY(on.picker.modelBox()->isEnabled());
        QVERIFY(!on.picker.providerBox()->toolTip().contains(u"Set by agent"_s));
        QCOMPARE(on.providerField(), u"Session profile · session-model"_s);
    }

    void anAgentOnAProfileThatDoesNotExistSaysSoInThePicker()
    {
        PickerOnASession on;
        on.runAs({agentNamed(u"billing"_s, u"Gone profile"_s, std::nullopt)});

        QCOMPARE(on.picker.providerBox()->currentIndex(), -1);
        QVERIFY(!on.picker.providerBox()->isEnabled());
        const QString tip = on.picker.providerBox()->toolTip();
        QVERIFY2(tip.contains(u"\"Gone profile\", which does not exist"_s), qPrintable(tip));
        QVERIFY(on.picker.setKeyAction()->isVisible());
    }

    void duringAndAfterATurnHandedToAnAgentOnItsOwnProfileTheStatusBarNamesWhatAnswered()
    {
        FakeHttpServer server;
        QVERIFY(server.listen());
        QPointer<HttpExchange> billing; // held until the test answers it
        server.setHandler([&billing](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (request.json().value(u"model"_s).toString() == u"agents-model"_s) {
                billing = &exchange;
                return;
            }
            const QString reason = u"{\"reason\":\"a refund\"}"_s;
            exchange.respondJson(200, openAiToolCallCompletion({{u"h1"_s, u"transfer_to_billing"_s, reason}},
                                                               u"session-model"_s));
        });
        const QUrl url = server.baseUrl().resolved(QUrl(u"/v1"_s));
        PickerOnASession on(url);
        AgentPreset lead = agentNamed(u"lead"_s, std::nullopt, std::nullopt);
        lead.handoffs = {u"billing"_s};
        lead.tools = QStringList();
        on.runAs({lead, agentNamed(u"billing"_s, agentsProfile.name, std::nullopt)});
        const QString session = u"Session profile · session-model"_s;
        const QString agents = u"Agents profile · agents-model (agent billing)"_s;
        QCOMPARE(on.providerField(), session);

        QVERIFY(on.session.send(u"I want my money back."_s));
        QTRY_VERIFY(!billing.isNull());
        QCOMPARE(on.providerField(), agents);
        // The toolbar still names what the next turn starts on: the lead's, the session's provider.
        QCOMPARE(on.picker.providerBox()->currentData().toString(), sessionProfile.id);

        billing->respondJson(200, openAiCompletion(u"Refunded."_s, u"agents-model"_s));
        QTRY_VERIFY(!on.session.isBusy());
        const QString answered = agents + u" answered; next turn: "_s + session;
        QCOMPARE(on.providerField(), answered);

        PickerOnASession reopened(url);
        reopened.runAs({lead, agentNamed(u"billing"_s, agentsProfile.name, std::nullopt)});
        QString error;
        QVERIFY2(reopened.session.restore(on.session.toTranscript(), &error), qPrintable(error));
        QCOMPARE(reopened.providerField(), answered);
    }
};

QTEST_MAIN(ProviderPickerTest)
#include "tst_providerpicker.moc"
