#include "agent/config/profilepricing.h"
#include "agent/loop/agent.h"
#include "agent/model/modelcost.h"
#include "agent/model/pricetable.h"
#include "agent/session/chatsession.h"
#include "agent/session/contextgauge.h"
#include "agent/session/conversationrows.h"
#include "agent/tools/workbench.h"
#include "agent/trace/trace.h"
#include "agent/trace/tracecost.h"
#include "agent/trace/tracemodel.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/openaicompletion.h"
#include "tests/support/scriptedmodelclient.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 T0 = 1'700'000'000'000'000;

PriceBasis basis(double input, double output, std::optional<double> cacheRead = {},
                 std::optional<double> cacheWrite = {})
{
    PriceBasis price;
    price.inputPerMTok = input;
    price.outputPerMTok = output;
    price.cacheReadPerMTok = cacheRead;
    price.cacheWritePerMTok = cacheWrite;
    price.source = u"test"_s;
    return price;
}

// A small table in the snapshot's format (testprices.json), so the matching tests do not move
// with a price refresh.
PriceTable testTable()
{
    QFile file(QStringLiteral(LOOPSCOPE_COST_TEST_DIR "/testprices.json"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("The test price table is missing: %s", qPrintable(file.fileName()));
    QString error;
    const std::optional<PriceTable> table = PriceTable::fromJson(file.readAll(), &error);
    if (!table)
        qFatal("The test price table does not load: %s", qPrintable(error));
    return *table;
}

// A finished model call under \a parent that used \a usage and cost \a cost (when set).
int addCall(Trace &trace, int parent, TokenUsage usage, std::optional<double> cost,
            TraceStatus status = TraceStatus::Ok)
{
    ModelCallData call;
    call.provider = u"openai"_s;
    call.model = u"gpt-4o"_s;
    call.response.usage = usage;
    if (cost)
        call.cost = ModelCost{*cost, basis(1, 1)};
    const int id = trace.begin(parent, TraceKind::ModelCall, u"chat gpt-4o"_s, T0, call);
    trace.finish(id, status, T0 + 1000);
    return id;
}

} // namespace

Q_DECLARE_METATYPE(Loopscope::TokenUsage)
Q_DECLARE_METATYPE(Loopscope::PriceBasis)
Q_DECLARE_METATYPE(Loopscope::ProviderProfile)

class CostTest : public QObject
{
    Q_OBJECT

private slots:
    void aCallCostsItsTokensAtTheirPrices_data()
    {
        QTest::addColumn<TokenUsage>("usage");
        QTest::addColumn<PriceBasis>("price");
        QTest::addColumn<double>("expected");
        // 1000 × $2.5/M + 500 × $10/M
        QTest::newRow("input and output") << TokenUsage{1000, 500} << basis(2.5, 10) << 0.0075;
        // 600 × $3/M + 400 cached × $0.3/M
        QTest::newRow("cache reads at their price")
            << TokenUsage{1000, 0, 400, 0} << basis(3, 15, 0.3) << 0.00192;
        // 500 × $3/M + 100 × $15/M + 300 × $0.3/M + 200 × $3.75/M
        QTest::newRow("cache reads and writes")
            << TokenUsage{1000, 100, 300, 200} << basis(3, 15, 0.3, 3.75) << 0.00384;
        QTest::newRow("cached tokens without a cache price cost as input")
            << TokenUsage{1000, 0, 500, 0} << basis(2, 8) << 0.002;
        QTest::newRow("a local model costs nothing") << TokenUsage{5000, 700} << basis(0, 0) << 0.0;
    }

    void aCallCostsItsTokensAtTheirPrices()
    {
        QFETCH(TokenUsage, usage);
        QFETCH(PriceBasis, price);
        QFETCH(double, expected);
        const ModelCost cost = CostCalculator::cost(usage, price);
        QVERIFY2(qAbs(cost.usd - expected) < 1e-12, qPrintable(QString::number(cost.usd, 'g', 12)));
        QCOMPARE(cost.basis, price);
    }

    void costsAddUpPerIterationTurnAndSession()
    {
        Trace trace;
        const int turn1 = trace.begin(-1, TraceKind::Turn, u"turn 1"_s, T0, TurnData{});
        const int iteration1 = trace.begin(turn1, TraceKind::Iteration, u"1"_s, T0, IterationData{1});
        const int callA = addCall(trace, iteration1, {1000, 100}, 0.01);
        const int tool = trace.begin(iteration1, TraceKind::ToolCall, u"calculator"_s, T0, ToolCallData{});
        const int iteration2 = trace.begin(turn1, TraceKind::Iteration, u"2"_s, T0, IterationData{2});
        addCall(trace, iteration2, {1200, 50}, 0.02);
        const int turn2 = trace.begin(-1, TraceKind::Turn, u"turn 2"_s, T0, TurnData{});
        const int iteration3 = trace.begin(turn2, TraceKind::Iteration, u"1"_s, T0, IterationData{1});
        const int unpriced = addCall(trace, iteration3, {10, 5}, std::nullopt);
        addCall(trace, iteration3, {10, 5}, 0.005);
        const int turn3 = trace.begin(-1, TraceKind::Turn, u"turn 3"_s, T0, TurnData{});
        const int failed = addCall(trace, turn3, {}, std::nullopt, TraceStatus::Error);

        QCOMPARE(traceCost(trace, callA), (CostSum{0.01, 1, 0}));
        QCOMPARE(traceCost(trace, iteration1), (CostSum{0.01, 1, 0}));
        const CostSum first = traceCost(trace, turn1);
        QCOMPARE(first.pricedCalls, 2);
        QVERIFY(qAbs(first.usd - 0.03) < 1e-12);
        const CostSum second = traceCost(trace, turn2);
        QVERIFY(second.isPartial());
        QVERIFY(qAbs(second.usd - 0.005) < 1e-12);
        QCOMPARE(traceCost(trace, turn3), CostSum{}); // a failed call reported no usage: nothing to price
        const CostSum session = sessionCost(trace);
        QCOMPARE(session.pricedCalls, 3);
        QCOMPARE(session.unpricedCalls, 1);
        QVERIFY(qAbs(session.usd - 0.035) < 1e-12);

        TraceModel model(&trace);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto costText = [&model](int id) {
            return model.data(model.indexForNode(id, TraceModel::CostColumn)).toString();
        };
        QCOMPARE(model.headerData(TraceModel::CostColumn, Qt::Horizontal).toString(), u"Cost"_s);
        QCOMPARE(costText(turn1), u"$0.0300"_s);
        QCOMPARE(costText(iteration2), u"$0.0200"_s);
        QCOMPARE(costText(turn2), u"≥$0.0050"_s); // one call had no price: at least this much
        QCOMPARE(costText(unpriced), u"—"_s);     // unknown, never $0
        QCOMPARE(costText(failed), QString());
        QCOMPARE(costText(tool), QString());
        QVERIFY(!model.data(model.indexForNode(unpriced, TraceModel::CostColumn), TraceModel::CostUsdRole)
                     .isValid());
    }

    void aCallsCostChangesItsTurnsCostCell()
    {
        Trace trace;
        const int turn = trace.begin(-1, TraceKind::Turn, u"turn"_s, T0, TurnData{});
        const int iteration = trace.begin(turn, TraceKind::Iteration, u"1"_s, T0, IterationData{1});
        const int call = trace.begin(iteration, TraceKind::ModelCall, u"chat"_s, T0, ModelCallData{});
        TraceModel model(&trace);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        trace.update(call, [](TraceNode &node) {
            node.data<ModelCallData>().response.usage = {100, 10};
            node.data<ModelCallData>().cost = ModelCost{0.25, basis(1, 1)};
        });
        QList<int> costCellsOf;
        for (const QList<QVariant> &signal : std::as_const(changed)) {
            const auto index = signal.at(0).value<QModelIndex>();
            if (index.column() == TraceModel::CostColumn)
                costCellsOf.append(model.nodeId(index));
        }
        QCOMPARE(costCellsOf, (QList<int>{iteration, turn}));
        QCOMPARE(model.data(model.indexForNode(turn, TraceModel::CostColumn)).toString(), u"$0.2500"_s);
    }

    void thePriceTableFindsModelsByIdAliasAndDate_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QUrl>("baseUrl");
        QTest::addColumn<QString>("found"); // provider/model in the table; empty: no price
        QTest::newRow("exact id") << u"openai"_s << u"gpt-4o"_s << QUrl() << u"openai/gpt-4o"_s;
        QTest::newRow("alias") << u"openai"_s << u"gpt-4o-2024-08-06"_s << QUrl() << u"openai/gpt-4o"_s;
        QTest::newRow("a dated suffix the table does not list")
            << u"openai"_s << u"gpt-4o-2025-03-01"_s << QUrl() << u"openai/gpt-4o"_s;
        QTest::newRow("a compact date read as a dashed one")
            << u"anthropic"_s << u"claude-x-20241022"_s << QUrl() << u"anthropic/claude-x"_s;
        QTest::newRow("a prefix rule")
            << u"anthropic"_s << u"claude-x-latest"_s << QUrl() << u"anthropic/claude-x"_s;
        QTest::newRow("case does not matter") << u"openai"_s << u"GPT-4o"_s << QUrl() << u"openai/gpt-4o"_s;
        QTest::newRow("gemini is google's")
            << u"gemini"_s << u"gemini-z-2"_s << QUrl() << u"google/gemini-z"_s;
        QTest::newRow("the base URL names the provider")
            << u"openai"_s << u"llama-big"_s << QUrl(u"https://api.groq.com/openai/v1"_s)
            << u"groq/llama-big"_s;
        QTest::newRow("the model names the provider")
            << u"scripted"_s << u"claude-x-latest"_s << QUrl() << u"anthropic/claude-x"_s;
        QTest::newRow("unknown model") << u"openai"_s << u"gpt-unknown"_s << QUrl() << QString();
        QTest::newRow("unknown provider and model") << u"mystery"_s << u"foo-1"_s << QUrl() << QString();
        QTest::newRow("a context window is not a price")
            << u"openai"_s << u"gpt-window-only"_s << QUrl() << QString();
        QTest::newRow("no model") << u"openai"_s << QString() << QUrl() << QString();
    }

    void thePriceTableFindsModelsByIdAliasAndDate()
    {
        QFETCH(QString, provider);
        QFETCH(QString, model);
        QFETCH(QUrl, baseUrl);
        QFETCH(QString, found);
        const PriceTable table = testTable();
        const std::optional<PriceBasis> price = table.find(provider, model, baseUrl);
        QCOMPARE(price.has_value(), !found.isEmpty());
        if (price)
            QCOMPARE(price->source, u"genai-prices 9.9.9 (2030-01-01): "_s + found);
    }

    void thePriceTableKnowsPricesAndContextWindows()
    {
        const PriceTable table = testTable();
        const std::optional<PriceBasis> price = table.find(u"anthropic"_s, u"claude-x-2024-10-22"_s);
        QVERIFY(price);
        QCOMPARE(price->inputPerMTok, 3.0);
        QCOMPARE(price->outputPerMTok, 15.0);
        QCOMPARE(price->cacheReadPerMTok, std::optional<double>(0.3));
        QCOMPARE(price->cacheWritePerMTok, std::optional<double>(3.75));
        QCOMPARE(price->contextWindow, std::optional<qint64>(200000));
        QCOMPARE(table.contextWindow(u"openai"_s, u"gpt-window-only"_s), std::optional<qint64>(8192));
        QCOMPARE(table.contextWindow(u"openai"_s, u"gpt-unknown"_s), std::nullopt);
    }

    void theShippedSnapshotLoads()
    {
        const PriceTable &table = PriceTable::builtIn();
        QVERIFY(!table.isEmpty());
        QCOMPARE(table.version(), u"0.1.8"_s);
        QVERIFY(!table.snapshotDate().isEmpty());
        // Long-standing list prices; a refresh that changes them should look twice.
        const std::optional<PriceBasis> gpt4o = table.find(u"openai"_s, u"gpt-4o-2024-08-06"_s);
        QVERIFY(gpt4o);
        QCOMPARE(gpt4o->inputPerMTok, 2.5);
        QCOMPARE(gpt4o->outputPerMTok, 10.0);
        QCOMPARE(gpt4o->contextWindow, std::optional<qint64>(128000));
        QVERIFY(table.find(u"anthropic"_s, u"claude-3-opus-20240229"_s));
        QVERIFY(!table.find(u"openai"_s, u"no-such-model"_s));
    }

    void aCorruptSnapshotIsRefused_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("not JSON") << QByteArray("{\"providers\": [");
        QTest::newRow("empty object") << QByteArray("{}");
        QTest::newRow("an array") << QByteArray("[]");
        QTest::newRow("providers not a list") << QByteArray(R"({"providers": 3})");
    }

    void aCorruptSnapshotIsRefused()
    {
        QFETCH(QByteArray, json);
        QString error;
        QVERIFY(!PriceTable::fromJson(json, &error));
        QVERIFY(!error.isEmpty());
        // An empty table prices nothing, and says so by having no price.
        QVERIFY(!PriceTable().find(u"openai"_s, u"gpt-4o"_s));
    }

    void aProfileOverridesThePriceTable_data()
    {
        QTest::addColumn<ProviderProfile>("profile");
        QTest::addColumn<QString>("model");
        QTest::addColumn<bool>("priced");
        QTest::addColumn<double>("input");
        QTest::addColumn<QString>("source");
        QTest::addColumn<qint64>("window"); // 0: unknown

        ProviderProfile openAi;
        openAi.kind = ProviderKind::OpenAi;
        openAi.baseUrl = QUrl(u"https://api.openai.com/v1"_s);
        QTest::newRow("from the table")
            << openAi << u"gpt-4o"_s << true << 2.5 << u"genai-prices 9.9.9 (2030-01-01): openai/gpt-4o"_s
            << qint64(128000);
        QTest::newRow("unknown model")
            << openAi << u"gpt-unknown"_s << false << 0.0 << QString() << qint64(0);

        ProviderProfile priced = openAi;
        priced.inputPricePerMTok = 1.5;
        priced.outputPricePerMTok = 6.0;
        QTest::newRow("both prices set")
            << priced << u"gpt-unknown"_s << true << 1.5 << u"profile"_s << qint64(0);
        ProviderProfile half = openAi;
        half.inputPricePerMTok = 1.5;
        QTest::newRow("one price is not an override")
            << half << u"gpt-4o"_s << true << 2.5 << u"genai-prices 9.9.9 (2030-01-01): openai/gpt-4o"_s
            << qint64(128000);
        ProviderProfile window = openAi;
        window.contextWindow = 32000;
        QTest::newRow("its context window wins")
            << window << u"gpt-4o"_s << true << 2.5 << u"genai-prices 9.9.9 (2030-01-01): openai/gpt-4o"_s
            << qint64(32000);

        ProviderProfile ollama;
        ollama.kind = ProviderKind::Ollama;
        QTest::newRow("ollama is free") << ollama << u"llama3.2"_s << true << 0.0 << u"local"_s << qint64(0);
        ProviderProfile llamaCpp;
        llamaCpp.kind = ProviderKind::OpenAi;
        llamaCpp.baseUrl = QUrl(u"http://127.0.0.1:8080/v1"_s);
        QTest::newRow("a server on this machine is free")
            << llamaCpp << u"gpt-4o"_s << true << 0.0 << u"local"_s << qint64(128000);
        ProviderProfile paidOllama = ollama;
        paidOllama.inputPricePerMTok = 0.2;
        paidOllama.outputPricePerMTok = 0.2;
        QTest::newRow("a local server with prices set")
            << paidOllama << u"llama3.2"_s << true << 0.2 << u"profile"_s << qint64(0);
    }

    void aProfileOverridesThePriceTable()
    {
        QFETCH(ProviderProfile, profile);
        QFETCH(QString, model);
        QFETCH(bool, priced);
        QFETCH(double, input);
        QFETCH(QString, source);
        QFETCH(qint64, window);
        const PriceTable table = testTable();
        const ProfilePricing pricing(profile, table);
        const std::optional<PriceBasis> price = pricing.price(model);
        QCOMPARE(price.has_value(), priced);
        if (price) {
            QCOMPARE(price->inputPerMTok, input);
            QCOMPARE(price->source, source);
        }
        QCOMPARE(pricing.contextWindow(model).value_or(0), window);
        // The agent's lookup prices the same.
        QCOMPARE(pricing.lookup()(providerKindName(profile.kind), model), price);
    }

    void aTraceWithoutCostsGetsThemWhenOpened()
    {
        Trace recorded;
        const int turn = recorded.begin(-1, TraceKind::Turn, u"turn"_s, T0, TurnData{});
        ModelCallData old;
        old.provider = u"openai"_s;
        old.model = u"gpt-4o"_s;
        old.response.model = u"gpt-4o-2024-08-06"_s;
        old.response.usage = {1000, 100};
        const int oldCall = recorded.begin(turn, TraceKind::ModelCall, u"chat"_s, T0, old);
        recorded.finish(oldCall, TraceStatus::Ok, T0 + 10);
        addCall(recorded, turn, {1000, 100}, 0.5); // priced when it ran, at other prices
        const QJsonArray json = recorded.toJson();
        QVERIFY(!json.at(0)
                     .toObject()
                     .value(u"children"_s)
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(u"data"_s)
                     .toObject()
                     .contains(u"cost"_s));

        QString error;
        std::optional<TraceForest> forest = Trace::readJson(json, &error);
        QVERIFY2(forest, qPrintable(error));
        const PriceTable table = testTable();
        QCOMPARE(fillMissingCosts(*forest, recordedPriceLookup(u"openai"_s, QUrl(), table)), 1);
        Trace opened;
        opened.assign(*std::move(forest));
        const auto &filled = opened.node(oldCall).data<ModelCallData>();
        QVERIFY(filled.cost);
        // 1000 × $2.5/M + 100 × $10/M, priced by the dated name the response gave
        QVERIFY(qAbs(filled.cost->usd - 0.0035) < 1e-12);
        QCOMPARE(filled.cost->basis.source, u"genai-prices 9.9.9 (2030-01-01): openai/gpt-4o"_s);
        QVERIFY(qAbs(traceCost(opened, turn).usd - 0.5035) < 1e-12); // the recorded cost stays

        // Once recorded, the cost and its basis survive a save and a load.
        Trace reloaded;
        QVERIFY(reloaded.fromJson(opened.toJson()));
        QCOMPARE(reloaded.node(oldCall).data<ModelCallData>().cost, filled.cost);
    }

    void theAgentRecordsTheCostWhenACallFinishes()
    {
        ScriptedModelClient client;
        Workbench workbench;
        Trace trace;
        Agent agent(&client, &workbench, &trace);
        AgentConfig config;
        config.model.model = u"priced-model"_s;
        agent.setConfig(config);
        QStringList asked;
        agent.setPriceLookup(
            [&asked](const QString &provider, const QString &model) -> std::optional<PriceBasis> {
                asked.append(provider + u'/' + model);
                return basis(10, 20);
            });
        client.enqueue(ScriptedModelClient::text(u"hi"_s, {300, 40}));
        QSignalSpy finished(&agent, &Agent::turnFinished);
        QVERIFY(agent.send(u"hello"_s));
        QTRY_COMPARE(finished.size(), 1);

        QCOMPARE(asked, (QStringList{u"scripted/priced-model"_s}));
        int calls = 0;
        for (int id = 0; id < trace.size(); ++id) {
            const auto *call = std::get_if<ModelCallData>(&trace.node(id).payload);
            if (!call)
                continue;
            ++calls;
            QVERIFY(call->cost);
            // 300 × $10/M + 40 × $20/M
            QVERIFY(qAbs(call->cost->usd - 0.0038) < 1e-12);
            QCOMPARE(call->cost->basis, basis(10, 20));
        }
        QCOMPARE(calls, 1);
    }

    void theAgentRecordsNoCostForAnUnknownModel()
    {
        ScriptedModelClient client;
        Workbench workbench;
        Trace trace;
        Agent agent(&client, &workbench, &trace);
        agent.setPriceLookup([](const QString &, const QString &) { return std::optional<PriceBasis>(); });
        client.enqueue(ScriptedModelClient::text(u"hi"_s, {300, 40}));
        QSignalSpy finished(&agent, &Agent::turnFinished);
        QVERIFY(agent.send(u"hello"_s));
        QTRY_COMPARE(finished.size(), 1);
        const CostSum sum = sessionCost(trace);
        QCOMPARE(sum, (CostSum{0, 0, 1}));
        QCOMPARE(formatCost(sum), u"—"_s);
    }

    void theGaugeComparesTokensWithTheWindow_data()
    {
        QTest::addColumn<qint64>("tokens");
        QTest::addColumn<qint64>("window"); // 0: unknown
        QTest::addColumn<int>("level");
        QTest::addColumn<QString>("described");
        QTest::addColumn<bool>("warns");
        QTest::newRow("fits") << qint64(12'345) << qint64(128'000) << int(ContextGauge::Level::Fine)
                              << u"12.3k / 128k tokens"_s << false;
        QTest::newRow("at 90%") << qint64(115'200) << qint64(128'000) << int(ContextGauge::Level::Near)
                                << u"115k / 128k tokens"_s << true;
        QTest::newRow("over") << qint64(130'000) << qint64(128'000) << int(ContextGauge::Level::Over)
                              << u"130k / 128k tokens"_s << true;
        QTest::newRow("unknown window")
            << qint64(900) << qint64(0) << int(ContextGauge::Level::Unknown) << u"900 tokens"_s << false;
        QTest::newRow("a million") << qint64(20'000) << qint64(1'000'000) << int(ContextGauge::Level::Fine)
                                   << u"20.0k / 1M tokens"_s << false;
    }

    void theGaugeComparesTokensWithTheWindow()
    {
        QFETCH(qint64, tokens);
        QFETCH(qint64, window);
        QFETCH(int, level);
        QFETCH(QString, described);
        QFETCH(bool, warns);
        const std::optional<qint64> known = window > 0 ? std::optional<qint64>(window) : std::nullopt;
        QCOMPARE(int(ContextGauge::level(tokens, known)), level);
        QCOMPARE(ContextGauge::describe(tokens, known), described);
        QCOMPARE(!ContextGauge::warning(tokens, known).isEmpty(), warns);
    }

    void aSessionWarnsBeforeARequestThatMayNotFit_data()
    {
        QTest::addColumn<int>("characters");
        QTest::addColumn<QString>("warning"); // a part of the notice; empty: none
        // Whether the request went: one that cannot fit is refused before it is sent, and says so.
        QTest::addColumn<bool>("sent");
        // A window of 120 tokens; a question of N characters is ≈N/4 tokens.
        QTest::newRow("fits") << 200 << QString() << true;
        QTest::newRow("near the window") << 440 << u"92% of the model's context window"_s << true;
        QTest::newRow("over the window") << 600 << u"more than the model's context window"_s << false;
    }

    void aSessionWarnsBeforeARequestThatMayNotFit()
    {
        QFETCH(int, characters);
        QFETCH(QString, warning);
        QFETCH(bool, sent);
        FakeHttpServer server;
        QVERIFY(server.listen());
        server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respondJson(200, openAiCompletion(u"ok"_s, u"test-model"_s, 12, 3));
        });
        QNetworkAccessManager network;
        ChatSession session(&network);
        AgentConfig config;
        config.model.stream = false;
        SessionSetup setup = session.setup();
        setup.loop = config;
        session.apply(setup);
        ProviderProfile profile;
        profile.id = u"cost-test"_s;
        profile.kind = ProviderKind::OpenAi;
        profile.baseUrl = server.baseUrl().resolved(QUrl(u"/v1"_s));
        profile.model = u"test-model"_s;
        profile.contextWindow = 120;
        profile.inputPricePerMTok = 2.0;
        profile.outputPricePerMTok = 10.0;
        session.apply(session.setup().withProvider(profile, u"key"_s));
        QCOMPARE(session.contextWindow(), std::optional<qint64>(120));

        QSignalSpy notices(&session, &ChatSession::notice);
        QSignalSpy finished(session.agent(), &Agent::turnFinished);
        QVERIFY(session.send(QString(characters, u'x')));
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(notices.size(), warning.isEmpty() ? 0 : 1);
        if (!warning.isEmpty())
            QVERIFY2(notices.at(0).at(0).toString().contains(warning),
                     qPrintable(notices.at(0).at(0).toString()));
        // The chat's notice says what it is about: the context, not some limit that was reached.
        QList<ConversationRow::Notice> rowNotices;
        for (const ConversationRow &row : session.rows()->rows()) {
            if (row.kind == ConversationRow::Kind::Notice)
                rowNotices.append(row.notice);
        }
        QList<ConversationRow::Notice> expected;
        if (!warning.isEmpty())
            expected.append(ConversationRow::Notice::ContextFull);
        if (!sent)
            expected.append(ConversationRow::Notice::Error);
        QCOMPARE(rowNotices, expected);
        QCOMPARE(server.requests().size(), sent ? 1 : 0);

        if (sent) {
            // The provider counted 12 + 3 tokens; at the profile's prices: 12 × $2/M + 3 × $10/M.
            QCOMPARE(session.usage()->contextTokens(), qint64(15));
            QVERIFY(qAbs(session.usage()->sessionCost().usd - 0.000054) < 1e-12);
            QCOMPARE(session.usage()->turnCost().pricedCalls, 1);
        }

        // Saved and reopened, the chat says it again, in the same place.
        const QList<ConversationRow> live = session.rows()->rows();
        const Transcript saved = session.toTranscript();
        QVERIFY(session.clear());
        QVERIFY(session.restore(saved));
        const QList<ConversationRow> &reopened = session.rows()->rows();
        QCOMPARE(reopened.size(), live.size());
        for (int i = 0; i < reopened.size(); ++i) {
            QCOMPARE(reopened.at(i).kind, live.at(i).kind);
            QCOMPARE(reopened.at(i).notice, live.at(i).notice);
            QCOMPARE(reopened.at(i).text, live.at(i).text);
            QCOMPARE(reopened.at(i).traceNode, live.at(i).traceNode);
        }
    }
};

QTEST_GUILESS_MAIN(CostTest)
#include "tst_cost.moc"
