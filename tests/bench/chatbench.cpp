// loopscope-chat-bench: what a streamed answer costs the window. A real Agent
// streams a Markdown answer of --tokens tokens at --rate tokens per second
// (one textDelta per token, as an SSE client emits them) into a real ChatView
// shown on the offscreen platform beside the live trace inspector, as in the
// window. A heartbeat timer measures how long the event loop went without
// answering while the answer streamed; getrusage the whole process's CPU.
// Then each trace step is selected in turn: what showing it adds to RSS.
// Prints one JSON line: CPU per 1,000 tokens, the longest stall, the time
// from the last byte to the finished turn (and the next heartbeat), and RSS.
// Targets (issue 15): CPU linear in the length (8k ≤ 5 × 2k), no stall over
// 20 ms at 1,000 tokens/s, finished ≤ 0.5 s after the last byte, RSS after an
// 8,000-token answer well under the app's 80 MB.
//
//   cmake --preset release -DLOOPSCOPE_BENCHMARKS=ON -DBUILD_TESTING=ON
//   cmake --build build/release --target loopscope-chat-bench
//   QT_QPA_PLATFORM=offscreen build/release/tests/bench/loopscope-chat-bench --tokens 8000 --rate 1000

#include "tests/bench/benchsupport.h"

#include "ui/chat/chatview.h"
#include "ui/trace/traceinspector.h"

#include "agent/loop/agent.h"
#include "agent/model/modelclient.h"
#include "agent/session/conversationrows.h"
#include "agent/tools/workbench.h"
#include "agent/trace/trace.h"
#include "agent/trace/tracemodel.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QPaintEvent>
#include <QSplitter>
#include <QTextStream>
#include <QTimer>

#include <algorithm>

using namespace Qt::StringLiterals;
using namespace Loopscope;

namespace {

// A Markdown answer as models write them: headings, paragraphs, lists, and
// every \a codeEvery sections a code block and a table (0: none, one long
// stretch of prose), cut into tokens of about four characters (a word and its
// space, or a line break).
QStringList answerTokens(int count, int codeEvery)
{
    static const QStringList words{
        u"the"_s,        u"loop"_s,     u"calls"_s,    u"a"_s,     u"tool"_s,
        u"**result**"_s, u"with"_s,     u"`value`"_s,  u"and"_s,   u"Zürich"_s,
        u"returns"_s,    u"東京"_s,     u"quickly,"_s, u"then"_s,  u"checks"_s,
        u"every"_s,      u"_answer_"_s, u"it"_s,       u"gets."_s, u"[docs](https://example.org)"_s};
    QStringList tokens;
    tokens.reserve(count);
    int n = 0;
    const auto word = [&]() -> QString {
        return words.at((n * 7 + n / 5) % words.size()) + u' ';
    };
    for (int section = 0; tokens.size() < count; ++section) {
        tokens << u"## "_s << u"Section "_s << QString::number(section) + u"\n\n"_s;
        for (int i = 0; i < 60; ++i, ++n)
            tokens << word();
        tokens << u"\n\n"_s;
        for (int item = 0; item < 5; ++item) {
            tokens << u"- "_s;
            for (int i = 0; i < 10; ++i, ++n)
                tokens << word();
            tokens << u"\n"_s;
        }
        tokens << u"\n"_s;
        if (codeEvery > 0 && section % codeEvery == codeEvery - 1) {
            tokens << u"```cpp\n"_s;
            for (int line = 0; line < 12; ++line)
                tokens << u"int x"_s << QString::number(line) << u" = "_s << u"compute("_s << u"x);\n"_s;
            tokens << u"```\n\n"_s;
            tokens << u"| Name "_s << u"| Value |\n"_s << u"| --- | --- |\n"_s;
            for (int row = 0; row < 6; ++row)
                tokens << u"| row "_s << QString::number(row) << u" | "_s << word() << u"|\n"_s;
            tokens << u"\n"_s;
        }
        for (int i = 0; i < 40; ++i, ++n)
            tokens << word();
        tokens << u"\n\n"_s;
    }
    tokens.resize(count);
    return tokens;
}

// Streams the answer at a steady rate on the GUI thread, as the network
// client's signals arrive there.
class PacedModelClient final : public ModelClient
{
public:
    PacedModelClient(QStringList tokens, int rate)
        : m_tokens(std::move(tokens))
        , m_rate(rate)
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(5);
        connect(&m_timer, &QTimer::timeout, this, &PacedModelClient::tick);
    }

    void send(const ModelRequest &) override
    {
        m_sent = 0;
        m_clock.start();
        m_timer.start();
    }
    void cancel() override { m_timer.stop(); }
    QString providerName() const override { return u"bench"_s; }

