// ChatSession over real HTTP (a fake OpenAI-compatible server on 127.0.0.1)
// and a real keychain (run under with-keyring.sh).

#include "agent/config/appsettings.h"
#include "agent/conversation/attachmentloader.h"
#include "agent/export/exportfile.h"
#include "agent/loop/contextbudget.h"
#include "agent/mcp/mcpsettings.h"
#include "agent/model/modelimages.h"
#include "agent/model/pricetable.h"
#include "agent/providers/contextwindowlookup.h"
#include "agent/session/chatsession.h"
#include "agent/session/settingsapplier.h"
#include "tests/support/chatsessionoverhttp.h"
#include "tests/support/democonversation.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/modelinfoserver.h"
#include "tests/support/openaicompletion.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>

using namespace Loopscope;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(std::optional<qint64>)
Q_DECLARE_METATYPE(Loopscope::ModelInfoRoutes::Answer)

namespace {

const QString apiKey = u"sk-session-0123456789abcdef"_s;

// The user messages of a request the server saw, in order.
QStringList userTexts(const HttpRequestRecord &request)
{
    QStringList texts;
    const QJsonArray messages = request.json().value(u"messages"_s).toArray();
    for (const QJsonValue &message : messages) {
        if (message[u"role"_s].toString() == u"user")
            texts.append(message[u"content"_s].toString());
    }
    return texts;
}

// A keychain that cannot be read, as without a Secret Service running.
class UnreadableSecretStore final : public SecretStore
{
public:
    void read(const QString &, QObject *context, ReadCallback done) override
    {
        QTimer::singleShot(0, context, [done] { done({std::nullopt, u"No Secret Service is running."_s}); });
    }
    void write(const QString &, const QString &, QObject *context, WriteCallback done) override
    {
        QTimer::singleShot(0, context, [done] { done(u"No Secret Service is running."_s); });
    }
    void remove(const QString &, QObject *context, WriteCallback done) override
    {
        QTimer::singleShot(0, context, [done] { done(u"No Secret Service is running."_s); });
    }
};

// A keychain in memory that answers each read after the delay set when it was asked, with the
// value stored at that moment: a slow read and a later fast one can answer out of order.
class DelayedSecretStore final : public SecretStore
{
public:
    void read(const QString &account, QObject *context, ReadCallback done) override
    {
        const std::optional<QString> secret
            = m_secrets.contains(account) ? std::optional(m_secrets.value(account)) : std::nullopt;
        QTimer::singleShot(m_delayMs, context, [this, done, secret] {
            ++m_readsAnswered;
            done({secret, m_error});
        });
    }
    void write(const QString &account, const QString &secret, QObject *context, WriteCallback done) override
    {
        m_secrets.insert(account, secret);
        QTimer::singleShot(0, context, [done] { done({}); });
    }
    void remove(const QString &account, QObject *context, WriteCallback done) override
    {
        m_secrets.remove(account);
        QTimer::singleShot(0, context, [done] { done({}); });
    }

    int m_delayMs = 0;
    int m_readsAnswered = 0;
    QString m_error;

private:
    QHash<QString, QString> m_secrets;
};

McpServerConfig remoteServer(const QString &token)
{
    McpServerConfig server;
    server.name = u"remote"_s;
    server.transport = McpServerConfig::Transport::Http;
    server.url = QUrl(u"https://mcp.example.com/mcp"_s);
    server.headers = {{u"Authorization"_s, u"Bearer "_s + token}};
    server.enabled = false; // handed over, not started
    return server;
}

void storeSecrets(const McpServerConfig &server, SecretStore *store)
{
    QObject context;
    bool saved = false;
    McpSettings::saveSecrets({server}, {}, store, &context,
                             [&saved](const QStringList &, const QStringList &) { saved = true; });
    QTRY_VERIFY(saved);
}

void storeKey(SecretStore &store, const QString &account, const QString &key)
{
    QObject context;
    bool written = false;
    store.write(account, key, &context, [&written](const QString &) { written = true; });
    QTRY_VERIFY(written);
}

} // namespace