    qint64 lastByteNs() const { return m_lastByteNs; }
    qint64 firstByteNs() const { return m_firstByteNs; }

private:
    void tick()
    {
        const qsizetype due = std::min<qsizetype>(m_tokens.size(), m_clock.elapsed() * m_rate / 1000);
        if (m_sent == 0 && due > 0)
            m_firstByteNs = Bench::nowNs();
        for (; m_sent < due; ++m_sent)
            emit textDelta(m_tokens.at(m_sent));
        if (m_sent < m_tokens.size())
            return;
        m_timer.stop();
        m_lastByteNs = Bench::nowNs();
        emit attemptFinished(attempt());
        ModelResponse response;
        response.text = m_tokens.join(QString());
        response.finishReason = FinishReason::Stop;
        response.streamedChunks = int(m_tokens.size());
        response.usage = {100, int(m_tokens.size())};
        emit finished(response);
    }

    // What HttpModelClient records of a streamed call: the request and every
    // stream event, which the trace keeps and the details pane shows.
    ModelAttempt attempt() const
    {
        QJsonArray events;
        for (const QString &token : m_tokens) {
            const QJsonObject delta{{u"content"_s, token}};
            const QJsonObject choice{
                {u"index"_s, 0}, {u"delta"_s, delta}, {u"finish_reason"_s, QJsonValue()}};
            events.append(QJsonObject{{u"id"_s, u"chatcmpl-bench"_s},
                                      {u"object"_s, u"chat.completion.chunk"_s},
                                      {u"created"_s, 1714554000},
                                      {u"model"_s, u"bench"_s},
                                      {u"choices"_s, QJsonArray{choice}}});
        }
        ModelAttempt attempt;
        attempt.startedUs = m_firstByteNs / 1000;
        attempt.endedUs = m_lastByteNs / 1000;
        attempt.httpStatus = 200;
        attempt.request = {{u"method"_s, u"POST"_s}, {u"url"_s, u"http://127.0.0.1/v1/chat/completions"_s}};
        attempt.response = events;
        return attempt;
    }

    QStringList m_tokens;
    int m_rate;
    qsizetype m_sent = 0;
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_firstByteNs = 0;
    qint64 m_lastByteNs = 0;
};

// Which widgets repaint, move or resize while the answer streams, and how many
// pixels they paint: the window's cost per token is mostly painting and
// layout, so this says where it goes (a block that moves is repainted whole).
class PaintCensus final : public QObject
{
public:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        const QEvent::Type type = event->type();
        if (!m_counting || !watched->isWidgetType()
            || (type != QEvent::Paint && type != QEvent::Move && type != QEvent::Resize)) {
            return false;
        }
        QString name = QString::fromLatin1(watched->metaObject()->className());
        if (watched->parent())
            name += u" in "_s + QString::fromLatin1(watched->parent()->metaObject()->className());
        Tally &tally = m_tallies[name];
        if (type == QEvent::Move) {
            ++tally.moves;
        } else if (type == QEvent::Resize) {
            ++tally.resizes;
        } else {
            ++tally.paints;
            for (const QRect &area : static_cast<QPaintEvent *>(event)->region())
                tally.pixels += qint64(area.width()) * area.height();
        }
        return false;
    }
    void setCounting(bool counting) { m_counting = counting; }
    // {"class in parent class": {"paints", "megapixels", "moves", "resizes"}}
    QJsonObject result() const
    {
        QJsonObject result;
        for (auto it = m_tallies.cbegin(); it != m_tallies.cend(); ++it) {
            result.insert(it.key(), QJsonObject{{u"paints"_s, it->paints},
                                                {u"megapixels"_s, Bench::round(double(it->pixels) / 1e6)},
                                                {u"moves"_s, it->moves},
                                                {u"resizes"_s, it->resizes}});
        }
        return result;
    }

private:
    struct Tally
    {
        int paints = 0;
        qint64 pixels = 0;
        int moves = 0;
        int resizes = 0;
    };
    bool m_counting = false;
    QMap<QString, Tally> m_tallies;
};

} // namespace