class ChatSessionTest : public QObject, protected Testing::ChatSessionOverHttp
{
    Q_OBJECT

private slots:
    void init()
    {
        QVERIFY(startSession());
        AgentConfig config;
        config.model.stream = false;
        SessionSetup setup = m_session->setup();
        setup.loop = config;
        m_session->apply(setup);
        // Each request is answered with the user's last question echoed back.
        m_server->setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            const QStringList texts = userTexts(request);
            exchange.respondJson(
                200, openAiCompletion(u"You said: "_s + (texts.isEmpty() ? QString() : texts.constLast()),
                                      u"test-model"_s));
        });
    }

    void cleanup() { endSession(); }

    void withoutAProviderSendingFailsWithAnInstruction()
    {
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"hello"_s));
        QTRY_COMPARE(finished.size(), 1);
        const auto result = finished.first().first().value<TurnResult>();
        QCOMPARE(result.outcome, TurnOutcome::Failed);
        QVERIFY2(result.error.contains(u"Settings"_s), qPrintable(result.error));
    }

    void aTurnAnswersAndCountsTokensForTheTurnAndTheSession()
    {
        m_session->apply(m_session->setup().withProvider(profile(), apiKey));
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QSignalSpy iterations(m_session.get(), &ChatSession::iterationChanged);

        QVERIFY(m_session->send(u"first"_s));
        QVERIFY(m_session->isBusy());
        QVERIFY(!m_session->send(u"second while busy"_s));
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(finished.last().first().value<TurnResult>().text, u"You said: first"_s);
        QCOMPARE(iterations.size(), 1);
        QCOMPARE(iterations.first().at(0).toInt(), 1);
        QCOMPARE(m_session->usage()->turnUsage().total(), 15);

        QVERIFY(m_session->send(u"second"_s));
        QTRY_COMPARE(finished.size(), 2);
        QCOMPARE(m_session->usage()->turnUsage().total(), 15);
        QCOMPARE(m_session->usage()->sessionUsage().total(), 30);
        QCOMPARE(m_server->requests().constLast().header("authorization"), "Bearer "_ba + apiKey.toUtf8());
        QCOMPARE(m_server->requests().constLast().json().value(u"model"_s).toString(), u"test-model"_s);
    }

    void theProfilesSamplingParametersAreDefaultsTheLoopsOwnWin()
    {
        ProviderProfile withDefaults = profile();
        withDefaults.defaults.temperature = 0.9;
        withDefaults.defaults.maxOutputTokens = 100;
        withDefaults.defaults.topP = 0.95;
        SessionSetup setup = m_session->setup().withProvider(withDefaults, apiKey);
        setup.loop.model.temperature = 0.1;
        setup.loop.model.topP = 0.5;
        m_session->apply(setup);

        QCOMPARE(m_session->agent()->config().model.temperature, std::optional<double>(0.1));
        QCOMPARE(m_session->agent()->config().model.maxOutputTokens, std::optional<int>(100));
        QCOMPARE(m_session->agent()->config().model.model, u"test-model"_s);
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"hi"_s));
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(m_server->requests().constLast().json().value(u"temperature"_s).toDouble(), 0.1);
        QCOMPARE(m_server->requests().constLast().json().value(u"top_p"_s).toDouble(), 0.5);
    }

    void theSessionsLoopOptionsIncludeItsAgents()
    {
        SessionSetup setup = m_session->setup().withProvider(profile(), apiKey);
        setup.agents = handoffRoster();
        setup.agent = u"triage"_s;
        m_session->apply(setup);

        QCOMPARE(m_session->agentConfig().name, u"triage"_s);
        QCOMPARE(m_session->agentConfig().maxIterations, 3);
        QCOMPARE(m_session->agentConfig().systemPrompt, u"You route questions."_s);
        QCOMPARE(m_session->agent()->config().maxIterations, 3);
    }

    void aHandoffContinuesOverHttpWithTheNextAgentsInstructionsToolsAndModel()
    {
        SessionSetup setup = m_session->setup().withProvider(profile(), apiKey);
        setup.tools.names = {u"calculator"_s, u"current_time"_s};
        setup.agents = handoffRoster();
        setup.agent = u"triage"_s;
        m_session->apply(setup);
        m_server->setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            const QJsonArray messages = request.json().value(u"messages"_s).toArray();
            if (messages.first()[u"content"_s].toString() == u"You route questions.") {
                const ToolCall call{u"h1"_s, u"transfer_to_billing"_s, uR"({"reason":"an invoice"})"_s, {}};
                exchange.respondJson(200, openAiToolCallCompletion({call}, u"test-model"_s));
            } else {
                exchange.respondJson(200, openAiCompletion(u"Your invoice is paid."_s, u"billing-model"_s));
            }
        });
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);

        QVERIFY(m_session->send(u"I was charged twice"_s));
        QTRY_COMPARE(finished.size(), 1);

        const auto result = finished.first().first().value<TurnResult>();
        QVERIFY2(result.outcome == TurnOutcome::Answered, qPrintable(result.error));
        QCOMPARE(result.agent, u"billing"_s);
        QCOMPARE(m_server->requests().size(), 2);
        const QJsonObject next = m_server->requests().at(1).json();
        QCOMPARE(next.value(u"model"_s).toString(), u"billing-model"_s);
        const QJsonArray messages = next.value(u"messages"_s).toArray();
        QCOMPARE(messages.at(0)[u"content"_s].toString(), u"You answer invoices."_s);
        QCOMPARE(messages.at(1)[u"content"_s].toString(), u"I was charged twice"_s);
        QCOMPARE(messages.at(2)[u"tool_calls"_s][0][u"function"_s][u"name"_s].toString(),
                 u"transfer_to_billing"_s);
        QCOMPARE(messages.at(3)[u"role"_s].toString(), u"tool"_s);
        QStringList tools;
        for (const QJsonValue &tool : next.value(u"tools"_s).toArray())
            tools.append(tool[u"function"_s][u"name"_s].toString());
        QCOMPARE(tools, (QStringList{u"current_time"_s, u"transfer_to_triage"_s}));
        // The next turn starts as the session's agent again, with its own tools.
        QCOMPARE(m_session->agent()->config().name, u"triage"_s);
        QCOMPARE(m_session->workbench()->names(), (QStringList{u"calculator"_s, u"transfer_to_billing"_s}));
    }

    void whileAnAnswerStreamsItsTokensAreEstimatedUntilTheRealCountArrives()
    {
        QList<qint64> estimates;
        connect(m_session.get(), &ChatSession::usageChanged, this,
                [this, &estimates] { estimates.append(m_session->usage()->streamingTokenEstimate()); });
        runDemoTurn();
        QVERIFY2(std::any_of(estimates.cbegin(), estimates.cend(), [](qint64 e) { return e > 0; }),
                 "no estimate while streaming");
        QCOMPARE(m_session->usage()->streamingTokenEstimate(), 0);
        QVERIFY(m_session->usage()->turnUsage().total() > 0);
        disconnect(m_session.get(), &ChatSession::usageChanged, this, nullptr);
    }

    void whichModelsAreKnownToReadTextOnly_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QString>("model");
        QTest::addColumn<bool>("textOnly");
        QTest::newRow("GPT-3.5") << u"openai"_s << u"gpt-3.5-turbo-0125"_s << true;
        QTest::newRow("the first GPT-4") << u"openai"_s << u"gpt-4"_s << true;
        QTest::newRow("o3-mini through a router") << u"openai"_s << u"openai/o3-mini"_s << true;
        QTest::newRow("GPT-4o") << u"openai"_s << u"gpt-4o-mini"_s << false;
        QTest::newRow("GPT-4 Turbo") << u"openai"_s << u"gpt-4-turbo"_s << false;
        QTest::newRow("Claude 2") << u"anthropic"_s << u"claude-2.1"_s << true;
        QTest::newRow("Claude Sonnet 4") << u"anthropic"_s << u"claude-sonnet-4-20250514"_s << false;
        QTest::newRow("Gemini") << u"gemini"_s << u"gemini-2.5-flash"_s << false;
        QTest::newRow("Ollama llama3.1") << u"ollama"_s << u"llama3.1:8b"_s << true;
        QTest::newRow("Ollama llama3 without a tag") << u"ollama"_s << u"llama3"_s << true;
        QTest::newRow("Ollama llama3.2-vision") << u"ollama"_s << u"llama3.2-vision"_s << false;
        QTest::newRow("Ollama gemma3") << u"ollama"_s << u"gemma3:4b"_s << false;
        QTest::newRow("an unknown model") << u"openai"_s << u"my-finetune"_s << false;
    }

    void whichModelsAreKnownToReadTextOnly()
    {
        QFETCH(QString, provider);
        QFETCH(QString, model);
        QFETCH(bool, textOnly);
        QCOMPARE(ModelImages::knownTextOnly(provider, model), textOnly);
    }

    void anImageForAModelKnownToReadTextOnlyIsRefusedBeforeTheRequestUnlessSentAnyway()
    {
        ProviderProfile textOnly = profile();
        textOnly.model = u"gpt-3.5-turbo"_s;
        m_session->apply(m_session->setup().withProvider(textOnly, apiKey));
        const QByteArray gif
            = QByteArray::fromBase64("R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==");
        const Attachment image = *AttachmentLoader::fromBytes(u"dot.gif"_s, gif).attachment;
        const Attachment note = *AttachmentLoader::fromBytes(u"note.txt"_s, "plain words").attachment;
        QSignalSpy notices(m_session.get(), &ChatSession::notice);
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);

        QVERIFY(!m_session->send(u"What is in it?"_s, {note, image}));
        QCOMPARE(notices.size(), 1);
        const QString refusal = notices.first().first().toString();
        QVERIFY2(refusal.contains(u"gpt-3.5-turbo"_s), qPrintable(refusal));
        QVERIFY(!m_session->isBusy());
        QVERIFY(m_session->agent()->history().isEmpty());
        QVERIFY(m_server->requests().isEmpty());

        // A text file is text to every model.
        QVERIFY(m_session->send(u"Read it"_s, {note}));
        QTRY_COMPARE(finished.size(), 1);

        QVERIFY(m_session->send(u"What is in it?"_s, {note, image}, ChatSession::ImageCheck::SendAnyway));
        QTRY_COMPARE(finished.size(), 2);
        QCOMPARE(m_server->requests().size(), 2);
        QVERIFY(m_server->requests().constLast().body.contains("image_url"));
        QCOMPARE(m_session->agent()->history().at(2).attachments, (QList<Attachment>{note, image}));
    }

    void regenerateAsksTheLastQuestionAgainWithoutItsOldAnswer()
    {
        m_session->apply(m_session->setup().withProvider(profile(), apiKey));
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"one"_s));
        QTRY_COMPARE(finished.size(), 1);
        QVERIFY(m_session->send(u"two"_s));
        QTRY_COMPARE(finished.size(), 2);

        QVERIFY(m_session->regenerate());
        QTRY_COMPARE(finished.size(), 3);
        QCOMPARE(userTexts(m_server->requests().constLast()), (QStringList{u"one"_s, u"two"_s}));
        // The conversation holds each question once, and one answer to each.
        QCOMPARE(m_session->agent()->history().size(), 4);
        QCOMPARE(m_session->agent()->history().constLast().text, u"You said: two"_s);
    }

    void editingTheLastQuestionReplacesIt()
    {
        m_session->apply(m_session->setup().withProvider(profile(), apiKey));
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"one"_s));
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(m_session->lastUserText(), u"one"_s);

        QVERIFY(m_session->editLastAndResend(u"uno"_s));
        QTRY_COMPARE(finished.size(), 2);
        QCOMPARE(userTexts(m_server->requests().constLast()), QStringList{u"uno"_s});
        QCOMPARE(m_session->lastUserText(), u"uno"_s);
        QCOMPARE(m_session->agent()->history().size(), 2);
        // The model sees the edited question only; the chat, like the trace, keeps both turns.
        QCOMPARE(m_session->trace()->roots().size(), 2);
        const QList<ConversationRow> &rows = m_session->rows()->rows();
        QCOMPARE(rows.size(), 4);
        QCOMPARE(rows.at(0).text, u"one"_s);
        QVERIFY(rows.at(0).replaced && rows.at(1).replaced);
        QCOMPARE(rows.at(2).text, u"uno"_s);
        QVERIFY(!rows.at(2).replaced && !rows.at(3).replaced);
    }

    // Regenerate and retry ask the question as it was asked, with its files; an edit goes with the files
    // it is given, and a refused edit leaves the question it would replace in place.
    void regeneratingOrEditingKeepsTheQuestionsAttachments()
    {
        m_session->apply(m_session->setup().withProvider(profile(), apiKey));
        const QByteArray gif
            = QByteArray::fromBase64("R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==");
        const Attachment image = *AttachmentLoader::fromBytes(u"dot.gif"_s, gif).attachment;
        const Attachment note = *AttachmentLoader::fromBytes(u"note.txt"_s, "plain words").attachment;
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"What is in it?"_s, {note, image}));
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(m_session->lastUserAttachments(), (QList<Attachment>{note, image}));

        QVERIFY(m_session->regenerate());
        QTRY_COMPARE(finished.size(), 2);
        QVERIFY(m_server->requests().constLast().body.contains("image_url"));
        QVERIFY(m_server->requests().constLast().body.contains("plain words"));
        QCOMPARE(m_session->lastUserAttachments(), (QList<Attachment>{note, image}));

        QVERIFY(m_session->editLastAndResend(u"And now?"_s, {image}));
        QTRY_COMPARE(finished.size(), 3);
        QVERIFY(m_server->requests().constLast().body.contains("image_url"));
        QVERIFY(!m_server->requests().constLast().body.contains("plain words"));
        QCOMPARE(m_session->lastUserAttachments(), QList<Attachment>{image});

        // On a model known to read text only the edit is refused before the history changes.
        ProviderProfile textOnly = profile();
        textOnly.model = u"gpt-3.5-turbo"_s;
        m_session->apply(m_session->setup().withProvider(textOnly, apiKey));
        const QList<Message> history = m_session->agent()->history();
        QSignalSpy notices(m_session.get(), &ChatSession::notice);
        QVERIFY(!m_session->editLastAndResend(u"Once more"_s, {image}));
        QCOMPARE(notices.size(), 1);
        QCOMPARE(m_session->agent()->history(), history);
        QVERIFY(m_session->editLastAndResend(u"Once more"_s, {image}, ChatSession::ImageCheck::SendAnyway));
        QTRY_COMPARE(finished.size(), 4);
        QCOMPARE(m_session->lastUserText(), u"Once more"_s);
    }

    // The context gauge's next request counts what waits to be sent as the loop's estimate does.
    void theNextRequestEstimateCountsAttachments()
    {
        const Attachment image
            = *AttachmentLoader::fromBytes(
                   u"dot.gif"_s,
                   QByteArray::fromBase64("R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=="))
                   .attachment;
        const QByteArray words(4000, 'w');
        const Attachment note = *AttachmentLoader::fromBytes(u"note.txt"_s, words).attachment;
        const qint64 bare = m_session->usage()->nextRequestEstimate(u"Look"_s);
        const qint64 withImage = m_session->usage()->nextRequestEstimate(u"Look"_s, {image});
        const qint64 withNote = m_session->usage()->nextRequestEstimate(u"Look"_s, {note});
        QCOMPARE(withImage - bare, (TokenEstimator::characters(image) + 3) / 4);
        QVERIFY2(withImage - bare >= 1500 && withImage - bare < 1600,
                 qPrintable(QString::number(withImage - bare)));
        QVERIFY2(withNote - bare >= 1000 && withNote - bare < 1010,
                 qPrintable(QString::number(withNote - bare)));
    }

    void retryAfterAProviderErrorAsksAgainFromACleanHistory()
    {
        m_session->apply(m_session->setup().withProvider(profile(), apiKey));
        int calls = 0;
        m_server->setHandler([&calls](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (++calls == 1) {
                exchange.respondJson(400, {{u"error"_s, QJsonObject{{u"message"_s, u"bad request"_s}}}});
                return;
            }
            exchange.respondJson(
                200, openAiCompletion(u"fine: "_s + userTexts(request).join(u'|'), u"test-model"_s));
        });
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"question"_s));
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(finished.last().first().value<TurnResult>().outcome, TurnOutcome::Failed);

        QVERIFY(m_session->retry());
        QTRY_COMPARE(finished.size(), 2);
        QCOMPARE(finished.last().first().value<TurnResult>().text, u"fine: question"_s);
    }

    void stopCancelsTheTurnAndTheSessionCanGoOn()
    {
        m_session->apply(m_session->setup().withProvider(profile(), apiKey));
        bool stall = true;
        m_server->setHandler([&stall](const HttpRequestRecord &, HttpExchange &exchange) {
            if (stall)
                exchange.stall();
            else
                exchange.respondJson(200, openAiCompletion(u"back"_s, u"test-model"_s));
        });
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QSignalSpy busy(m_session.get(), &ChatSession::busyChanged);
        QVERIFY(m_session->send(u"wait"_s));
        QTRY_COMPARE(m_server->requests().size(), 1);
        m_session->stop();
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(finished.last().first().value<TurnResult>().outcome, TurnOutcome::Cancelled);
        QVERIFY(!m_session->isBusy());
        QCOMPARE(busy.constLast().first().toBool(), false);

        stall = false;
        QVERIFY(m_session->send(u"again"_s));
        QTRY_COMPARE(finished.size(), 2);
        QCOMPARE(finished.last().first().value<TurnResult>().text, u"back"_s);
    }

    void clearStartsAnEmptyConversation()
    {
        m_session->apply(m_session->setup().withProvider(profile(), apiKey));
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QSignalSpy cleared(m_session.get(), &ChatSession::cleared);
        QVERIFY(m_session->send(u"one"_s));
        QTRY_COMPARE(finished.size(), 1);
        QVERIFY(m_session->trace()->size() > 0);

        QVERIFY(m_session->clear());
        QCOMPARE(cleared.size(), 1);
        QCOMPARE(m_session->agent()->history().size(), 0);
        QCOMPARE(m_session->trace()->size(), 0);
        QCOMPARE(m_session->rows()->size(), 0);
        QCOMPARE(m_session->usage()->sessionUsage().total(), 0);
    }

    void aRestoredConversationShowsTheRowsItShowedLive()
    {
        m_session->apply(m_session->setup().withProvider(profile(), apiKey));
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        // The first question asked twice: the trace holds a turn the history does not.
        QVERIFY(m_session->send(u"one"_s));
        QTRY_COMPARE(finished.size(), 1);
        QVERIFY(m_session->regenerate());
        QTRY_COMPARE(finished.size(), 2);
        QVERIFY(m_session->send(u"two"_s));
        QTRY_COMPARE(finished.size(), 3);
        const QList<ConversationRow> live = m_session->rows()->rows();
        // The replaced turn stays in the chat, marked, as it stays in the trace.
        QCOMPARE(live.size(), 6);
        QVERIFY(live.at(0).replaced);
        QCOMPARE(live.at(0).traceNode, m_session->trace()->roots().at(0));
        QCOMPARE(live.at(2).traceNode, m_session->trace()->roots().at(1));
        const Transcript transcript = m_session->toTranscript();

        QVERIFY(m_session->clear());
        QVERIFY(m_session->restore(transcript));

        const QList<ConversationRow> &restored = m_session->rows()->rows();
        QCOMPARE(restored.size(), live.size());
        for (int i = 0; i < restored.size(); ++i) {
            QCOMPARE(restored.at(i).kind, live.at(i).kind);
            QCOMPARE(restored.at(i).text, live.at(i).text);
            QCOMPARE(restored.at(i).traceNode, live.at(i).traceNode);
            QCOMPARE(restored.at(i).replaced, live.at(i).replaced);
        }
    }

    void exportsOfAReopenedSessionNameItsOwnRunUntilANewTurnRuns_data()
    {
        QTest::addColumn<ExportFormat>("format");
        QTest::newRow("markdown") << ExportFormat::Markdown;
        QTest::newRow("html") << ExportFormat::Html;
    }

    void exportsOfAReopenedSessionNameItsOwnRunUntilANewTurnRuns()
    {
        QFETCH(ExportFormat, format);
        const auto exported = [this, format] {
            const std::optional<QByteArray> bytes = exportTranscript(m_session->toTranscript(), format);
            return bytes ? QString::fromUtf8(*bytes) : QString();
        };
        Transcript saved;
        saved.title = u"Saved with model A"_s;
        saved.created = QDateTime(QDate(2025, 1, 2), QTime(3, 4), Qt::UTC);
        saved.updated = QDateTime(QDate(2025, 1, 2), QTime(5, 6), Qt::UTC);
        saved.providerKind = u"anthropic"_s;
        saved.baseUrl = QUrl(u"https://api.anthropic.com"_s);
        saved.config.model.model = u"model-a-saved"_s;
        saved.messages = {Message::user(u"hello"_s), Message::assistant(u"hi"_s)};
        QVERIFY(m_session->restore(saved));

        ProviderProfile providerB = profile();
        providerB.model = u"model-b-selected"_s;
        m_session->apply(m_session->setup().withProvider(providerB, apiKey));

        const QString reopened = exported();
        QVERIFY2(reopened.contains(u"model-a-saved"_s), qPrintable(reopened));
        QVERIFY2(reopened.contains(u"anthropic"_s), qPrintable(reopened));
        QVERIFY2(reopened.contains(u"2025-01-02 05:06 UTC"_s), qPrintable(reopened));
        QVERIFY2(!reopened.contains(u"model-b-selected"_s), qPrintable(reopened));
        QCOMPARE(m_session->toTranscript().updated, saved.updated);

        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"and now?"_s));
        QTRY_COMPARE(finished.size(), 1);
        const QString continued = exported();
        QVERIFY2(continued.contains(u"model-b-selected"_s), qPrintable(continued));
        QVERIFY2(!continued.contains(u"model-a-saved"_s), qPrintable(continued));
        QVERIFY2(!continued.contains(u"anthropic"_s), qPrintable(continued));
        QVERIFY(m_session->toTranscript().updated > saved.updated);
    }

    void useProfileTakesTheKeyFrom_data()
    {
        QTest::addColumn<QString>("environmentVariable");
        QTest::addColumn<QString>("environmentValue");
        QTest::addColumn<QString>("keychainValue");
        QTest::addColumn<QString>("expectedKey"); // empty: providerFailed, and the turn fails

        QTest::newRow("the keychain") << QString() << QString() << apiKey << apiKey;
        QTest::newRow("the environment variable the profile names, before the keychain")
            << u"LOOPSCOPE_TEST_KEY"_s << u"sk-from-env-123456"_s << apiKey << u"sk-from-env-123456"_s;
        QTest::newRow("nowhere: an empty keychain fails with a reason")
            << QString() << QString() << QString() << QString();
        QTest::newRow("nowhere: an unset variable fails with a reason")
            << u"LOOPSCOPE_TEST_UNSET"_s << QString() << apiKey << QString();
    }

    void useProfileTakesTheKeyFrom()
    {
        QFETCH(QString, environmentVariable);
        QFETCH(QString, environmentValue);
        QFETCH(QString, keychainValue);
        QFETCH(QString, expectedKey);

        ProviderProfile chosen = profile();
        chosen.id = u"session-test-"_s + QString::fromLatin1(QTest::currentDataTag()).left(12).simplified();
        chosen.apiKeyEnv = environmentVariable;
        if (!environmentValue.isEmpty())
            qputenv(environmentVariable.toLocal8Bit().constData(), environmentValue.toUtf8());
        KeychainSecretStore keychain(u"Loopscope tests"_s);
        QSignalSpy written(this, &ChatSessionTest::keychainWritten);
        if (keychainValue.isEmpty()) {
            keychain.remove(chosen.id, this, [this](const QString &) { emit keychainWritten(); });
        } else {
            keychain.write(chosen.id, keychainValue, this, [this](const QString &error) {
                QVERIFY2(error.isEmpty(), qPrintable(error));
                emit keychainWritten();
            });
        }
        QTRY_COMPARE(written.size(), 1);

        QSignalSpy changed(m_session.get(), &ChatSession::providerChanged);
        QSignalSpy failed(m_session.get(), &ChatSession::providerFailed);
        m_session->useProfile(chosen, &keychain);
        if (expectedKey.isEmpty()) {
            QTRY_COMPARE(failed.size(), 1);
            const QString reason = failed.first().first().toString();
            QVERIFY(!reason.isEmpty());
            // The profile is the session's all the same: its turns fail with the reason.
            QCOMPARE(changed.size(), 1);
            QCOMPARE(m_session->provider()->id, chosen.id);
            QCOMPARE(m_session->setup().providerProblem(), reason);
            QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
            QVERIFY(m_session->send(u"hi"_s));
            QTRY_COMPARE(finished.size(), 1);
            QCOMPARE(finished.first().first().value<TurnResult>().error, reason);
            QVERIFY(m_server->requests().isEmpty());
        } else {
            QTRY_COMPARE(changed.size(), 1);
            QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
            QVERIFY(m_session->send(u"hi"_s));
            QTRY_COMPARE(finished.size(), 1);
            QCOMPARE(m_server->requests().constLast().header("authorization"),
                     "Bearer "_ba + expectedKey.toUtf8());
        }
        if (!environmentVariable.isEmpty())
            qunsetenv(environmentVariable.toLocal8Bit().constData());
    }

    void aProfileWhoseKeyCannotBeReadNeverFallsBackToThePreviousOne()
    {
        m_session->apply(m_session->setup().withProvider(profile(), apiKey));
        ProviderProfile locked = profile();
        locked.id = u"locked"_s;
        locked.name = u"Locked keychain"_s;
        locked.kind = ProviderKind::Anthropic;
        locked.baseUrl = m_server->baseUrl();
        locked.model = u"claude-locked"_s;
        UnreadableSecretStore keychain;
        QSignalSpy failed(m_session.get(), &ChatSession::providerFailed);
        m_session->useProfile(locked, &keychain);
        QTRY_COMPARE(failed.size(), 1);
        QVERIFY2(failed.first().first().toString().contains(u"No Secret Service is running"_s),
                 qPrintable(failed.first().first().toString()));
        QCOMPARE(m_session->provider()->id, u"locked"_s);
        QCOMPARE(m_session->agentConfig().model.model, QString()); // the loop's options carry no model
        QCOMPARE(m_session->agent()->config().model.model, u"claude-locked"_s);

        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"hi"_s));
        QTRY_COMPARE(finished.size(), 1);
        const auto result = finished.first().first().value<TurnResult>();
        QCOMPARE(result.outcome, TurnOutcome::Failed);
        QVERIFY2(result.error.contains(u"Settings → Providers"_s), qPrintable(result.error));
        QVERIFY(m_server->requests().isEmpty());
        // The saved session says which provider it was on.
        QCOMPARE(m_session->toTranscript().providerKind, u"anthropic"_s);
        QCOMPARE(m_session->toTranscript().config.model.model, u"claude-locked"_s);
        // Its models are not asked for without a key.
        QSignalSpy listFailed(m_session.get(), &ChatSession::modelsListFailed);
        m_session->listModels();
        QTRY_COMPARE(listFailed.size(), 1);
        QVERIFY(m_server->requests().isEmpty());
    }

    void aTurnSentWhileTheChosenProfilesKeyIsReadWaitsAndGoesToThatProfile()
    {
        m_session->apply(m_session->setup().withProvider(profile(), apiKey));
        ProviderProfile chosen = profile();
        chosen.id = u"chosen"_s;
        chosen.name = u"Chosen"_s;
        chosen.model = u"chosen-model"_s;
        DelayedSecretStore keychain;
        storeKey(keychain, chosen.id, u"sk-chosen-0123456789"_s);
        keychain.m_delayMs = 300;
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);

        m_session->useProfile(chosen, &keychain);
        QVERIFY(m_session->isReadingKey());
        QVERIFY(m_session->send(u"hi"_s)); // while the keychain is still reading
        QVERIFY(m_session->isBusy());
        QTest::qWait(100);
        QVERIFY(m_server->requests().isEmpty()); // nothing went to the profile used before

        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(finished.first().first().value<TurnResult>().outcome, TurnOutcome::Answered);
        QCOMPARE(m_server->requests().size(), 1);
        QCOMPARE(m_server->requests().constFirst().header("authorization"), "Bearer sk-chosen-0123456789"_ba);
        QCOMPARE(m_server->requests().constFirst().json().value(u"model"_s).toString(), u"chosen-model"_s);
        QCOMPARE(m_session->provider()->id, u"chosen"_s);
    }

    void aTurnSentBeforeTheFirstProfilesKeyIsKnownWaitsForIt()
    {
        QVERIFY(!m_session->hasProvider());
        DelayedSecretStore keychain;
        storeKey(keychain, profile().id, apiKey);
        keychain.m_delayMs = 200;
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);

        m_session->useProfile(profile(), &keychain);
        QVERIFY(m_session->send(u"hi"_s));

        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(finished.first().first().value<TurnResult>().outcome, TurnOutcome::Answered);
        QVERIFY(!m_session->isReadingKey());
        QCOMPARE(m_server->requests().size(), 1);
        QCOMPARE(m_server->requests().constFirst().header("authorization"), "Bearer "_ba + apiKey.toUtf8());
    }

    void aTurnSentWhileTheChosenProfilesKeyCannotBeReadFailsWithTheReason()
    {
        m_session->apply(m_session->setup().withProvider(profile(), apiKey));
        ProviderProfile locked = profile();
        locked.id = u"locked"_s;
        locked.name = u"Locked"_s;
        DelayedSecretStore keychain;
        keychain.m_delayMs = 300;
        keychain.m_error = u"The collection is locked."_s;
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);

        m_session->useProfile(locked, &keychain);
        QVERIFY(m_session->send(u"hi"_s));

        QTRY_COMPARE(finished.size(), 1);
        const auto result = finished.first().first().value<TurnResult>();
        QCOMPARE(result.outcome, TurnOutcome::Failed);
        QVERIFY2(result.error.contains(u"The collection is locked."_s), qPrintable(result.error));
        QVERIFY(m_server->requests().isEmpty());
        QCOMPARE(m_session->provider()->id, u"locked"_s);
    }

    void aTurnStoppedWhileTheKeyIsReadEndsCancelledAndReachesNoProvider()
    {
        m_session->apply(m_session->setup().withProvider(profile(), apiKey));
        ProviderProfile chosen = profile();
        chosen.id = u"chosen"_s;
        DelayedSecretStore keychain;
        storeKey(keychain, chosen.id, u"sk-chosen-0123456789"_s);
        keychain.m_delayMs = 300;
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);

        m_session->useProfile(chosen, &keychain);
        QVERIFY(m_session->send(u"hi"_s));
        m_session->stop();

        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(finished.first().first().value<TurnResult>().outcome, TurnOutcome::Cancelled);
        QVERIFY(!m_session->isBusy());
        QTRY_COMPARE(keychain.m_readsAnswered, 1);
        QTRY_COMPARE(m_session->provider()->id, u"chosen"_s); // the choice still stands
        QTest::qWait(50);
        QVERIFY(m_server->requests().isEmpty());
    }

    void anOlderKeyReadNeverOverridesANewerChoice()
    {
        ProviderProfile slow = profile();
        slow.id = u"slow"_s;
        ProviderProfile fast = profile();
        fast.id = u"fast"_s;
        DelayedSecretStore keychain;
        storeKey(keychain, slow.id, u"sk-slow-0123456789"_s);
        storeKey(keychain, fast.id, u"sk-fast-0123456789"_s);
        keychain.m_delayMs = 300;
        m_session->useProfile(slow, &keychain);
        keychain.m_delayMs = 0;
        m_session->useProfile(fast, &keychain);

        QTRY_COMPARE(keychain.m_readsAnswered, 2);
        QCOMPARE(m_session->provider()->id, u"fast"_s);
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"hi"_s));
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(m_server->requests().constLast().header("authorization"), "Bearer sk-fast-0123456789"_ba);
    }

    void settingsApplyLoopOptionsToolsAndTheApprovalRulesThatParse()
    {
        QTemporaryDir dir;
        QSettings stored(dir.filePath(u"settings.ini"_s), QSettings::IniFormat);
        AppSettings settings(&stored);
        AgentConfig config;
        config.maxIterations = 4;
        config.systemPrompt = u"Be brief."_s;
        settings.setAgentConfig(config);
        settings.setEnabledTools({u"calculator"_s, u"read_file"_s});
        settings.setWorkspaceFolder(dir.path());
        settings.setToolApprovalRules(
            {{u"calculator"_s, u"never"_s}, {u"read_file"_s, u"ask"_s}, {u"current_time"_s, u"sometimes"_s}});

        m_session->apply(SessionSetup::fromSettings(settings, m_session->setup()));

        QCOMPARE(m_session->agentConfig().maxIterations, 4);
        QCOMPARE(m_session->agent()->config().systemPrompt, u"Be brief."_s);
        QCOMPARE(m_session->workbench()->names(), (QStringList{u"calculator"_s, u"read_file"_s}));
        const QHash<QString, ToolApprovalPolicy::Rule> expected{
            {u"calculator"_s, ToolApprovalPolicy::Rule::Never},
            {u"read_file"_s, ToolApprovalPolicy::Rule::Ask}};
        QCOMPARE(m_session->approvals()->rules(), expected);
    }

    void theSettingsResponseSizeLimitCutsTheProvidersAnswer_data()
    {
        QTest::addColumn<bool>("providerFirst");
        QTest::newRow("the provider bound before the limit") << true;
        QTest::newRow("the limit set before the provider") << false;
    }

    void theSettingsResponseSizeLimitCutsTheProvidersAnswer()
    {
        QFETCH(bool, providerFirst);
        QTemporaryDir dir;
        QSettings stored(dir.filePath(u"settings.ini"_s), QSettings::IniFormat);
        AppSettings settings(&stored);
        ResponseLimits limits;
        limits.maxResponseBytes = 1 * ResponseLimits::MegaByte;
        settings.setResponseLimits(limits);
        // An answer of 2 MB, its text too long for the limit.
        m_server->setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respondJson(200, openAiCompletion(QString(2 * 1024 * 1024, u'x'), u"test-model"_s));
        });

        if (providerFirst)
            m_session->apply(m_session->setup().withProvider(profile(), apiKey));
        m_session->apply(SessionSetup::fromSettings(settings, m_session->setup()));
        if (!providerFirst)
            m_session->apply(m_session->setup().withProvider(profile(), apiKey));
        QCOMPARE(m_session->setup().limits, limits);

        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"hello"_s));
        QTRY_COMPARE(finished.size(), 1);
        const auto result = finished.first().first().value<TurnResult>();
        QCOMPARE(result.outcome, TurnOutcome::Failed);
        QVERIFY2(result.error.contains(u"response size limit of 1 MB"_s), qPrintable(result.error));
        QCOMPARE(m_server->requests().size(), 1); // not retried
    }

    void settingsReachTheSessionWithTheMcpServersSecretsFromTheKeychain()
    {
        QTemporaryDir dir;
        QSettings stored(dir.filePath(u"settings.ini"_s), QSettings::IniFormat);
        AppSettings settings(&stored);
        settings.setEnabledTools({u"calculator"_s});
        McpSettings mcpSettings(&stored);
        const McpServerConfig server = remoteServer(u"sk-first"_s);
        mcpSettings.setServers({server});
        DelayedSecretStore secrets;
        storeSecrets(server, &secrets);

        SettingsApplier applier(m_session.get(), &settings, &mcpSettings, &secrets);
        applier.apply();

        QCOMPARE(m_session->workbench()->names(), QStringList{u"calculator"_s});
        QTRY_COMPARE(m_session->mcp()->servers().size(), 1);
        QCOMPARE(m_session->mcp()->servers().first(), server);
        QCOMPARE(m_session->setup().mcpServers, QList<McpServerConfig>{server});
    }

    void anOlderKeychainReadNeverOverridesANewerApply()
    {
        QTemporaryDir dir;
        QSettings stored(dir.filePath(u"settings.ini"_s), QSettings::IniFormat);
        AppSettings settings(&stored);
        McpSettings mcpSettings(&stored);
        mcpSettings.setServers({remoteServer(u"sk-old"_s)});
        DelayedSecretStore secrets;
        storeSecrets(remoteServer(u"sk-old"_s), &secrets);
        SettingsApplier applier(m_session.get(), &settings, &mcpSettings, &secrets);

        secrets.m_delayMs = 300;
        applier.apply(); // still reading "sk-old" when the next apply starts
        const McpServerConfig newer = remoteServer(u"sk-new"_s);
        storeSecrets(newer, &secrets);
        secrets.m_delayMs = 0;
        applier.apply();

        QTRY_COMPARE(secrets.m_readsAnswered, 2);
        QCOMPARE(m_session->mcp()->servers(), QList<McpServerConfig>{newer});
    }

    void aKeychainThatRefusesTheMcpSecretsIsSaidAndTheServersStillArrive()
    {
        QTemporaryDir dir;
        QSettings stored(dir.filePath(u"settings.ini"_s), QSettings::IniFormat);
        AppSettings settings(&stored);
        McpSettings mcpSettings(&stored);
        mcpSettings.setServers({remoteServer(u"sk-lost"_s)});
        DelayedSecretStore secrets;
        secrets.m_error = u"No Secret Service is running."_s;
        SettingsApplier applier(m_session.get(), &settings, &mcpSettings, &secrets);
        QSignalSpy problems(&applier, &SettingsApplier::problem);

        applier.apply();

        QTRY_COMPARE(problems.size(), 1);
        QVERIFY2(problems.first().first().toString().contains(u"No Secret Service is running."_s),
                 qPrintable(problems.first().first().toString()));
        QCOMPARE(m_session->mcp()->servers().size(), 1);
        QCOMPARE(m_session->mcp()->servers().first().name, u"remote"_s);
    }

    void replayToolsAreTheBuiltInsOnTheSessionsWorkspace()
    {
        QTemporaryDir workspace;
        QFile file(workspace.filePath(u"note.txt"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("from the workspace");
        file.close();
        SessionSetup setup = m_session->setup();
        setup.tools = {{}, workspace.path()};
        m_session->apply(setup);

        const ReplayWorkbench::ToolProvider tools = m_session->replayTools();
        QVERIFY(!tools(u"no_such_tool"_s));
        const std::shared_ptr<const Tool> readFile = tools(u"read_file"_s);
        QVERIFY(readFile);
        ToolContext context;
        const ToolResult result = readFile->invoke({{u"path"_s, u"note.txt"_s}}, context);
        QVERIFY2(result.content.contains(u"from the workspace"_s), qPrintable(result.content));
    }

    void theDefaultWorkspaceIsMadeWhenATurnFirstOffersTheFileTools_data()
    {
        QTest::addColumn<QStringList>("tools");
        QTest::addColumn<bool>("makeWorkspace");
        QTest::addColumn<bool>("made");
        QTest::newRow("the default folder, file tools on") << QStringList{u"read_file"_s} << true << true;
        QTest::newRow("the default folder, run_command on") << QStringList{u"run_command"_s} << true << true;
        QTest::newRow("the default folder, no tool works in it")
            << QStringList{u"calculator"_s} << true << false;
        QTest::newRow("a chosen folder that is missing stays missing")
            << QStringList{u"read_file"_s} << false << false;
    }

    void theDefaultWorkspaceIsMadeWhenATurnFirstOffersTheFileTools()
    {
        QFETCH(QStringList, tools);
        QFETCH(bool, makeWorkspace);
        QFETCH(bool, made);
        QTemporaryDir documents;
        const QString folder = documents.filePath(u"Loopscope"_s);
        SessionSetup setup = m_session->setup().withProvider(profile(), apiKey);
        setup.tools = {tools, folder, false, makeWorkspace};
        m_session->apply(setup);
        QVERIFY2(!QFileInfo::exists(folder), "made before any turn");

        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"hello"_s));
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(QFileInfo(folder).isDir(), made);
    }

    void runCommandNeverShowsTheKey_data()
    {
        QTest::addColumn<bool>("toolsFirst");
        // The app applies its settings (the tools) before the keychain answers with the key.
        QTest::newRow("tools, then the provider") << true;
        QTest::newRow("the provider, then tools") << false;
    }
    void runCommandNeverShowsTheKey()
    {
        QFETCH(bool, toolsFirst);
        QTemporaryDir workspace;
        // The key as the keychain gave it, which a command can still find some other way.
        QFile file(workspace.filePath(u"leaked.txt"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(apiKey.toUtf8() + '\n');
        file.close();
        const QByteArray profileKey = "sk-profile-variable-0123456789";
        const QByteArray otherProvidersKey = "sk-ant-other-provider-0123456789";
        qputenv("LOOPSCOPE_SESSION_TEST_KEY", profileKey);
        const QByteArray savedAnthropic = qgetenv("ANTHROPIC_API_KEY");
        qputenv("ANTHROPIC_API_KEY", otherProvidersKey);
        ProviderProfile chosen = profile();
        chosen.apiKeyEnv = u"LOOPSCOPE_SESSION_TEST_KEY"_s;

        const auto applyTools = [this, &workspace] {
            SessionSetup setup = m_session->setup();
            setup.tools = {{u"run_command"_s}, workspace.path()};
            m_session->apply(setup);
        };
        if (toolsFirst)
            applyTools();
        m_session->apply(m_session->setup().withProvider(chosen, apiKey));
        if (!toolsFirst)
            applyTools();
        const std::shared_ptr<const Tool> tool = m_session->workbench()->find(u"run_command"_s);
        QVERIFY(tool);
        ToolContext context;
        const ToolResult result = tool->invoke(
            {{u"command"_s,
              u"env; echo \"[$LOOPSCOPE_SESSION_TEST_KEY][$ANTHROPIC_API_KEY]\"; cat leaked.txt"_s}},
            context);
        qunsetenv("LOOPSCOPE_SESSION_TEST_KEY");
        if (savedAnthropic.isNull())
            qunsetenv("ANTHROPIC_API_KEY");
        else
            qputenv("ANTHROPIC_API_KEY", savedAnthropic);

        const QByteArray recorded = result.content.toUtf8() + QJsonDocument(result.details).toJson();
        for (const QByteArray &secret : {profileKey, otherProvidersKey, apiKey.toUtf8()})
            QVERIFY2(!recorded.contains(secret), secret.constData());
        QVERIFY2(result.content.contains(u"\n[][]\n[redacted]\n"_s),
                 "the variables are unset, the key blanked");
    }

    // Not only the session's own key: the keys of the profiles its agents and model shields run on,
    // and its knowledge bases' embedding key, are the user's secrets too.
    void runCommandNeverShowsAKeyOfTheSessionsAgentsOrKnowledge()
    {
        QTemporaryDir workspace;
        const QByteArray agentsKey = "sk-agents-own-0123456789";
        const QByteArray agentsVariableKey = "sk-agents-variable-0123456789";
        const QByteArray embeddingKey = "sk-embedding-0123456789";
        QFile file(workspace.filePath(u"leaked.txt"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(agentsKey + '\n' + embeddingKey + '\n');
        file.close();
        qputenv("LOOPSCOPE_AGENTS_OWN_TEST_KEY", agentsVariableKey);
        ProviderProfile agentsProfile = profile();
        agentsProfile.name = u"Billing profile"_s;
        agentsProfile.apiKeyEnv = u"LOOPSCOPE_AGENTS_OWN_TEST_KEY"_s;
        AttachedKnowledgeBase notes;
        notes.name = u"notes"_s;
        notes.databasePath = workspace.filePath(u"notes.sqlite"_s);
        notes.embedding.model = u"embed-model"_s;
        notes.embedding.apiKey = QString::fromUtf8(embeddingKey);
        SessionSetup setup = m_session->setup().withProvider(profile(), apiKey);
        setup.tools = {{u"run_command"_s}, workspace.path()};
        setup.agentProviders.insert(agentsProfile.name,
                                    {agentsProfile, QString::fromUtf8(agentsKey), {}, 600'000});
        setup.knowledge = {notes};
        m_session->apply(setup);

        const std::shared_ptr<const Tool> tool = m_session->workbench()->find(u"run_command"_s);
        QVERIFY(tool);
        ToolContext context;
        const ToolResult result = tool->invoke(
            {{u"command"_s, u"env; echo \"[$LOOPSCOPE_AGENTS_OWN_TEST_KEY]\"; cat leaked.txt"_s}}, context);
        qunsetenv("LOOPSCOPE_AGENTS_OWN_TEST_KEY");

        const QByteArray recorded = result.content.toUtf8() + QJsonDocument(result.details).toJson();
        for (const QByteArray &secret : {agentsKey, agentsVariableKey, embeddingKey})
            QVERIFY2(!recorded.contains(secret), secret.constData());
        QVERIFY2(result.content.contains(u"\n[]\n[redacted]\n[redacted]\n"_s), qPrintable(result.content));
    }

    void withoutATurnThereIsNothingToForkOrReplay()
    {
        QCOMPARE(m_session->turnIndexAt(-1), -1);
        QString error;
        QVERIFY(!m_session->forkAt(-1, &error));
        QCOMPARE(error, u"There is nothing to fork yet."_s);
        QVERIFY(!m_session->recordedTurnAt(-1, &error));
        QCOMPARE(error, u"There is no turn to replay yet."_s);
    }

    void aNodeBelongsToItsTurnAndNoNodeMeansTheLastTurn()
    {
        runDemoTurn();
        m_session->apply(m_session->setup().withProvider(profile(), apiKey));
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"and again"_s));
        QTRY_COMPARE(finished.size(), 1);

        const Trace *trace = m_session->trace();
        QCOMPARE(trace->roots().size(), 2);
        const int firstTurn = trace->roots().at(0);
        QCOMPARE(m_session->turnIndexAt(firstTurn), 0);
        QCOMPARE(m_session->turnIndexAt(firstToolCall()), 0);
        QCOMPARE(m_session->turnIndexAt(trace->roots().at(1)), 1);
        QCOMPARE(m_session->turnIndexAt(-1), 1);
        QCOMPARE(m_session->turnIndexAt(trace->size() + 10), 1);
    }

    void forkingAtAStepKeepsItsWholeIterationAndAtATurnTheWholeTurn_data()
    {
        QTest::addColumn<bool>("atToolCall");
        QTest::addColumn<int>("messages");
        QTest::addColumn<Message::Role>("lastRole");
        // Iteration 1 asks for two tools at once: the question, the calls and both results.
        QTest::newRow("a tool call of iteration 1") << true << 4 << Message::Role::Tool;
        QTest::newRow("the turn: everything, up to the answer") << false << 7 << Message::Role::Assistant;
    }

    void forkingAtAStepKeepsItsWholeIterationAndAtATurnTheWholeTurn()
    {
        QFETCH(bool, atToolCall);
        QFETCH(int, messages);
        QFETCH(Message::Role, lastRole);
        runDemoTurn();
        QCOMPARE(m_session->agent()->history().size(), 7);

        const int node = atToolCall ? firstToolCall() : m_session->trace()->roots().constFirst();
        QString error;
        const std::optional<Transcript> fork = m_session->forkAt(node, &error);
        QVERIFY2(fork, qPrintable(error));
        QCOMPARE(fork->messages.size(), messages);
        QCOMPARE(fork->messages.constFirst().text, QString::fromUtf8(DemoConversation::question));
        QCOMPARE(fork->messages.constLast().role, lastRole);
        QCOMPARE(fork->tools, (QStringList{u"calculator"_s, u"current_time"_s}));
        // The session itself is untouched.
        QCOMPARE(m_session->agent()->history().size(), 7);
    }

    void theRecordingOfATurnIsWhatAReplayNeeds()
    {
        runDemoTurn();
        QString error;
        const std::optional<RecordedTurn> turn = m_session->recordedTurnAt(firstToolCall(), &error);
        QVERIFY2(turn, qPrintable(error));
        QCOMPARE(turn->turnIndex, 0);
        QCOMPARE(turn->userText, QString::fromUtf8(DemoConversation::question));
        QCOMPARE(turn->modelCalls.size(), 3);
        QCOMPARE(turn->toolCalls.size(), 3);
        QVERIFY2(turn->notReplayable.isEmpty(), qPrintable(turn->notReplayable));
    }

    // Ollama's num_ctx, the window the session shows and the one the loop fits each request into
    // are one number: what /api/show says, a trained length capped, a Modelfile's num_ctx kept.
    void ollamaIsSentTheWindowApiShowGivesAndTheLoopFitsRequestsToIt_data()
    {
        QTest::addColumn<std::optional<qint64>>("contextLength");
        QTest::addColumn<std::optional<qint64>>("modelfileNumCtx");
        QTest::addColumn<qint64>("window");
        QTest::newRow("a trained length under the cap")
            << std::optional<qint64>(8'192) << std::optional<qint64>() << qint64(8'192);
        QTest::newRow("a trained length over the cap")
            << std::optional<qint64>(131'072) << std::optional<qint64>()
            << ContextWindowChoice::OllamaWindowCap;
        QTest::newRow("the Modelfile's num_ctx")
            << std::optional<qint64>(131'072) << std::optional<qint64>(65'536) << qint64(65'536);
    }

    void ollamaIsSentTheWindowApiShowGivesAndTheLoopFitsRequestsToIt()
    {
        QFETCH(std::optional<qint64>, contextLength);
        QFETCH(std::optional<qint64>, modelfileNumCtx);
        QFETCH(qint64, window);
        ModelInfoRoutes routes;
        routes.contextLength = contextLength;
        routes.modelfileNumCtx = modelfileNumCtx;
        routes.install(*m_server);
        QSignalSpy windowChanged(m_session.get(), &ChatSession::contextWindowChanged);
        m_session->apply(m_session->setup().withProvider(serverProfile(ProviderKind::Ollama), QString()));
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);

        QVERIFY(m_session->send(u"hello"_s));
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(finished.first().first().value<TurnResult>().text, u"Hi"_s);

        QCOMPARE(windowChanged.size(), 1);
        QCOMPARE(m_session->contextWindow(), std::optional<qint64>(window));
        QCOMPARE(m_session->agent()->config().model.contextWindow, std::optional<qint64>(window));
        const QList<HttpRequestRecord> chats = requestsTo(*m_server, "/api/chat");
        QCOMPARE(chats.size(), 1);
        QCOMPARE(chats.constFirst().json()[u"options"_s][u"num_ctx"_s].toInteger(), window);
        QCOMPARE(recordedWindow(), std::optional<qint64>(window));
        // Asked once for the session: the next turn does not ask again.
        QVERIFY(m_session->send(u"again"_s));
        QTRY_COMPARE(finished.size(), 2);
        QCOMPARE(requestsTo(*m_server, "/api/show").size(), 1);
        QCOMPARE(
            requestsTo(*m_server, "/api/chat").constLast().json()[u"options"_s][u"num_ctx"_s].toInteger(),
            window);
    }

    // What is checked before sending is the provider's window: a question larger than it never goes out.
    void aQuestionLargerThanTheWindowApiShowGivesIsRefusedBeforeSending()
    {
        ModelInfoRoutes routes;
        routes.contextLength = 100;
        routes.install(*m_server);
        m_session->apply(m_session->setup().withProvider(serverProfile(ProviderKind::Ollama), QString()));
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);

        QVERIFY(m_session->send(QString(2000, u'x')));
        QTRY_COMPARE(finished.size(), 1);

        const auto result = finished.first().first().value<TurnResult>();
        QCOMPARE(result.outcome, TurnOutcome::Failed);
        QVERIFY2(result.error.contains(u"context window holds 100"_s), qPrintable(result.error));
        QCOMPARE(requestsTo(*m_server, "/api/chat").size(), 0);
    }

    void geminisWindowIsItsInputTokenLimit()
    {
        ModelInfoRoutes routes;
        routes.contextLength = 2'000'000;
        routes.install(*m_server);
        m_session->apply(m_session->setup().withProvider(serverProfile(ProviderKind::Gemini), apiKey));
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);

        QVERIFY(m_session->send(u"hello"_s));
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(finished.first().first().value<TurnResult>().text, u"Hi"_s);

        QCOMPARE(m_session->contextWindow(), std::optional<qint64>(2'000'000));
        QCOMPARE(recordedWindow(), std::optional<qint64>(2'000'000));
        const QList<HttpRequestRecord> requests = m_server->requests();
        QCOMPARE(requests.size(), 2);
        QCOMPARE(requests.constFirst().path, "/v1beta/models/gemini-2.5-flash"_ba);
    }

    // --context-window (the loop's) and the profile's own window win; the provider is not even asked.
    void aWindowTheLoopOrTheProfileGivesWinsWithoutAskingTheProvider_data()
    {
        QTest::addColumn<std::optional<qint64>>("loopWindow");
        QTest::addColumn<std::optional<qint64>>("profileWindow");
        QTest::addColumn<qint64>("window");
        QTest::newRow("--context-window")
            << std::optional<qint64>(7'000) << std::optional<qint64>(6'000) << qint64(7'000);
        QTest::newRow("the profile's window")
            << std::optional<qint64>() << std::optional<qint64>(6'000) << qint64(6'000);
    }

    void aWindowTheLoopOrTheProfileGivesWinsWithoutAskingTheProvider()
    {
        QFETCH(std::optional<qint64>, loopWindow);
        QFETCH(std::optional<qint64>, profileWindow);
        QFETCH(qint64, window);
        ModelInfoRoutes routes;
        routes.contextLength = 8'192;
        routes.install(*m_server);
        ProviderProfile ollama = serverProfile(ProviderKind::Ollama);
        ollama.contextWindow = profileWindow;
        SessionSetup setup = m_session->setup().withProvider(ollama, QString());
        setup.loop.model.contextWindow = loopWindow;
        m_session->apply(setup);
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);

        QVERIFY(m_session->send(u"hello"_s));
        QTRY_COMPARE(finished.size(), 1);

        QCOMPARE(requestsTo(*m_server, "/api/show").size(), 0);
        QCOMPARE(
            requestsTo(*m_server, "/api/chat").constFirst().json()[u"options"_s][u"num_ctx"_s].toInteger(),
            window);
        QCOMPARE(recordedWindow(), std::optional<qint64>(window));
    }

    // A provider that fails or never answers holds the first turn no longer than the lookup's
    // timeout; the window is then the price table's, and nobody is told of an error.
    void aFailingOrSilentProviderFallsBackToTheTableWithoutHoldingTheTurn_data()
    {
        QTest::addColumn<ModelInfoRoutes::Answer>("answer");
        QTest::newRow("an error") << ModelInfoRoutes::Answer::Error;
        QTest::newRow("no answer") << ModelInfoRoutes::Answer::Stall;
    }

    void aFailingOrSilentProviderFallsBackToTheTableWithoutHoldingTheTurn()
    {
        QFETCH(ModelInfoRoutes::Answer, answer);
        ModelInfoRoutes routes;
        routes.answer = answer;
        routes.contextLength = 2'000'000;
        routes.install(*m_server);
        m_session->setContextWindowLookupTimeoutMs(300);
        QSignalSpy notices(m_session.get(), &ChatSession::notice);
        const ProviderProfile gemini = serverProfile(ProviderKind::Gemini);
        m_session->apply(m_session->setup().withProvider(gemini, apiKey));
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);

        QVERIFY(m_session->send(u"hello"_s));
        QTRY_COMPARE(finished.size(), 1);

        QCOMPARE(finished.first().first().value<TurnResult>().text, u"Hi"_s);
        const std::optional<qint64> table
            = PriceTable::builtIn().contextWindow(u"gemini"_s, gemini.model, gemini.effectiveBaseUrl());
        QVERIFY(table);
        QCOMPARE(m_session->contextWindow(), table);
        QCOMPARE(recordedWindow(), table);
        QCOMPARE(notices.size(), 0);
    }

    void anAgentOnAProfileOfItsOwnSendsItsTurnsToThatProfilesServer()
    {
        FakeHttpServer other;
        QVERIFY(other.listen());
        const ProviderProfile otherProfile = answeringProfile(other);
        SessionSetup setup = m_session->setup().withProvider(profile(), apiKey);
        setup.agents = handoffRoster();
        setup.agents.agents[0].provider = u"Other"_s;
        setup.agent = u"triage"_s;
        setup.agentProviders.insert(u"Other"_s, {otherProfile, u"sk-other-0123456789"_s, {}, 600'000});
        m_session->apply(setup);
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);

        QVERIFY(m_session->send(u"hello"_s));
        QTRY_COMPARE(finished.size(), 1);

        QVERIFY(m_server->requests().isEmpty());
        QCOMPARE(other.requests().size(), 1);
        QCOMPARE(other.requests().constFirst().header("authorization"), "Bearer sk-other-0123456789"_ba);
        QCOMPARE(other.requests().constFirst().json().value(u"model"_s).toString(), u"other-model"_s);
        // The toolbar still names the session's own choice, which the default agent goes back to.
        QCOMPARE(m_session->provider()->name, u"Local test"_s);
        setup.agent.clear();
        m_session->apply(setup);
        QVERIFY(m_session->send(u"again"_s));
        QTRY_COMPARE(finished.size(), 2);
        QCOMPARE(m_server->requests().size(), 1);
    }

    void aHandoffToAnAgentOnAProfileOfItsOwnGoesOnOnThatProfilesServer()
    {
        FakeHttpServer other;
        QVERIFY(other.listen());
        ProviderProfile otherProfile = answeringProfile(other);
        // Each profile prices its own calls: the status bar and the trace must not price billing's
        // calls as the session's.
        otherProfile.inputPricePerMTok = 100;
        otherProfile.outputPricePerMTok = 200;
        // And its sampling defaults and context window are its own, not the session's.
        otherProfile.defaults.temperature = 0.7;
        otherProfile.contextWindow = 50'000;
        ProviderProfile sessions = profile();
        sessions.inputPricePerMTok = 1;
        sessions.outputPricePerMTok = 2;
        useTriageWithBillingOn(sessions, otherProfile);
        // Triage hands the first question off; it answers the second itself.
        m_server->setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            const QJsonArray messages = request.json().value(u"messages"_s).toArray();
            if (messages.last()[u"content"_s].toString() == u"And another thing") {
                exchange.respondJson(200, openAiCompletion(u"triage answers"_s, u"test-model"_s));
                return;
            }
            const ToolCall call{u"h1"_s, u"transfer_to_billing"_s, uR"({"reason":"an invoice"})"_s, {}};
            exchange.respondJson(200, openAiToolCallCompletion({call}, u"test-model"_s));
        });
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);

        QVERIFY(m_session->send(u"I was charged twice"_s));
        QTRY_COMPARE(finished.size(), 1);

        // Triage asked on the session's server, billing from the next request on its own profile's.
        QCOMPARE(m_server->requests().size(), 1);
        QCOMPARE(other.requests().size(), 1);
        const HttpRequestRecord &handedTo = other.requests().constFirst();
        QCOMPARE(handedTo.header("authorization"), "Bearer sk-other-0123456789"_ba);
        QCOMPARE(handedTo.json().value(u"messages"_s).toArray().at(0)[u"content"_s].toString(),
                 u"You answer invoices."_s);
        QCOMPARE(handedTo.json().value(u"model"_s).toString(), u"billing-model"_s);
        QCOMPARE(handedTo.json().value(u"temperature"_s).toDouble(), 0.7);
        QVERIFY(!m_server->requests().constFirst().json().contains(u"temperature"_s));
        const auto result = finished.constFirst().constFirst().value<TurnResult>();
        QCOMPARE(result.agent, u"billing"_s);
        QCOMPARE(result.text, u"from the other server"_s);
        QList<double> inputPrices;
        QList<std::optional<qint64>> windows;
        for (int id = 0; id < m_session->trace()->size(); ++id) {
            const TraceNode &node = m_session->trace()->node(id);
            if (node.kind != TraceKind::ModelCall)
                continue;
            windows.append(node.data<ModelCallData>().request.options().contextWindow);
            if (node.data<ModelCallData>().cost)
                inputPrices.append(node.data<ModelCallData>().cost->basis.inputPerMTok);
        }
        QCOMPARE(inputPrices, (QList<double>{1, 100}));
        QCOMPARE(windows.size(), 2);
        QCOMPARE(windows.at(1), std::optional<qint64>(50'000));

        // The next turn starts as triage again, on the session's server.
        QVERIFY(m_session->send(u"And another thing"_s));
        QTRY_COMPARE(finished.size(), 2);
        QCOMPARE(m_server->requests().size(), 2);
        QCOMPARE(other.requests().size(), 1);
        QCOMPARE(finished.at(1).constFirst().value<TurnResult>().agent, u"triage"_s);
    }

    // The status bar's gauge measures the request against the window of the model that gets it:
    // while billing answers on its own profile, billing's; once the turn is over, the session's again.
    void whileAnAgentOnAProfileOfItsOwnAnswersTheContextWindowIsItsModels()
    {
        FakeHttpServer other;
        QVERIFY(other.listen());
        ProviderProfile otherProfile = answeringProfile(other);
        otherProfile.contextWindow = 50'000;
        QList<QPointer<HttpExchange>> held;
        other.setHandler(
            [&held](const HttpRequestRecord &, HttpExchange &exchange) { held.append(&exchange); });
        ProviderProfile sessions = profile();
        sessions.contextWindow = 8'000;
        useTriageWithBillingOn(sessions, otherProfile);
        m_server->setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            const ToolCall call{u"h1"_s, u"transfer_to_billing"_s, uR"({"reason":"an invoice"})"_s, {}};
            exchange.respondJson(200, openAiToolCallCompletion({call}, u"test-model"_s));
        });
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QCOMPARE(m_session->contextWindow(), std::optional<qint64>(8'000));

        QVERIFY(m_session->send(u"I was charged twice"_s));
        QTRY_COMPARE(held.size(), 1);
        QCOMPARE(m_session->contextWindow(), std::optional<qint64>(50'000));

        held.constFirst()->respondJson(200, openAiCompletion(u"from the other server"_s, u"other-model"_s));
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(m_session->contextWindow(), std::optional<qint64>(8'000));
    }

    void aModelShieldOnAProfileOfItsOwnIsAskedOnThatProfilesServer_data()
    {
        QTest::addColumn<bool>("agentsOwn");
        QTest::newRow("the session's shields (Settings → Loop)") << false;
        QTest::newRow("the agent's shields") << true;
    }

    // Llama Guard on a local Ollama while the agent talks to an OpenAI-compatible server.
    void aModelShieldOnAProfileOfItsOwnIsAskedOnThatProfilesServer()
    {
        QFETCH(bool, agentsOwn);
        FakeHttpServer guardServer;
        QVERIFY(guardServer.listen());
        guardServer.setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (request.path != "/api/chat") {
                exchange.respondJson(404, QJsonObject{{u"error"_s, u"not here"_s}});
                return;
            }
            exchange.respondJson(200, ModelInfoRoutes::ollamaChat(request, u"safe"_s, 40, 1));
        });
        ProviderProfile guardProfile;
        guardProfile.id = u"guard-profile"_s;
        guardProfile.name = u"Guard"_s;
        guardProfile.kind = ProviderKind::Ollama;
        guardProfile.baseUrl = guardServer.baseUrl();
        guardProfile.model = u"llama-guard3:1b"_s;
        // Its checks cost what the guard's profile says, not what the session's does.
        guardProfile.inputPricePerMTok = 3;
        guardProfile.outputPricePerMTok = 4;
        ModelShield guard;
        guard.provider = u"Guard"_s; // and no model: the profile's
        SessionSetup setup = m_session->setup().withProvider(profile(), apiKey);
        if (agentsOwn) {
            AgentPreset agent;
            agent.name = u"careful"_s;
            agent.instructions = u"Help."_s;
            agent.shields = AgentShields{{}, guard};
            setup.agents.agents = {agent};
            setup.agent = u"careful"_s;
        } else {
            setup.loop.shields.model = guard;
        }
        setup.agentProviders.insert(u"Guard"_s, {guardProfile, QString(), {}, 600'000});
        m_session->apply(setup);
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);

        QVERIFY(m_session->send(u"hello"_s));
        QTRY_COMPARE(finished.size(), 1);

        const auto result = finished.constFirst().constFirst().value<TurnResult>();
        QCOMPARE(result.outcome, TurnOutcome::Answered);
        QCOMPARE(result.text, u"You said: hello"_s);
        // The question and the answer were judged on the guard's server, the answer written on the session's.
        QCOMPARE(m_server->requests().size(), 1);
        const QList<HttpRequestRecord> checks = requestsTo(guardServer, "/api/chat");
        QCOMPARE(checks.size(), 2);
        QCOMPARE(guardServer.requests().size(), 2);
        for (const HttpRequestRecord &check : checks) {
            QCOMPARE(check.json().value(u"model"_s).toString(), u"llama-guard3:1b"_s);
            QVERIFY(check.json()
                        .value(u"messages"_s)
                        .toArray()
                        .last()[u"content"_s]
                        .toString()
                        .contains(u"<BEGIN CONVERSATION>"_s));
            QVERIFY(check.header("authorization").isEmpty()); // the session's key stays with its server
        }
        // The trace names where each check's call really went, and the agent's own call where it went.
        const Trace &trace = *m_session->trace();
        QStringList calls;
        for (int id = 0; id < trace.size(); ++id) {
            const TraceNode &node = trace.node(id);
            if (node.kind != TraceKind::ModelCall)
                continue;
            const auto &call = node.data<ModelCallData>();
            const bool underCheck = trace.node(node.parent).kind == TraceKind::ShieldCheck;
            calls.append((underCheck ? u"check "_s : u"answer "_s) + call.provider + u' ' + call.model);
            if (underCheck) {
                QVERIFY(call.cost);
                QCOMPARE(call.cost->basis.inputPerMTok, 3.0);
            } else {
                QVERIFY(!call.cost || call.cost->basis.inputPerMTok != 3.0);
            }
        }
        QCOMPARE(calls, (QStringList{u"check ollama llama-guard3:1b"_s, u"answer openai test-model"_s,
                                     u"check ollama llama-guard3:1b"_s}));
        QVERIFY(!QJsonDocument(trace.toJson()).toJson().contains(apiKey.toUtf8()));

        // The next turn is asked on the session's client again, before and after its checks.
        QVERIFY(m_session->send(u"again"_s));
        QTRY_COMPARE(finished.size(), 2);
        QCOMPARE(m_server->requests().size(), 2);
        QCOMPARE(requestsTo(guardServer, "/api/chat").size(), 4);
    }

    void aModelShieldOnAProfileThatIsGoneIsUnclearSayingSoAndAsksNoOtherServer_data()
    {
        QTest::addColumn<bool>("allowUnclear");
        QTest::newRow("unclear blocks") << false;
        QTest::newRow("unclear allows") << true;
    }

    void aModelShieldOnAProfileThatIsGoneIsUnclearSayingSoAndAsksNoOtherServer()
    {
        QFETCH(bool, allowUnclear);
        ModelShield guard;
        guard.provider = u"Gone"_s;
        guard.model = u"llama-guard3:1b"_s;
        guard.stages = {ShieldStage::Input};
        guard.unclear = allowUnclear ? ModelShield::Unclear::Allow : ModelShield::Unclear::Block;
        SessionSetup setup = m_session->setup().withProvider(profile(), apiKey);
        setup.loop.shields.model = guard;
        m_session->apply(setup);
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);

        QVERIFY(m_session->send(u"hello"_s));
        QTRY_COMPARE(finished.size(), 1);

        const auto result = finished.constFirst().constFirst().value<TurnResult>();
        QCOMPARE(result.outcome, allowUnclear ? TurnOutcome::Answered : TurnOutcome::Blocked);
        // Never judged on the session's server: only the answer, when unclear allows it, went there.
        QCOMPARE(m_server->requests().size(), allowUnclear ? 1 : 0);
        if (allowUnclear)
            QVERIFY(!m_server->requests().constFirst().body.contains("BEGIN CONVERSATION"));
        else
            QVERIFY2(result.error.contains(u"\"Gone\" does not exist"_s), qPrintable(result.error));
        const Trace &trace = *m_session->trace();
        QString reason;
        for (int id = 0; id < trace.size(); ++id) {
            if (trace.node(id).kind == TraceKind::ShieldCheck)
                reason = trace.node(id).data<ShieldCheckData>().reason;
        }
        QVERIFY2(reason.contains(u"The provider profile \"Gone\" does not exist"_s), qPrintable(reason));
    }

    void aSubAgentOnAProfileOfItsOwnIsAskedOnThatProfilesServer()
    {
        FakeHttpServer other;
        QVERIFY(other.listen());
        const ProviderProfile otherProfile = answeringProfile(other);
        AgentPreset lead;
        lead.name = u"lead"_s;
        lead.instructions = u"You lead."_s;
        lead.subagents = {u"researcher"_s};
        AgentPreset researcher;
        researcher.name = u"researcher"_s;
        researcher.instructions = u"You research."_s;
        researcher.provider = u"Other"_s;
        SessionSetup setup = m_session->setup().withProvider(profile(), apiKey);
        setup.agents.agents = {lead, researcher};
        setup.agent = u"lead"_s;
        setup.agentProviders.insert(u"Other"_s, {otherProfile, u"sk-other-0123456789"_s, {}, 600'000});
        m_session->apply(setup);
        m_server->setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (request.json().value(u"messages"_s).toArray().size() == 2) {
                const ToolCall call{u"s1"_s, u"ask_researcher"_s, uR"({"task":"look"})"_s, {}};
                exchange.respondJson(200, openAiToolCallCompletion({call}, u"test-model"_s));
            } else {
                exchange.respondJson(200, openAiCompletion(u"done"_s, u"test-model"_s));
            }
        });
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);

        QVERIFY(m_session->send(u"find it"_s));
        QTRY_COMPARE(finished.size(), 1);

        QCOMPARE(m_server->requests().size(), 2);
        QCOMPARE(other.requests().size(), 1);
        const QJsonObject asked = other.requests().constFirst().json();
        QCOMPARE(asked.value(u"model"_s).toString(), u"other-model"_s);
        QCOMPARE(asked.value(u"messages"_s).toArray().at(0)[u"content"_s].toString(), u"You research."_s);
    }

    void anAgentOnAProfileThatIsGoneFailsSayingSoAndReachesNoOtherServer()
    {
        SessionSetup setup = m_session->setup().withProvider(profile(), apiKey);
        setup.agents = handoffRoster();
        setup.agents.agents[0].provider = u"Deleted"_s;
        setup.agent = u"triage"_s;
        m_session->apply(setup);
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);

        QVERIFY(m_session->send(u"hello"_s));
        QTRY_COMPARE(finished.size(), 1);

        const auto result = finished.first().first().value<TurnResult>();
        QCOMPARE(result.outcome, TurnOutcome::Failed);
        QVERIFY2(result.error.contains(u"\"Deleted\""_s), qPrintable(result.error));
        QVERIFY(m_server->requests().isEmpty());
    }

    void theSessionsOwnPromptAndItsAgentComeBackOnReopening()
    {
        SessionSetup setup = m_session->setup().withProvider(profile(), apiKey);
        setup.agents = handoffRoster();
        setup.agent = u"triage"_s;
        setup.sessionPrompt = u"Answer in one word."_s;
        m_session->apply(setup);
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"hello"_s));
        QTRY_COMPARE(finished.size(), 1);
        const QJsonArray sent = m_server->requests().constLast().json().value(u"messages"_s).toArray();
        QCOMPARE(sent.at(0)[u"content"_s].toString(), u"Answer in one word."_s);
        QCOMPARE(setup.agents.find(u"triage"_s)->instructions,
                 u"You route questions."_s); // the agent unchanged

        const TranscriptLoadResult reread
            = TranscriptFile::parse(TranscriptFile::serialize(m_session->toTranscript()));
        QVERIFY2(reread.transcript, qPrintable(reread.error));
        ChatSession reopened(m_network.get());
        SessionSetup fresh = reopened.setup().withProvider(profile(), apiKey);
        fresh.loop.model.stream = false;
        fresh.agents = handoffRoster(); // the window's agents, as the chooser hands them over
        reopened.apply(fresh);
        QVERIFY(reopened.restore(*reread.transcript));

        QCOMPARE(reopened.setup().agent, u"triage"_s);
        QCOMPARE(reopened.setup().sessionPrompt, std::optional<QString>(u"Answer in one word."_s));
        QCOMPARE(reopened.agentConfig().maxIterations, 3); // the agent's own limit
        QSignalSpy reopenedFinished(reopened.agent(), &Agent::turnFinished);
        QVERIFY(reopened.send(u"again"_s));
        QTRY_COMPARE(reopenedFinished.size(), 1);
        const QJsonArray next = m_server->requests().constLast().json().value(u"messages"_s).toArray();
        QCOMPARE(next.at(0)[u"content"_s].toString(), u"Answer in one word."_s);
        // A new conversation starts without this one's prompt.
        QVERIFY(reopened.clear());
        QVERIFY(!reopened.setup().sessionPrompt);
        QCOMPARE(reopened.agent()->config().systemPrompt, u"You route questions."_s);
    }