int main(int argc, char *argv[])
{
    Bench::useOffscreenPlatform();
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(u"How much a streamed answer costs the chat view."_s);
    parser.addHelpOption();
    const QCommandLineOption tokensOption(u"tokens"_s, u"Tokens in the answer."_s, u"n"_s, u"8000"_s);
    const QCommandLineOption rateOption(u"rate"_s, u"Tokens per second."_s, u"n"_s, u"1000"_s);
    const QCommandLineOption codeOption(
        u"code-every"_s, u"A code block and a table every n sections (0: prose only)."_s, u"n"_s, u"4"_s);
    const QCommandLineOption paintsOption(
        u"paints"_s,
        u"Also count what each kind of widget paints (events, megapixels), and its moves and resizes."_s);
    const QCommandLineOption heartbeatOption(
        u"heartbeat-ms"_s, u"How often the stall detector beats (its own wake-ups cost CPU too)."_s, u"ms"_s,
        QString::number(Bench::Heartbeat::IntervalMs));
    parser.addOptions({tokensOption, rateOption, codeOption, paintsOption, heartbeatOption});
    parser.process(app);
    const int tokenCount = std::max(1, parser.value(tokensOption).toInt());
    const int rate = std::max(1, parser.value(rateOption).toInt());

    const double bareRss = Bench::rssMb();
    const int codeEvery = std::max(0, parser.value(codeOption).toInt());
    const QStringList tokens = answerTokens(tokenCount, codeEvery);
    const QString answer = tokens.join(QString());
    PacedModelClient client(tokens, rate);
    Workbench workbench;
    Trace trace;
    Agent agent(&client, &workbench, &trace);
    // The window's two sides: the chat, and the live trace with its details.
    QSplitter window;
    auto *traceModel = new TraceModel(&trace, &window);
    // The chat's rows, fed by their owner as ChatSession feeds the window's.
    auto *rows = new ConversationRows(&window);
    rows->setTrace(&trace);
    rows->follow(&agent);
    auto &view = *new Ui::ChatView(&window);
    auto *inspector = new Ui::TraceInspector(&trace, traceModel, &window);
    view.setModel(rows);
    view.follow(&agent);
    window.addWidget(&view);
    window.addWidget(inspector);
    window.resize(1400, 800);
    window.show();
    Bench::settle(200);
    const double idleRss = Bench::rssMb();

    Bench::Heartbeat heartbeat(std::max(1, parser.value(heartbeatOption).toInt()));
    qint64 finishedNs = 0;
    qint64 respondingNs = 0;
    QObject::connect(&agent, &Agent::turnFinished, &app, [&] {
        finishedNs = Bench::nowNs();
        // The first heartbeat after the turn ended: the window answers again.
        heartbeat.onNextBeat([&] {
            respondingNs = Bench::nowNs();
            app.quit();
        });
    });
    PaintCensus census;
    if (parser.isSet(paintsOption))
        app.installEventFilter(&census);
    census.setCounting(true);
    const Bench::Cpu before = Bench::cpu();
    heartbeat.start();
    agent.send(u"Write a long answer."_s);
    app.exec();
    const Bench::Cpu after = Bench::cpu();
    census.setCounting(false);
    const Bench::Heartbeat::Stalls stalls
        = heartbeat.stalls(client.firstByteNs(), client.lastByteNs(), 20'000'000);
    heartbeat.stop();
    Bench::settle(200);
    const double answerRss = Bench::rssMb();
    Bench::trimHeap();
    const double trimmedRss = Bench::rssMb();

    // Selecting each step of the trace in turn: what does showing it cost?
    double selectedRss = trimmedRss;
    qint64 slowestSelectNs = 0;
    for (int node = 0; node < trace.size(); ++node) {
        const qint64 started = Bench::nowNs();
        inspector->selectNode(node);
        Bench::settle(0);
        slowestSelectNs = std::max(slowestSelectNs, Bench::nowNs() - started);
        Bench::settle(100);
        selectedRss = std::max(selectedRss, Bench::rssMb());
    }
    inspector->selectNode(-1);
    Bench::settle(200);
    Bench::trimHeap();
    const double deselectedRss = Bench::rssMb();

    const double cpuMs = after.totalMs() - before.totalMs();
    QJsonObject result{
        {u"tokens"_s, tokenCount},
        {u"rate"_s, rate},
        {u"code_every"_s, codeEvery},
        {u"chars"_s, answer.size()},
        {u"cpu_ms"_s, Bench::round(cpuMs)},
        {u"cpu_ms_per_1k_tokens"_s, Bench::round(cpuMs * 1000.0 / tokenCount)},
        {u"stream_s"_s, Bench::round((client.lastByteNs() - client.firstByteNs()) / 1e9)},
        {u"longest_stall_ms"_s, Bench::round(stalls.longestNs / 1e6)},
        {u"stalls_over_20ms"_s, stalls.over},
        {u"longest_stall_cpu_ms"_s, Bench::round(stalls.longestCpuNs / 1e6)},
        {u"finished_after_last_byte_ms"_s, Bench::round((finishedNs - client.lastByteNs()) / 1e6)},
        {u"responsive_after_last_byte_ms"_s, Bench::round((respondingNs - client.lastByteNs()) / 1e6)},
        {u"renders"_s, view.streamRenderCount()},
        {u"rss_bare_mb"_s, Bench::round(bareRss)},
        {u"rss_idle_mb"_s, Bench::round(idleRss)},
        {u"rss_after_mb"_s, Bench::round(answerRss)},
        {u"rss_after_trim_mb"_s, Bench::round(trimmedRss)},
        {u"rss_selected_max_mb"_s, Bench::round(selectedRss)},
        {u"select_added_mb"_s, Bench::round(selectedRss - trimmedRss)},
        {u"slowest_select_ms"_s, Bench::round(slowestSelectNs / 1e6)},
        {u"rss_deselected_mb"_s, Bench::round(deselectedRss)},
        {u"peak_rss_mb"_s, Bench::round(Bench::peakRssMb())},
    };
    if (parser.isSet(paintsOption))
        result.insert(u"paints"_s, census.result());
    QTextStream(stdout) << QJsonDocument(result).toJson(QJsonDocument::Compact) << Qt::endl;
    // A benchmark of a view that shows the wrong text proves nothing.
    return view.itemText(1) == answer ? 0 : 1;
}