signals:
    void keychainWritten();

private:
    // The demo's three-iteration turn: two tools in parallel, one more, an answer.
    void runDemoTurn()
    {
        DemoConversation::install(*m_server, 0);
        AgentConfig streamed = m_session->agentConfig();
        streamed.model.stream = true; // the demo speaks SSE
        m_session->apply(m_session->setup().withProvider(profile(), apiKey));
        SessionSetup setup = m_session->setup();
        setup.loop = streamed;
        setup.tools = {{u"calculator"_s, u"current_time"_s}, QDir::tempPath()};
        m_session->apply(setup);
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(QString::fromUtf8(DemoConversation::question)));
        QTRY_COMPARE(finished.size(), 1);
        const auto result = finished.first().first().value<TurnResult>();
        QVERIFY2(result.outcome == TurnOutcome::Answered, qPrintable(result.error));
    }

    // The first tool call in the trace: a step of the first turn's iteration 1.
    int firstToolCall() const
    {
        const Trace *trace = m_session->trace();
        for (int node = 0; node < trace->size(); ++node) {
            if (std::holds_alternative<ToolCallData>(trace->node(node).payload))
                return node;
        }
        return -1;
    }

    // triage may hand the turn to billing, and billing back.
    static AgentRoster handoffRoster()
    {
        AgentPreset triage;
        triage.name = u"triage"_s;
        triage.instructions = u"You route questions."_s;
        triage.tools = QStringList{u"calculator"_s};
        triage.handoffs = {u"billing"_s};
        triage.maxIterations = 3;
        AgentPreset billing;
        billing.name = u"billing"_s;
        billing.instructions = u"You answer invoices."_s;
        billing.model = u"billing-model"_s;
        billing.tools = QStringList{u"current_time"_s};
        billing.handoffs = {u"triage"_s};
        AgentRoster roster;
        roster.agents = {triage, billing};
        return roster;
    }

    // A profile for \a kind that reaches the fake server at its root (Ollama's and Gemini's routes).
    ProviderProfile serverProfile(ProviderKind kind) const
    {
        ProviderProfile profile;
        profile.id = u"session-"_s + providerKindName(kind);
        profile.name = providerKindName(kind);
        profile.kind = kind;
        profile.baseUrl = m_server->baseUrl();
        profile.model = kind == ProviderKind::Gemini ? u"gemini-2.5-flash"_s : u"qwen2.5:7b"_s;
        return profile;
    }

    // The window the last model call's request was fitted into, as the trace recorded it.
    std::optional<qint64> recordedWindow() const
    {
        const Trace *trace = m_session->trace();
        for (int node = trace->size() - 1; node >= 0; --node) {
            if (const auto *call = std::get_if<ModelCallData>(&trace->node(node).payload))
                return call->request.options().contextWindow;
        }
        return std::nullopt;
    }

    // A profile "Other" with the model "other-model" on \a server, which then answers every request.
    // The session on \a sessions as triage, which hands off to billing, which runs on \a billings
    // (a profile of its own named "Other").
    void useTriageWithBillingOn(const ProviderProfile &sessions, const ProviderProfile &billings)
    {
        SessionSetup setup = m_session->setup().withProvider(sessions, apiKey);
        setup.agents = handoffRoster();
        for (AgentPreset &agent : setup.agents.agents) {
            if (agent.name == u"billing")
                agent.provider = u"Other"_s;
        }
        setup.agent = u"triage"_s;
        setup.agentProviders.insert(u"Other"_s, {billings, u"sk-other-0123456789"_s, {}, 600'000});
        m_session->apply(setup);
    }

    ProviderProfile answeringProfile(FakeHttpServer &server) const
    {
        server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respondJson(200, openAiCompletion(u"from the other server"_s, u"other-model"_s));
        });
        ProviderProfile other = profile();
        other.name = u"Other"_s;
        other.baseUrl = server.baseUrl().resolved(QUrl(u"/v1"_s));
        other.model = u"other-model"_s;
        return other;
    }

    ProviderProfile profile() const
    {
        ProviderProfile profile;
        profile.id = u"session-test"_s;
        profile.name = u"Local test"_s;
        profile.kind = ProviderKind::OpenAi;
        profile.baseUrl = m_server->baseUrl().resolved(QUrl(u"/v1"_s));
        profile.model = u"test-model"_s;
        return profile;
    }
};

QTEST_GUILESS_MAIN(ChatSessionTest)
#include "tst_chatsession.moc"
