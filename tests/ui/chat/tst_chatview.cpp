#include "ui/chat/approvalcard.h"
#include "ui/chat/attachmentchip.h"
#include "ui/chat/chatview.h"
#include "ui/chat/codeblockview.h"
#include "ui/chat/diffview.h"
#include "ui/chat/markdownview.h"
#include "ui/chat/messagewidget.h"
#include "ui/chat/noticecard.h"
#include "ui/chat/sourcesline.h"
#include "ui/chat/textblockview.h"
#include "ui/chat/toolcallcard.h"
#include "ui/trace/traceicons.h"

#include "agent/conversation/attachmentloader.h"
#include "agent/debug/stepdebugger.h"
#include "agent/debug/toolapprovalpolicy.h"
#include "agent/loop/agent.h"
#include "agent/mcp/mcphub.h"
#include "agent/safety/ruleshield.h"
#include "agent/session/conversationrows.h"
#include "agent/tools/functiontool.h"
#include "agent/tools/workbench.h"
#include "agent/trace/trace.h"
#include "tests/support/scriptedmodelclient.h"
#include "tests/support/urlrecorder.h"

#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QFontMetrics>
#include <QGuiApplication>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMutex>
#include <QNetworkAccessManager>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScopeGuard>
#include <QScreen>
#include <QScrollBar>
#include <QSemaphore>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QTextTable>
#include <QToolButton>
#include <QVBoxLayout>

#include <atomic>

using namespace Loopscope;
using namespace Loopscope::Ui;
using namespace Qt::StringLiterals;
using Step = ScriptedModelClient::Step;

namespace {

QList<Attachment> imageAndNotes()
{
    QImage image(24, 16, QImage::Format_RGB32);
    image.fill(Qt::darkGreen);
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return {*AttachmentLoader::fromBytes(u"plot.png"_s, png).attachment,
            *AttachmentLoader::fromBytes(u"notes.md"_s, "# Notes\n").attachment};
}

const QJsonObject addSchema{{u"type"_s, u"object"_s},
                            {u"properties"_s, QJsonObject{{u"a"_s, QJsonObject{{u"type"_s, u"integer"_s}}},
                                                          {u"b"_s, QJsonObject{{u"type"_s, u"integer"_s}}}}},
                            {u"required"_s, QJsonArray{u"a"_s, u"b"_s}},
                            {u"additionalProperties"_s, false}};

QJsonObject parse(const QString &json)
{
    return QJsonDocument::fromJson(json.toUtf8()).object();
}

QList<int> nodesOfKind(const Trace &trace, TraceKind kind)
{
    QList<int> result;
    for (int i = 0; i < trace.size(); ++i) {
        if (trace.node(i).kind == kind)
            result.append(i);
    }
    return result;
}

int indexOfKind(const ChatView &view, ChatItem::Kind kind, int occurrence = 0)
{
    for (int i = 0; i < view.itemCount(); ++i) {
        if (view.item(i)->kind() == kind && occurrence-- == 0)
            return i;
    }
    return -1;
}

const Message *lastToolResult(const ModelRequest &request)
{
    for (auto it = request.messages.crbegin(); it != request.messages.crend(); ++it) {
        if (it->role == Message::Role::Tool)
            return &*it;
    }
    return nullptr;
}

// An agent with an "add" tool that can be held at a gate, wired to a chat view
// the way the main window wires them.
struct Fixture
{
    Fixture()
    {
        workbench.add(std::make_shared<FunctionTool>(
            ToolSchema{u"add"_s, u"Adds two integers"_s, addSchema},
            [this](const QJsonObject &arguments, ToolContext &) {
                {
                    QMutexLocker lock(&mutex);
                    invocations.append(arguments);
                }
                if (gated)
                    gate.acquire();
                return ToolResult::success(
                    QString::number(arguments.value(u"a"_s).toInt() + arguments.value(u"b"_s).toInt()));
            }));
        agent.addInterceptor(&approvals);
        rows.setTrace(&trace);
        rows.follow(&agent);
        view.setModel(&rows);
        view.follow(&agent);
        view.setApprovalPolicy(&approvals);
        view.resize(480, 360);
    }
    ~Fixture()
    {
        gate.release(100); // a failed test must not leave a tool waiting
        agent.cancel();
    }

    QList<QJsonObject> invocationsSoFar()
    {
        QMutexLocker lock(&mutex);
        return invocations;
    }

    QMutex mutex;
    QList<QJsonObject> invocations;
    std::atomic_bool gated = false;
    QSemaphore gate;

    ScriptedModelClient client;
    Workbench workbench;
    Trace trace;
    ToolApprovalPolicy approvals;
    Agent agent{&client, &workbench, &trace};
    ConversationRows rows; // fed as ChatSession feeds the window's
    ChatView view;
    QSignalSpy finished{&agent, &Agent::turnFinished};
};

// The text of the visible code block with this accessible name.
QString visibleCode(const QWidget &card, const QString &name)
{
    for (const CodeBlockView *code : card.findChildren<CodeBlockView *>()) {
        if (code->isVisibleTo(&card) && code->accessibleName() == name)
            return code->code();
    }
    return u"(none)"_s;
}

const QLabel *visibleLabel(const QWidget &card, const QString &text)
{
    for (const QLabel *label : card.findChildren<QLabel *>()) {
        if (label->isVisibleTo(&card) && label->text() == text)
            return label;
    }
    return nullptr;
}

// Where a rich-text label shows \a text: laid out as the label lays it out (no document margin,
// wrapped at its contents' width).
QPoint linkPosition(const QLabel &label, const QString &text)
{
    QTextDocument document;
    document.setDefaultFont(label.font());
    document.setDocumentMargin(0);
    document.setHtml(label.text());
    document.setTextWidth(label.contentsRect().width());
    document.size(); // lays the text out
    const QTextCursor found = document.find(text);
    if (found.isNull())
        return {};
    const int position = (found.selectionStart() + found.selectionEnd()) / 2;
    const QTextBlock block = document.findBlock(position);
    const QTextLine line = block.layout()->lineForTextPosition(position - block.position());
    if (!line.isValid())
        return {};
    const QPointF at = block.layout()->position()
                       + QPointF(line.cursorToX(position - block.position()), line.y() + line.height() / 2);
    return label.contentsRect().topLeft() + at.toPoint();
}

} // namespace

class ChatViewTest : public QObject
{
    Q_OBJECT

private slots:
    void init() { QGuiApplication::clipboard()->clear(); }

    // -----------------------------------------------------------------------
    // Streaming

    void aStreamedAnswerEndsAsTheConcatenationOfItsChunks_data()
    {
        QTest::addColumn<QStringList>("chunks");
        QTest::newRow("one chunk") << QStringList{u"Hello there."_s};
        QTest::newRow("words") << QStringList{u"The "_s, u"answer "_s, u"is "_s, u"**42**."_s};
        QTest::newRow("a code fence split across chunks")
            << QStringList{u"Run:\n\n`"_s, u"``sh\nls -"_s, u"la\n`"_s, u"``\n\nDone."_s};
        QStringList many;
        for (int i = 0; i < 300; ++i)
            many.append(u"w%1 "_s.arg(i));
        QTest::newRow("three hundred small chunks") << many;
    }
    void aStreamedAnswerEndsAsTheConcatenationOfItsChunks()
    {
        QFETCH(QStringList, chunks);
        Fixture f;
        Step step = ScriptedModelClient::text(chunks.join(QString()));
        step.chunks = chunks;
        f.client.enqueue(step);

        f.agent.send(u"Question"_s);
        QTRY_COMPARE(f.finished.size(), 1);

        QCOMPARE(f.view.itemCount(), 2);
        QCOMPARE(f.view.item(0)->kind(), ChatItem::Kind::UserMessage);
        QCOMPARE(f.view.itemText(0), u"Question"_s);
        QCOMPARE(f.view.item(1)->kind(), ChatItem::Kind::AssistantMessage);
        QCOMPARE(f.view.itemText(1), chunks.join(QString()));
        // Every chunk arrived in one go: one render, however many chunks.
        QCOMPARE(f.view.streamRenderCount(), 1);
    }

    void manyDeltasCauseFewRenders()
    {
        Fixture f;
        f.client.enqueue(ScriptedModelClient::hang());
        f.agent.send(u"Tell me a story"_s);
        QTRY_COMPARE(f.client.requests().size(), 1);

        QString expected;
        const int bursts = 4;
        for (int burst = 0; burst < bursts; ++burst) {
            for (int i = 0; i < 50; ++i) {
                const QString chunk = u"b%1w%2 "_s.arg(burst).arg(i);
                expected += chunk;
                emit f.client.textDelta(chunk);
            }
            QTRY_COMPARE(f.view.streamRenderCount(), burst + 1);
            QCOMPARE(f.view.itemText(1), expected);
        }
        auto *answer = qobject_cast<MessageWidget *>(f.view.item(1));
        QVERIFY(answer);
        QCOMPARE(answer->markdownView()->renderCount(), bursts);
        QCOMPARE(f.view.itemCount(), 2);
    }

    void theViewKeepsToTheBottomWhileStreamingUnlessTheUserScrolledUp()
    {
        Fixture f;
        f.view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&f.view));
        f.client.enqueue(ScriptedModelClient::hang());
        f.agent.send(u"Count"_s);
        QTRY_COMPARE(f.client.requests().size(), 1);
        QScrollBar *bar = f.view.verticalScrollBar();

        int line = 0;
        const auto streamLines = [&](int count) {
            for (int i = 0; i < count; ++i)
                emit f.client.textDelta(u"Line %1\n\n"_s.arg(++line));
        };
        for (int burst = 0; burst < 4; ++burst) {
            streamLines(30);
            QTRY_VERIFY(bar->maximum() > 0 && f.view.itemText(1).contains(u"Line %1"_s.arg(line)));
            QTRY_COMPARE(bar->value(), bar->maximum());
            QVERIFY(f.view.isFollowingBottom());
        }

        bar->setValue(bar->maximum() / 3);
        QVERIFY(!f.view.isFollowingBottom());
        const int position = bar->value();
        const int maximum = bar->maximum();
        streamLines(20);
        QTRY_VERIFY(bar->maximum() > maximum);
        QCOMPARE(bar->value(), position);
        QVERIFY(!f.view.isFollowingBottom());

        // Back at the end, it follows again.
        bar->setValue(bar->maximum());
        QVERIFY(f.view.isFollowingBottom());
        const int before = bar->maximum();
        streamLines(10);
        QTRY_VERIFY(bar->maximum() > before);
        QTRY_COMPARE(bar->value(), bar->maximum());
    }

    // The chat paints only what a batch changed and scrolls by copying what is
    // already painted; the picture on screen must still be the whole truth,
    // also around a card that grows and shrinks.
    void whatTheWindowShowsIsWhatTheChatWouldPaintAfresh_data()
    {
        QTest::addColumn<bool>("withToolCard");
        QTest::newRow("a streamed answer") << false;
        QTest::newRow("a tool card that opens and closes, then a streamed answer") << true;
    }
    void whatTheWindowShowsIsWhatTheChatWouldPaintAfresh()
    {
        QFETCH(bool, withToolCard);
        Fixture f;
        f.view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&f.view));
        if (withToolCard) {
            f.client.enqueue({ScriptedModelClient::calls(
                                  {ScriptedModelClient::call(u"c1"_s, u"add"_s, u"{\"a\":2,\"b\":3}"_s)}),
                              ScriptedModelClient::hang()});
        } else {
            f.client.enqueue(ScriptedModelClient::hang());
        }
        f.agent.send(u"Explain"_s);
        QTRY_COMPARE(f.client.requests().size(), withToolCard ? 2 : 1);
        if (withToolCard) {
            ToolCallCard *card = f.view.toolCallCard(u"c1"_s);
            QVERIFY(card);
            QTest::mouseClick(card->toggleButton(), Qt::LeftButton);
            QTest::qWait(30);
            QTest::mouseClick(card->toggleButton(), Qt::LeftButton);
            QTest::qWait(30);
            QTest::mouseClick(card->toggleButton(), Qt::LeftButton);
            QVERIFY(card->isExpanded());
        }

        QString answer;
        for (int section = 1; section <= 4; ++section) {
            answer += u"## Part %1\n\nThe loop calls a tool and reads its result, then asks again. "_s.arg(
                section);
            answer += u"It stops when the model answers in text.\n\n- one\n- two\n\n"_s;
            answer += u"```cpp\nint part = %1;\n```\n\n"_s.arg(section);
        }
        QString streamed;
        for (qsizetype at = 0; at < answer.size(); at += 9) {
            const QString chunk = answer.mid(at, 9);
            streamed += chunk;
            emit f.client.textDelta(chunk);
            if ((at / 9) % 3 == 0)
                QTest::qWait(20); // a batch is rendered and painted
        }
        QTRY_COMPARE(f.view.itemText(f.view.itemCount() - 1), streamed);
        QScrollBar *bar = f.view.verticalScrollBar();
        QTRY_VERIFY(bar->maximum() > 0 && bar->value() == bar->maximum());
        QTest::qWait(50); // the last paint

        const QImage onScreen = f.view.screen()->grabWindow(f.view.winId()).toImage();
        const QImage afresh = f.view.grab().toImage().convertToFormat(onScreen.format());
        QCOMPARE(onScreen.size(), afresh.size());
        QVERIFY2(onScreen == afresh, "the window shows something other than the chat paints");
    }

    // A card paints only the area it grows into, and its old bottom edge.
    void aCardThatGrowsAndShrinksLeavesNoTraceOfItsOldEdge()
    {
        QWidget window;
        auto *layout = new QVBoxLayout(&window);
        auto *card = new ToolCallCard(ScriptedModelClient::call(u"c1"_s, u"add"_s, u"{\"a\":1,\"b\":2}"_s));
        layout->addWidget(card);
        layout->addStretch();
        window.resize(420, 500);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        for (int click = 0; click < 3; ++click) {
            const int before = card->height();
            QTest::mouseClick(card->toggleButton(), Qt::LeftButton);
            QTRY_VERIFY(card->height() != before);
            QTest::qWait(30);
            const QImage onScreen = window.screen()->grabWindow(window.winId()).toImage();
            const QImage afresh = window.grab().toImage().convertToFormat(onScreen.format());
            QVERIFY2(onScreen == afresh, qPrintable(u"after click %1"_s.arg(click + 1)));
        }
    }

    void whileWaitingForTheModelTheViewSaysSo()
    {
        Fixture f;
        f.client.enqueue(ScriptedModelClient::hang());
        QVERIFY(!f.view.isActivityVisible());
        f.agent.send(u"Hello"_s);
        QTRY_VERIFY(f.view.isActivityVisible());
        emit f.client.textDelta(u"Hi"_s);
        QTRY_VERIFY(!f.view.isActivityVisible());
    }

    // -----------------------------------------------------------------------
    // Tool calls

    void aToolCallAppearsAsACardThatIsBusyThenShowsTheResult()
    {
        Fixture f;
        f.gated = true;
        f.client.enqueue({ScriptedModelClient::calls(
                              {ScriptedModelClient::call(u"c1"_s, u"add"_s, u"{\"a\":2,\"b\":3}"_s)}),
                          ScriptedModelClient::text(u"The sum is 5."_s)});
        f.agent.send(u"What is 2 + 3?"_s);

        QTRY_VERIFY(f.view.toolCallCard(u"c1"_s));
        ToolCallCard *card = f.view.toolCallCard(u"c1"_s);
        QTRY_COMPARE(f.invocationsSoFar().size(), 1);
        QCOMPARE(card->status(), ToolCallCard::Status::Running);
        QVERIFY(card->isBusy());
        QVERIFY(card->busyIndicator()->isVisibleTo(card));
        QCOMPARE(card->traceNode(), nodesOfKind(f.trace, TraceKind::ToolCall).value(0));
        QVERIFY(card->plainText().startsWith(u"add({\"a\":2,\"b\":3})"_s));

        f.gate.release();
        QTRY_COMPARE(card->status(), ToolCallCard::Status::Succeeded);
        QVERIFY(!card->isBusy());
        QVERIFY(!card->busyIndicator()->isVisibleTo(card));
        QCOMPARE(card->result(), u"5"_s);
        QTRY_COMPARE(f.finished.size(), 1);

        QCOMPARE(f.view.itemCount(), 3);
        QCOMPARE(f.view.item(1), card);
        QCOMPARE(f.view.itemText(2), u"The sum is 5."_s);
    }

    void aToolCallHeldAtABreakpointSaysSoWithoutABusyBar()
    {
        Fixture f;
        f.gated = true;
        StepDebugger debugger;
        f.agent.addInterceptor(&debugger);
        const auto detach = qScopeGuard([&] {
            f.gate.release(100);
            f.agent.cancel();
            f.agent.removeInterceptor(&debugger);
        });
        debugger.setBreakpoints({.toolNames = {u"add"_s}});
        debugger.setEnabled(true);
        f.client.enqueue({ScriptedModelClient::calls(
                              {ScriptedModelClient::call(u"c1"_s, u"add"_s, u"{\"a\":2,\"b\":3}"_s)}),
                          ScriptedModelClient::text(u"The sum is 5."_s)});
        f.agent.send(u"What is 2 + 3?"_s);

        QTRY_VERIFY(debugger.isPaused());
        ToolCallCard *card = f.view.toolCallCard(u"c1"_s);
        QVERIFY(card);
        QCOMPARE(card->status(), ToolCallCard::Status::Held);
        QCOMPARE(card->statusLabel()->text(), u"Paused at a breakpoint"_s);
        QVERIFY(!card->isBusy());
        QVERIFY(!card->busyIndicator()->isVisibleTo(card));

        // Let go, it runs (held in the tool by the test's gate), then it is done.
        debugger.resume();
        QTRY_COMPARE(f.invocationsSoFar().size(), 1);
        QCOMPARE(card->status(), ToolCallCard::Status::Running);
        QVERIFY(card->busyIndicator()->isVisibleTo(card));
        f.gate.release();
        QTRY_COMPARE(card->status(), ToolCallCard::Status::Succeeded);
        QTRY_COMPARE(f.finished.size(), 1);
    }

    void aCallWithoutArgumentsShowsAnEmptyObject()
    {
        ToolCallCard card(ScriptedModelClient::call(u"c1"_s, u"current_time"_s, QString()));
        card.setExpanded(true);
        card.show();
        QCOMPARE(visibleCode(card, u"Arguments"_s), u"{}"_s);
        QVERIFY(card.plainText().startsWith(u"current_time({})"_s));
    }

    void theResultIsLabelledLikeTheArguments()
    {
        ToolCallCard card(ScriptedModelClient::call(u"c1"_s, u"add"_s, u"{\"a\":1,\"b\":2}"_s));
        card.setResult(u"3"_s, ToolCallCard::Status::Succeeded);
        card.setExpanded(true);
        card.show();
        const QLabel *arguments = visibleLabel(card, u"Arguments"_s);
        const QLabel *result = visibleLabel(card, u"Result"_s);
        QVERIFY(arguments && result);
        QCOMPARE(result->font(), arguments->font());
        QCOMPARE(result->foregroundRole(), arguments->foregroundRole());
        QVERIFY(arguments->y() < result->y());
        QCOMPARE(visibleCode(card, u"Result"_s), u"3"_s);
    }

    void onAWideWindowTheTextKeepsAReadableWidthInTheMiddle()
    {
        Fixture f;
        f.client.enqueue(
            {ScriptedModelClient::text(u"An answer long enough to fill a line. "_s.repeated(20))});
        f.agent.send(u"Question"_s);
        QTRY_COMPARE(f.finished.size(), 1);
        f.view.resize(1900, 600);
        f.view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&f.view));
        const QWidget *content = f.view.widget();
        QTRY_VERIFY(content->width() < f.view.viewport()->width());
        QVERIFY2(content->width() <= 120 * f.view.fontMetrics().averageCharWidth(),
                 qPrintable(QString::number(content->width())));
        const int left = content->x();
        const int right = f.view.viewport()->width() - content->geometry().right() - 1;
        QVERIFY2(std::abs(left - right) <= 1, qPrintable(u"%1 vs %2"_s.arg(left).arg(right)));

        // Narrow, it takes the whole width.
        f.view.resize(500, 600);
        QTRY_COMPARE(content->width(), f.view.viewport()->width());
    }

    void aLongUrlIsNotBrokenAcrossLines()
    {
        MarkdownView view;
        const QString url = u"https://example.com/a/rather/long/path/to/some/page?with=query&and=more"_s;
        view.setText(u"See "_s + url + u" for the details, and the rest of this sentence wraps as usual."_s);
        view.resize(300, 200);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QList<TextBlockView *> prose = view.findChildren<TextBlockView *>();
        QVERIFY(!prose.isEmpty());
        QCOMPARE(prose.constFirst()->wordWrapMode(), QTextOption::WordWrap);
    }

    void aFailedToolSaysSoInTheColourOfAnError()
    {
        ToolCallCard card(ScriptedModelClient::call(u"c1"_s, u"add"_s, u"{\"a\":1,\"b\":2}"_s));
        const QColor plain = card.statusLabel()->palette().color(QPalette::WindowText);
        const QColor error = TraceIcons::statusColor(TraceStatus::Error, card.palette());
        QVERIFY(plain != error);
        card.setResult(u"add failed: overflow"_s, ToolCallCard::Status::Failed);
        QCOMPARE(card.statusLabel()->text(), u"Failed"_s);
        QCOMPARE(card.statusLabel()->palette().color(QPalette::WindowText), error);
        card.setResult(u"3"_s, ToolCallCard::Status::Succeeded);
        QCOMPARE(card.statusLabel()->palette().color(QPalette::WindowText), plain);
    }

    void aToolCardCollapsesAndExpands()
    {
        ToolCallCard card(ScriptedModelClient::call(u"c1"_s, u"add"_s, u"{\"a\":1,\"b\":2}"_s));
        card.show();
        QVERIFY(!card.isExpanded());
        QTest::mouseClick(card.toggleButton(), Qt::LeftButton);
        QVERIFY(card.isExpanded());
        QTest::mouseClick(card.toggleButton(), Qt::LeftButton);
        QVERIFY(!card.isExpanded());
    }

    void aCollapsedCardMakesItsCodeViewsOnlyWhenItFirstOpens()
    {
        ToolCallCard card(ScriptedModelClient::call(u"c1"_s, u"add"_s, u"{\"a\":1,\"b\":2}"_s));
        card.show();
        card.addProgress(u"Adding"_s);
        card.setResult(u"3"_s, ToolCallCard::Status::Succeeded);
        QVERIFY(card.findChildren<CodeBlockView *>().isEmpty());

        QTest::mouseClick(card.toggleButton(), Qt::LeftButton);
        QCOMPARE(visibleCode(card, u"Arguments"_s), u"{\n    \"a\": 1,\n    \"b\": 2\n}"_s);
        QCOMPARE(visibleCode(card, u"Result"_s), u"3"_s);
        QVERIFY(visibleLabel(card, u"Adding"_s));
        QVERIFY(visibleLabel(card, u"Arguments"_s)->y() < visibleLabel(card, u"Result"_s)->y());
        QCOMPARE(card.findChildren<CodeBlockView *>().size(), 2);

        // Closed and opened again, it shows the same views, and a later result in them.
        card.setExpanded(false);
        card.setResult(u"4"_s, ToolCallCard::Status::Succeeded);
        card.setExpanded(true);
        QCOMPARE(card.findChildren<CodeBlockView *>().size(), 2);
        QCOMPARE(visibleCode(card, u"Result"_s), u"4"_s);
    }

    // -----------------------------------------------------------------------
    // Notices

    void aTurnThatDoesNotAnswerEndsWithANotice_data()
    {
        QTest::addColumn<int>("scenario");
        QTest::addColumn<NoticeCard::Severity>("severity");
        QTest::addColumn<bool>("retry");
        QTest::newRow("a provider error offers Retry") << 0 << NoticeCard::Severity::Error << true;
        QTest::newRow("a cancel offers Retry") << 1 << NoticeCard::Severity::Cancelled << true;
        QTest::newRow("the error limit offers Retry") << 2 << NoticeCard::Severity::Limit << true;
        QTest::newRow("a blocked question does not offer Retry")
            << 3 << NoticeCard::Severity::Blocked << false;
        QTest::newRow("a blocked answer offers Retry") << 4 << NoticeCard::Severity::Blocked << true;
    }
    void aTurnThatDoesNotAnswerEndsWithANotice()
    {
        QFETCH(int, scenario);
        QFETCH(NoticeCard::Severity, severity);
        QFETCH(bool, retry);
        Fixture f;
        auto shield = std::make_shared<RuleShield>();
        RuleShield::Rule rule;
        rule.pattern = u"forbidden"_s;
        shield->addRule(rule);
        f.agent.addShield(shield);

        QString question = u"Hello"_s;
        switch (scenario) {
        case 0: f.client.enqueue(ScriptedModelClient::failure(u"Service unavailable"_s, 503)); break;
        case 1: f.client.enqueue(ScriptedModelClient::hang()); break;
        case 2: {
            AgentConfig config;
            config.maxConsecutiveErrors = 1;
            f.agent.setConfig(config);
            f.client.enqueue(ScriptedModelClient::calls({ScriptedModelClient::call(u"c1"_s, u"nope"_s, {})}));
            break;
        }
        case 3: question = u"Something forbidden"_s; break;
        case 4: f.client.enqueue(ScriptedModelClient::text(u"A forbidden answer"_s)); break;
        }
        f.agent.send(question);
        if (scenario == 1) {
            QTRY_COMPARE(f.client.requests().size(), 1);
            f.agent.cancel();
        }
        QTRY_COMPARE(f.finished.size(), 1);

        const int index = indexOfKind(f.view, ChatItem::Kind::Notice);
        QVERIFY(index > 0);
        QCOMPARE(index, f.view.itemCount() - 1);
        auto *notice = static_cast<NoticeCard *>(f.view.item(index));
        QCOMPARE(notice->severity(), severity);
        QVERIFY(!notice->message().isEmpty());
        QCOMPARE(notice->isRetryAvailable(), retry);
        QCOMPARE(notice->retryButton()->isVisibleTo(notice), retry);
        QVERIFY(f.trace.isValid(notice->traceNode()));
        if (scenario == 4) // the withheld text is not shown
            QVERIFY(!f.view.itemText(index - 1).contains(u"A forbidden answer"_s));
        // Retry, not Regenerate, is how to ask again after a notice.
        for (int i = 0; i < f.view.itemCount(); ++i) {
            if (auto *message = qobject_cast<MessageWidget *>(f.view.item(i));
                message && message->role() == MessageWidget::Role::Assistant)
                QVERIFY(!message->isLastActionAvailable());
        }

        QSignalSpy retried(&f.view, &ChatView::retryRequested);
        if (retry) {
            QTest::mouseClick(notice->retryButton(), Qt::LeftButton);
            QCOMPARE(retried.size(), 1);
        }
    }

    void aRetryNoticeSaysRetryingThenThatTheCallRecovered()
    {
        Fixture f;
        Step answer = ScriptedModelClient::text(u"Hello."_s);
        answer.delayMs = -1; // the test plays the attempts and the answer
        f.client.enqueue(answer);
        ModelAttempt failed;
        failed.number = 1;
        failed.httpStatus = 429;
        failed.error = u"rate limited (429) — retrying in 1 s (attempt 2 of 3)"_s;
        failed.retryInMs = 1000;
        f.agent.send(u"Hi"_s);
        QTRY_COMPARE(f.client.requests().size(), 1);
        emit f.client.attemptFinished(failed);

        QTRY_VERIFY(indexOfKind(f.view, ChatItem::Kind::Notice) > 0);
        const int index = indexOfKind(f.view, ChatItem::Kind::Notice);
        auto *notice = static_cast<NoticeCard *>(f.view.item(index));
        QCOMPARE(notice->severity(), NoticeCard::Severity::Retrying);
        QCOMPARE(notice->title(), NoticeCard::titleFor(NoticeCard::Severity::Retrying));
        QVERIFY(notice->message().contains(u"retrying in 1 s"_s));

        emit f.client.finished(answer.response);
        QTRY_COMPARE(f.finished.size(), 1);

        // The same card, now saying what happened.
        QCOMPARE(f.view.item(index), notice);
        QCOMPARE(notice->severity(), NoticeCard::Severity::Recovered);
        QCOMPARE(notice->title(), NoticeCard::titleFor(NoticeCard::Severity::Recovered));
        QCOMPARE(notice->message(), u"Recovered after 2 attempts: attempt 1 failed (HTTP 429)."_s);
        QVERIFY(!notice->plainText().contains(u"retrying in"_s));
        QVERIFY(!notice->isRetryAvailable());
    }

    void eachKindOfNoticeHasItsOwnTitle()
    {
        const QList<NoticeCard::Severity> all{
            NoticeCard::Severity::Error,      NoticeCard::Severity::Limit,
            NoticeCard::Severity::Cancelled,  NoticeCard::Severity::Blocked,
            NoticeCard::Severity::Info,       NoticeCard::Severity::Retrying,
            NoticeCard::Severity::Recovered,  NoticeCard::Severity::RetriesFailed,
            NoticeCard::Severity::ContextFull};
        QSet<QString> titles;
        for (const NoticeCard::Severity severity : all)
            titles.insert(NoticeCard::titleFor(severity));
        QCOMPARE(titles.size(), all.size());
        QVERIFY(!titles.contains(QString()));
    }

    void onlyTheLatestTurnOffersRetry()
    {
        Fixture f;
        f.client.enqueue(
            {ScriptedModelClient::failure(u"Down"_s), ScriptedModelClient::failure(u"Still down"_s)});
        f.agent.send(u"One"_s);
        QTRY_COMPARE(f.finished.size(), 1);
        f.agent.send(u"Two"_s);
        QTRY_COMPARE(f.finished.size(), 2);

        auto *first = static_cast<NoticeCard *>(f.view.item(indexOfKind(f.view, ChatItem::Kind::Notice, 0)));
        auto *second = static_cast<NoticeCard *>(f.view.item(indexOfKind(f.view, ChatItem::Kind::Notice, 1)));
        QVERIFY(!first->isRetryAvailable());
        QVERIFY(second->isRetryAvailable());
    }

    // -----------------------------------------------------------------------
    // Approval

    void anMcpToolsApprovalNamesItsServer()
    {
        QNetworkAccessManager network;
        McpHub hub(&network);
        McpServerConfig server;
        server.name = u"notes-server"_s;
        server.command = u"python3"_s;
        server.arguments = {QStringLiteral(MCPUI_SERVER)};
        hub.setServers({server});
        QTRY_VERIFY_WITH_TIMEOUT(
            hub.client(server.name) && hub.client(server.name)->state() == McpClient::State::Ready, 15000);
        QTRY_VERIFY(hub.resolve(u"lookup"_s).has_value());

        Fixture f;
        for (const auto &tool : hub.tools())
            f.workbench.add(tool);
        f.view.setMcpHub(&hub);
        f.approvals.setRule(u"lookup"_s, ToolApprovalPolicy::Rule::Ask);
        f.approvals.setRule(u"add"_s, ToolApprovalPolicy::Rule::Ask);
        f.client.enqueue({ScriptedModelClient::calls(
                              {ScriptedModelClient::call(u"c1"_s, u"lookup"_s, u"{\"q\":\"milk\"}"_s)}),
                          ScriptedModelClient::calls(
                              {ScriptedModelClient::call(u"c2"_s, u"add"_s, u"{\"a\":1,\"b\":2}"_s)}),
                          ScriptedModelClient::text(u"Done."_s)});
        f.agent.send(u"Look it up"_s);

        QTRY_VERIFY(f.view.toolCallCard(u"c1"_s) && f.view.toolCallCard(u"c1"_s)->approvalCard());
        ApprovalCard *form = f.view.toolCallCard(u"c1"_s)->approvalCard();
        QCOMPARE(form->serverName(), u"notes-server"_s);
        QVERIFY2(form->title()->text().contains(u"notes-server"_s), qPrintable(form->title()->text()));
        QVERIFY2(form->accessibleName().contains(u"notes-server"_s), qPrintable(form->accessibleName()));
        QTest::mouseClick(form->denyButton(), Qt::LeftButton);

        // A built-in tool names no server.
        QTRY_VERIFY(f.view.toolCallCard(u"c2"_s) && f.view.toolCallCard(u"c2"_s)->approvalCard());
        form = f.view.toolCallCard(u"c2"_s)->approvalCard();
        QVERIFY(form->serverName().isEmpty());
        QVERIFY2(!form->title()->text().contains(u"MCP"_s), qPrintable(form->title()->text()));
        QTest::mouseClick(form->denyButton(), Qt::LeftButton);
        QTRY_COMPARE(f.finished.size(), 1);
    }

    void allowingOnceRunsTheToolWithTheEditedArguments()
    {
        Fixture f;
        f.approvals.setRule(u"add"_s, ToolApprovalPolicy::Rule::Ask);
        f.client.enqueue({ScriptedModelClient::calls(
                              {ScriptedModelClient::call(u"c1"_s, u"add"_s, u"{\"a\":1,\"b\":2}"_s)}),
                          ScriptedModelClient::text(u"Done."_s)});
        f.agent.send(u"Add"_s);

        QTRY_VERIFY(f.view.toolCallCard(u"c1"_s) && f.view.toolCallCard(u"c1"_s)->approvalCard());
        ToolCallCard *card = f.view.toolCallCard(u"c1"_s);
        ApprovalCard *form = card->approvalCard();
        QCOMPARE(card->status(), ToolCallCard::Status::AwaitingApproval);
        QVERIFY(!card->isBusy());
        QVERIFY(card->isExpanded());
        QCOMPARE(parse(form->arguments()), parse(u"{\"a\":1,\"b\":2}"_s));
        QVERIFY(f.invocationsSoFar().isEmpty());

        form->editor()->setPlainText(u"{\n  \"a\": 40,\n  \"b\": 2\n}"_s);
        QVERIFY(form->problem().isEmpty());
        QTest::mouseClick(form->allowOnceButton(), Qt::LeftButton);

        QTRY_COMPARE(f.finished.size(), 1);
        QCOMPARE(f.invocationsSoFar(), QList<QJsonObject>{parse(u"{\"a\":40,\"b\":2}"_s)});
        QCOMPARE(card->result(), u"42"_s);
        QCOMPARE(parse(card->call().arguments), parse(u"{\"a\":40,\"b\":2}"_s));
        QVERIFY(!card->approvalCard());
        QCOMPARE(f.approvals.rule(u"add"_s), ToolApprovalPolicy::Rule::Ask);
        const int node = card->traceNode();
        QCOMPARE(parse(f.trace.node(node).data<ToolCallData>().originalArguments),
                 parse(u"{\"a\":1,\"b\":2}"_s));
    }

    void alwaysAllowRunsTheCallAndStopsAskingForTheTool()
    {
        Fixture f;
        f.approvals.setRule(u"add"_s, ToolApprovalPolicy::Rule::Ask);
        f.client.enqueue({ScriptedModelClient::calls(
                              {ScriptedModelClient::call(u"c1"_s, u"add"_s, u"{\"a\":1,\"b\":2}"_s)}),
                          ScriptedModelClient::text(u"Done."_s)});
        f.agent.send(u"Add"_s);
        QTRY_VERIFY(f.view.toolCallCard(u"c1"_s) && f.view.toolCallCard(u"c1"_s)->approvalCard());

        QTest::mouseClick(f.view.toolCallCard(u"c1"_s)->approvalCard()->alwaysAllowButton(), Qt::LeftButton);
        QTRY_COMPARE(f.finished.size(), 1);
        QCOMPARE(f.invocationsSoFar(), QList<QJsonObject>{parse(u"{\"a\":1,\"b\":2}"_s)});
        QCOMPARE(f.approvals.rule(u"add"_s), ToolApprovalPolicy::Rule::Always);
        // Unedited (even if reformatted) arguments are not recorded as an edit.
        QVERIFY(f.trace.node(f.view.toolCallCard(u"c1"_s)->traceNode())
                    .data<ToolCallData>()
                    .originalArguments.isEmpty());
    }

    void alwaysAllowForAFolderLetsTheNextWriteThereThroughAndAsksElsewhere()
    {
        Fixture f;
        QTemporaryDir workspace;
        QVERIFY(QDir(workspace.path()).mkpath(u"src"_s) && QDir(workspace.path()).mkpath(u"docs"_s));
        f.approvals.setWorkspace(Workspace(workspace.path()));
        // A stand-in for write_file (the real one lives elsewhere): it asks first and records its calls.
        ToolBehaviour asksFirst;
        asksFirst.asksFirst = true;
        QList<QString> written;
        f.workbench.add(std::make_shared<FunctionTool>(
            ToolSchema{u"write_file"_s, u"Writes a file"_s, {}},
            [&](const QJsonObject &arguments, ToolContext &) {
                QMutexLocker lock(&f.mutex);
                written.append(arguments.value(u"path"_s).toString());
                return ToolResult::success(u"written"_s);
            },
            asksFirst));
        const auto write = [](const QString &id, const QString &path) {
            return ScriptedModelClient::call(
                id, u"write_file"_s,
                QString::fromUtf8(QJsonDocument(QJsonObject{{u"path"_s, path}, {u"content"_s, u"x\n"_s}})
                                      .toJson(QJsonDocument::Compact)));
        };
        f.client.enqueue({ScriptedModelClient::calls({write(u"c1"_s, u"src/a.txt"_s)}),
                          ScriptedModelClient::calls({write(u"c2"_s, u"src/b.txt"_s)}),
                          ScriptedModelClient::calls({write(u"c3"_s, u"docs/c.txt"_s)}),
                          ScriptedModelClient::text(u"Done."_s)});
        f.agent.send(u"Write"_s);

        QTRY_VERIFY(f.view.toolCallCard(u"c1"_s) && f.view.toolCallCard(u"c1"_s)->approvalCard());
        ApprovalCard *form = f.view.toolCallCard(u"c1"_s)->approvalCard();
        QTRY_VERIFY(!form->isPreviewPending());
        QVERIFY(form->diffView()->toPlainText().contains(u"+x"_s));
        QVERIFY(form->alwaysAllowMenu());
        const QList<QAction *> choices = form->alwaysAllowMenu()->actions();
        QVERIFY2(choices.constFirst()->text().contains(u"src"_s), qPrintable(choices.constFirst()->text()));
        choices.constFirst()->trigger();

        // c2 is in src: it runs without a card; c3 is not, and is asked about.
        QTRY_VERIFY(f.view.toolCallCard(u"c3"_s) && f.view.toolCallCard(u"c3"_s)->approvalCard());
        QVERIFY(!f.view.toolCallCard(u"c2"_s)->approvalCard());
        {
            QMutexLocker lock(&f.mutex);
            QCOMPARE(written, (QList<QString>{u"src/a.txt"_s, u"src/b.txt"_s}));
        }
        // Denied once its preview is shown (it is made off the GUI thread; under load it comes late).
        QTRY_VERIFY(!f.view.toolCallCard(u"c3"_s)->approvalCard()->isPreviewPending());
        QTest::mouseClick(f.view.toolCallCard(u"c3"_s)->approvalCard()->denyButton(), Qt::LeftButton);
        QTRY_COMPARE(f.finished.size(), 1);

        // The trace keeps the scope and the diff the user saw.
        QList<WaitData> waits;
        for (int id = 0; id < f.trace.size(); ++id) {
            if (f.trace.node(id).kind == TraceKind::Wait)
                waits.append(f.trace.node(id).data<WaitData>());
        }
        QCOMPARE(waits.size(), 2);
        QCOMPARE(waits.at(0).scope, u"folder "_s + QDir(workspace.filePath(u"src"_s)).canonicalPath());
        QVERIFY2(waits.at(0).preview.contains(u"+x"_s), qPrintable(waits.at(0).preview));
        QCOMPARE(waits.at(1).decision, u"denied"_s);
        QVERIFY(waits.at(1).preview.contains(u"docs/c.txt"_s));
    }

    void denyingMakesTheModelSeeADenial()
    {
        Fixture f;
        f.approvals.setRule(u"add"_s, ToolApprovalPolicy::Rule::Ask);
        f.client.enqueue({ScriptedModelClient::calls(
                              {ScriptedModelClient::call(u"c1"_s, u"add"_s, u"{\"a\":1,\"b\":2}"_s)}),
                          ScriptedModelClient::text(u"I could not add them."_s)});
        f.agent.send(u"Add"_s);
        QTRY_VERIFY(f.view.toolCallCard(u"c1"_s) && f.view.toolCallCard(u"c1"_s)->approvalCard());
        ToolCallCard *card = f.view.toolCallCard(u"c1"_s);

        QTest::mouseClick(card->approvalCard()->denyButton(), Qt::LeftButton);
        QTRY_COMPARE(f.finished.size(), 1);

        QVERIFY(f.invocationsSoFar().isEmpty());
        QCOMPARE(card->status(), ToolCallCard::Status::Denied);
        QCOMPARE(f.client.requests().size(), 2);
        const Message *denial = lastToolResult(f.client.requests().at(1));
        QVERIFY(denial);
        QCOMPARE(denial->toolCallId, u"c1"_s);
        QVERIFY(denial->isError);
        QVERIFY2(denial->text.contains(u"denied"_s, Qt::CaseInsensitive), qPrintable(denial->text));
        QCOMPARE(f.view.itemText(f.view.itemCount() - 1), u"I could not add them."_s);
    }

    void aDenialReadsOnceOnItsCard()
    {
        Fixture f;
        f.approvals.setRule(u"add"_s, ToolApprovalPolicy::Rule::Ask);
        f.client.enqueue({ScriptedModelClient::calls(
                              {ScriptedModelClient::call(u"c1"_s, u"add"_s, u"{\"a\":1,\"b\":2}"_s)}),
                          ScriptedModelClient::text(u"I could not add them."_s)});
        f.agent.send(u"Add"_s);
        f.view.show();
        QTRY_VERIFY(f.view.toolCallCard(u"c1"_s) && f.view.toolCallCard(u"c1"_s)->approvalCard());
        ToolCallCard *card = f.view.toolCallCard(u"c1"_s);
        QTest::mouseClick(card->approvalCard()->denyButton(), Qt::LeftButton);
        QTRY_COMPARE(f.finished.size(), 1);
        QTRY_VERIFY(!card->approvalCard());
        card->setExpanded(true);

        QStringList texts;
        for (const QLabel *label : card->findChildren<QLabel *>()) {
            if (label->isVisibleTo(card))
                texts.append(label->text());
        }
        for (const CodeBlockView *code : card->findChildren<CodeBlockView *>()) {
            if (code->isVisibleTo(card))
                texts.append(code->code());
        }
        const QStringList denials = texts.filter(u"Denied"_s, Qt::CaseInsensitive);
        QCOMPARE(denials, QStringList{u"Denied by the user."_s});
        QCOMPARE(card->statusLabel()->text(), u"Denied by the user."_s);
    }

    void argumentsThatCannotRunCannotBeAllowed_data()
    {
        QTest::addColumn<QString>("arguments");
        QTest::newRow("not JSON") << u"{\"a\": 1,"_s;
        QTest::newRow("an array") << u"[1, 2]"_s;
        QTest::newRow("a wrong type for the schema") << u"{\"a\": \"one\", \"b\": 2}"_s;
        QTest::newRow("a missing required property") << u"{\"a\": 1}"_s;
    }
    void argumentsThatCannotRunCannotBeAllowed()
    {
        QFETCH(QString, arguments);
        ApprovalCard form(u"add"_s, u"{\"a\":1,\"b\":2}"_s, addSchema);
        QVERIFY(form.problem().isEmpty());
        QVERIFY(form.allowOnceButton()->isEnabled());

        form.editor()->setPlainText(arguments);
        QVERIFY(!form.problem().isEmpty());
        QVERIFY(!form.allowOnceButton()->isEnabled());
        QVERIFY(!form.alwaysAllowButton()->isEnabled());
        QVERIFY(form.denyButton()->isEnabled());

        form.editor()->setPlainText(u"{\"a\": 5, \"b\": 6}"_s);
        QVERIFY(form.problem().isEmpty());
        QVERIFY(form.allowOnceButton()->isEnabled());
        QCOMPARE(parse(form.editedArguments().value_or(QString())), parse(u"{\"a\":5,\"b\":6}"_s));
    }

    // -----------------------------------------------------------------------
    // Selection

    void clickingAnItemSelectsItsTraceNode_data()
    {
        QTest::addColumn<ChatItem::Kind>("kind");
        QTest::addColumn<TraceKind>("nodeKind");
        QTest::newRow("the question selects its turn") << ChatItem::Kind::UserMessage << TraceKind::Turn;
        QTest::newRow("the answer selects its model call")
            << ChatItem::Kind::AssistantMessage << TraceKind::ModelCall;
        QTest::newRow("a tool card selects its tool call") << ChatItem::Kind::ToolCall << TraceKind::ToolCall;
    }
    void clickingAnItemSelectsItsTraceNode()
    {
        QFETCH(ChatItem::Kind, kind);
        QFETCH(TraceKind, nodeKind);
        Fixture f;
        f.view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&f.view));
        runToolTurn(f);
        if (QTest::currentTestFailed())
            return;

        const int index = indexOfKind(f.view, kind);
        ChatItem *item = f.view.item(index);
        QSignalSpy selected(&f.view, &ChatView::traceNodeSelected);
        // A child that takes the click itself, or one that passes it on.
        QWidget *target
            = kind == ChatItem::Kind::ToolCall
                  ? static_cast<QWidget *>(static_cast<ToolCallCard *>(item)->statusLabel())
                  : static_cast<MessageWidget *>(item)->markdownView()->proseBlocks().value(0)->viewport();
        QTest::mouseClick(target, Qt::LeftButton, {}, QPoint(2, 2));

        QCOMPARE(selected.size(), 1);
        const int node = selected.at(0).at(0).toInt();
        QCOMPARE(node, item->traceNode());
        QCOMPARE(f.trace.node(node).kind, nodeKind);
        QVERIFY(item->isSelected());
        QCOMPARE(f.view.selectedIndex(), index);
    }

    void theConversationIsOneTabStopWhoseItemsTheArrowKeysWalk()
    {
        Fixture f;
        runToolTurn(f);
        if (QTest::currentTestFailed())
            return;
        QWidget window;
        auto *before = new QLineEdit(&window);
        auto *layout = new QVBoxLayout(&window);
        layout->addWidget(before);
        layout->addWidget(&f.view);
        auto *after = new QLineEdit(&window);
        layout->addWidget(after);
        const auto giveBack = qScopeGuard([&f] { f.view.setParent(nullptr); });
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));

        // A button of a message the window's Tab order reaches stands for the whole view...
        auto *copy = f.view.item(0)->findChild<QToolButton *>();
        QVERIFY(copy && (copy->focusPolicy() & Qt::TabFocus));
        copy->setFocus(Qt::TabFocusReason);
        QCOMPARE(QApplication::focusWidget(), &f.view);
        // ... which Tab leaves at once, past every message, and Shift+Tab enters again.
        QTest::keyClick(&f.view, Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), after);
        QTest::keyClick(after, Qt::Key_Backtab);
        QCOMPARE(QApplication::focusWidget(), &f.view);
        QTest::keyClick(&f.view, Qt::Key_Backtab);
        QCOMPARE(QApplication::focusWidget(), before);

        // Inside, the arrow keys select the items and their steps in the trace.
        QSignalSpy selected(&f.view, &ChatView::traceNodeSelected);
        f.view.setFocus();
        QTest::keyClick(&f.view, Qt::Key_Down);
        QCOMPARE(f.view.selectedIndex(), 0);
        QTest::keyClick(&f.view, Qt::Key_Down);
        QCOMPARE(f.view.selectedIndex(), 1);
        QTest::keyClick(&f.view, Qt::Key_End);
        QCOMPARE(f.view.selectedIndex(), 2);
        QTest::keyClick(&f.view, Qt::Key_Up);
        QCOMPARE(f.view.selectedIndex(), 1);
        QCOMPARE(selected.size(), 4);
        QCOMPARE(selected.last().at(0).toInt(), f.view.item(1)->traceNode());
    }

    void theQuestionBeingEditedIsOutlinedUnlikeASelection()
    {
        Fixture f;
        runToolTurn(f);
        if (QTest::currentTestFailed())
            return;
        f.view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&f.view));
        ChatItem *question = f.view.item(0);
        QCOMPARE(question->kind(), ChatItem::Kind::UserMessage);
        const QImage plain = question->grab().toImage();
        f.view.selectTraceNode(question->traceNode());
        QVERIFY(question->isSelected());
        const QImage selected = question->grab().toImage();
        f.view.selectTraceNode(-1);
        f.view.setEditingLastQuestion(true);
        QCOMPARE(f.view.editedIndex(), 0);
        const QImage editing = question->grab().toImage();
        f.view.selectTraceNode(question->traceNode());
        const QImage both = question->grab().toImage();

        QVERIFY(selected != plain);
        QVERIFY(editing != plain);
        QVERIFY2(editing != selected, "editing looks like a selection");
        QVERIFY(both != selected);
        QVERIFY(both != editing);
    }

    void selectingATraceNodeHighlightsItsItem_data()
    {
        QTest::addColumn<TraceKind>("nodeKind");
        QTest::addColumn<int>("occurrence");
        QTest::addColumn<ChatItem::Kind>("expected");
        QTest::newRow("a turn shows its question") << TraceKind::Turn << 0 << ChatItem::Kind::UserMessage;
        QTest::newRow("the answering model call shows the answer")
            << TraceKind::ModelCall << 1 << ChatItem::Kind::AssistantMessage;
        QTest::newRow("a tool call shows its card") << TraceKind::ToolCall << 0 << ChatItem::Kind::ToolCall;
        QTest::newRow("the first iteration shows its first item inside")
            << TraceKind::Iteration << 0 << ChatItem::Kind::ToolCall;
        QTest::newRow("a model call that only asked for a tool shows its card")
            << TraceKind::ModelCall << 0 << ChatItem::Kind::ToolCall;
    }
    void selectingATraceNodeHighlightsItsItem()
    {
        QFETCH(TraceKind, nodeKind);
        QFETCH(int, occurrence);
        QFETCH(ChatItem::Kind, expected);
        Fixture f;
        runToolTurn(f);
        if (QTest::currentTestFailed())
            return;
        QSignalSpy selected(&f.view, &ChatView::traceNodeSelected);

        const int node = nodesOfKind(f.trace, nodeKind).value(occurrence, -1);
        QVERIFY(node >= 0);
        f.view.selectTraceNode(node);

        const int index = f.view.selectedIndex();
        QVERIFY(index >= 0);
        QCOMPARE(f.view.item(index)->kind(), expected);
        QVERIFY(f.view.item(index)->isSelected());
        for (int i = 0; i < f.view.itemCount(); ++i)
            QCOMPARE(f.view.item(i)->isSelected(), i == index);
        QCOMPARE(selected.size(), 0);

        f.view.selectTraceNode(-1);
        QCOMPARE(f.view.selectedIndex(), -1);
    }

    // -----------------------------------------------------------------------
    // Markdown

    void tablesAndCodeBlocksRender()
    {
        ConversationRows rows;
        ChatView view;
        view.setModel(&rows);
        view.resize(480, 360);
        rows.showHistory(
            {Message::user(u"Show me"_s),
             Message::assistant(u"# Result\n\n| name | value |\n|---|---|\n| a | 1 |\n| b | 2 |\n\n"
                                "```cpp\nint main() { return 0; }\n```\n\nThat is all."_s)});
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));

        auto *answer = qobject_cast<MessageWidget *>(view.item(1));
        QVERIFY(answer);
        const QList<TextBlockView *> prose = answer->markdownView()->proseBlocks();
        QCOMPARE(prose.size(), 2);
        QTextTable *table = nullptr;
        for (QTextFrame *frame : prose.at(0)->document()->rootFrame()->childFrames()) {
            if (auto *found = qobject_cast<QTextTable *>(frame))
                table = found;
        }
        QVERIFY(table);
        QCOMPARE(table->rows(), 3);
        QCOMPARE(table->columns(), 2);
        QCOMPARE(table->cellAt(2, 0).firstCursorPosition().block().text(), u"b"_s);

        const QList<CodeBlockView *> code = answer->markdownView()->codeBlocks();
        QCOMPARE(code.size(), 1);
        QCOMPARE(code.at(0)->code(), u"int main() { return 0; }"_s);
        QCOMPARE(code.at(0)->language(), u"cpp"_s);
        // Monospace as drawn, whatever the font is called here.
        const QFontMetrics codeMetrics(code.at(0)->textView()->font());
        QCOMPARE(codeMetrics.horizontalAdvance(u"iiii"_s), codeMetrics.horizontalAdvance(u"MMMM"_s));
        const QFontMetrics proseMetrics(prose.at(0)->font());
        QVERIFY(proseMetrics.horizontalAdvance(u"iiii"_s) < proseMetrics.horizontalAdvance(u"MMMM"_s));

        QTest::mouseClick(code.at(0)->copyButton(), Qt::LeftButton);
        QCOMPARE(QGuiApplication::clipboard()->text(), u"int main() { return 0; }"_s);
    }

    void aQuestionShowsItsAttachmentsAsChipsThatOpenThem_data()
    {
        QTest::addColumn<bool>("live");
        QTest::newRow("asked now") << true;
        QTest::newRow("reopened from a session") << false;
    }
    void aQuestionShowsItsAttachmentsAsChipsThatOpenThem()
    {
        QFETCH(bool, live);
        const QList<Attachment> attachments = imageAndNotes();
        Fixture f;
        if (live) {
            f.client.enqueue({ScriptedModelClient::text(u"A green square."_s)});
            f.agent.send(u"What is this?"_s, attachments);
            QTRY_COMPARE(f.finished.size(), 1);
        } else {
            f.rows.showHistory(
                {Message::user(u"What is this?"_s, attachments), Message::assistant(u"A green square."_s)});
        }
        auto *question = static_cast<MessageWidget *>(f.view.item(0));
        QCOMPARE(question->role(), MessageWidget::Role::User);
        QTRY_COMPARE(question->attachmentChips().size(), 2);
        QCOMPARE(question->attachments(), attachments);
        QCOMPARE(static_cast<MessageWidget *>(f.view.item(1))->attachmentChips().size(), 0);

        Testing::UrlRecorder desktop;
        QDesktopServices::setUrlHandler(u"file"_s, &desktop, "open");
        const auto unset = qScopeGuard([] { QDesktopServices::unsetUrlHandler(u"file"_s); });
        for (AttachmentChip *chip : question->attachmentChips())
            chip->open();
        QCOMPARE(desktop.opened.size(), 2);
        QFile image(desktop.opened.at(0).toLocalFile());
        QVERIFY(image.open(QIODevice::ReadOnly));
        QCOMPARE(image.readAll(), attachments.at(0).bytes);
        QFile notes(desktop.opened.at(1).toLocalFile());
        QVERIFY(notes.open(QIODevice::ReadOnly));
        QCOMPARE(notes.readAll(), QByteArray("# Notes\n"));
        QVERIFY(desktop.opened.at(1).toLocalFile().endsWith(u"/notes.md"_s));
    }

    void copyPutsTheWholeMessageOnTheClipboard()
    {
        ConversationRows rows;
        ChatView view;
        view.setModel(&rows);
        const QString text = u"Some *text* and `code`."_s;
        rows.showHistory({Message::user(u"Hi"_s), Message::assistant(text)});
        auto *answer = static_cast<MessageWidget *>(view.item(1));
        QTest::mouseClick(answer->copyButton(), Qt::LeftButton);
        QCOMPARE(QGuiApplication::clipboard()->text(), text);
    }

    void anAnswerShowsTheSourcesItDrewOnAndAClickOpensOne()
    {
        Fixture f;
        // A search tool as knowledge_search reports one: its hits in the result's details.
        const RetrievalData retrieval{
            u"refunds"_s,
            {u"policies"_s},
            {},
            5,
            {RetrievalHit{
                 u"policies"_s, u"/docs/refunds.md"_s, 3, 9, 2.5, {}, {}, u"Refunds are approved."_s},
             RetrievalHit{u"policies"_s, u"/docs/<travel>.md"_s, 12, 12, 1.5, {}, {}, u"Trains."_s}},
            0,
            900,
            {}};
        f.workbench.add(std::make_shared<FunctionTool>(
            ToolSchema{u"search"_s, u"Searches"_s, QJsonObject{{u"type"_s, u"object"_s}}},
            [retrieval](const QJsonObject &, ToolContext &) {
                ToolResult result = ToolResult::success(u"[1] refunds.md"_s);
                result.details.insert(RetrievalDetailsKey, retrieval.toJson());
                return result;
            }));
        f.view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&f.view));
        f.client.enqueue(
            {ScriptedModelClient::calls({ScriptedModelClient::call(u"s1"_s, u"search"_s, u"{}"_s)}),
             ScriptedModelClient::text(u"The finance lead approves them."_s)});
        QVERIFY(f.agent.send(u"Who approves refunds?"_s));
        QTRY_COMPARE(f.finished.size(), 1);

        auto *answer = static_cast<MessageWidget *>(
            f.view.item(indexOfKind(f.view, ChatItem::Kind::AssistantMessage)));
        SourcesLine *sources = answer->sourcesLine();
        QTRY_VERIFY(sources->isVisible());
        QCOMPARE(sources->sources(), retrieval.hits);
        QVERIFY2(sources->text().contains(u"refunds.md, lines 3–9"_s), qPrintable(sources->text()));
        QVERIFY2(sources->text().contains(u"&lt;travel&gt;.md, line 12"_s), qPrintable(sources->text()));
        QCOMPARE(sources->toolTip(), u"/docs/refunds.md\n/docs/<travel>.md"_s);

        // A click on a link opens its file at its line.
        QList<std::pair<QString, int>> opened;
        sources->setOpener([&opened](const RetrievalHit &hit) { opened.append({hit.path, hit.startLine}); });
        QTest::mouseClick(sources, Qt::LeftButton, {}, linkPosition(*sources, u"<travel>.md, line 12"_s));
        QCOMPARE(opened, (QList<std::pair<QString, int>>{{u"/docs/<travel>.md"_s, 12}}));

        // The question and an answer without a search show none.
        f.client.enqueue(ScriptedModelClient::text(u"You are welcome."_s));
        QVERIFY(f.agent.send(u"Thanks"_s));
        QTRY_COMPARE(f.finished.size(), 2);
        auto *later = static_cast<MessageWidget *>(f.view.item(f.view.itemCount() - 1));
        QCOMPARE(later->text(), u"You are welcome."_s);
        QVERIFY(!later->sourcesLine()->isVisible());
        QVERIFY(!static_cast<MessageWidget *>(f.view.item(0))->sourcesLine()->isVisible());
    }

    // -----------------------------------------------------------------------
    // Edit, regenerate, history

    void theLastQuestionOffersEditAndTheLastAnswerRegenerate()
    {
        Fixture f;
        f.client.enqueue({ScriptedModelClient::text(u"First answer"_s),
                          ScriptedModelClient::text(u"Second answer"_s), ScriptedModelClient::hang()});
        f.agent.send(u"First question"_s);
        QTRY_COMPARE(f.finished.size(), 1);
        f.agent.send(u"Second question"_s);
        QTRY_COMPARE(f.finished.size(), 2);

        QCOMPARE(f.view.itemCount(), 4);
        const auto message = [&f](int index) {
            return static_cast<MessageWidget *>(f.view.item(index));
        };
        QVERIFY(!message(0)->isLastActionAvailable());
        QVERIFY(!message(1)->isLastActionAvailable());
        QVERIFY(message(2)->isLastActionAvailable());
        QVERIFY(message(3)->isLastActionAvailable());

        QSignalSpy edit(&f.view, &ChatView::editLastRequested);
        QSignalSpy regenerate(&f.view, &ChatView::regenerateRequested);
        QTest::mouseClick(message(2)->lastActionButton(), Qt::LeftButton);
        QCOMPARE(edit.size(), 1);
        QCOMPARE(edit.at(0).at(0).toString(), u"Second question"_s);
        QTest::mouseClick(message(3)->lastActionButton(), Qt::LeftButton);
        QCOMPARE(regenerate.size(), 1);

        // Not while a turn runs.
        f.agent.send(u"Third question"_s);
        QTRY_VERIFY(f.agent.isRunning());
        for (int i = 0; i < f.view.itemCount(); ++i) {
            if (auto *m = qobject_cast<MessageWidget *>(f.view.item(i)))
                QVERIFY(!m->isLastActionAvailable());
        }
    }

    void aReadOnlyViewOffersNoEditRegenerateOrRetry()
    {
        Fixture f;
        f.view.setReadOnly(true);
        f.client.enqueue({ScriptedModelClient::text(u"First answer"_s),
                          ScriptedModelClient::failure(u"The provider is down"_s, 503)});
        f.agent.send(u"First question"_s);
        QTRY_COMPARE(f.finished.size(), 1);
        f.agent.send(u"Second question"_s);
        QTRY_COMPARE(f.finished.size(), 2);

        int notices = 0;
        for (int i = 0; i < f.view.itemCount(); ++i) {
            if (auto *message = qobject_cast<MessageWidget *>(f.view.item(i)))
                QVERIFY2(!message->isLastActionAvailable(), qPrintable(f.view.itemText(i)));
            if (auto *notice = qobject_cast<NoticeCard *>(f.view.item(i))) {
                ++notices;
                QVERIFY(!notice->isRetryAvailable());
            }
        }
        QCOMPARE(notices, 1);

        // The same conversation, not read-only: the failed question offers Retry.
        f.view.setReadOnly(false);
        NoticeCard *notice = nullptr;
        for (int i = 0; i < f.view.itemCount() && !notice; ++i)
            notice = qobject_cast<NoticeCard *>(f.view.item(i));
        QVERIFY(notice->isRetryAvailable());
    }

    void theEmptyViewSaysWhatItsOwnerSets()
    {
        ChatView view;
        QVERIFY(view.emptyText().startsWith(u"Ask the agent something."_s));
        view.setEmptyText(u"Press Replay to run the recorded turn again."_s);
        QCOMPARE(view.emptyText(), u"Press Replay to run the recorded turn again."_s);
        QVERIFY(view.isEmptyHintVisible());
    }

    void askingAgainKeepsTheReplacedTurnDimmed_data()
    {
        QTest::addColumn<bool>("edit");
        QTest::newRow("regenerate") << false;
        QTest::newRow("edit and resend") << true;
    }
    void askingAgainKeepsTheReplacedTurnDimmed()
    {
        QFETCH(bool, edit);
        Fixture f;
        f.client.enqueue({ScriptedModelClient::text(u"Paris"_s), ScriptedModelClient::text(u"Rome"_s),
                          ScriptedModelClient::text(u"It is Rome."_s)});
        f.agent.send(u"Capital of France?"_s);
        QTRY_COMPARE(f.finished.size(), 1);
        f.agent.send(u"Capital of Italy?"_s);
        QTRY_COMPARE(f.finished.size(), 2);

        // What ChatSession does with the request: back to before the question, ask again.
        const auto askAgain = [&f](const QString &text) {
            f.agent.setHistory(f.agent.history().mid(0, 2));
            f.agent.send(text);
        };
        connect(&f.view, &ChatView::regenerateRequested, &f.view, [&] { askAgain(u"Capital of Italy?"_s); });
        connect(&f.view, &ChatView::editLastRequested, &f.view,
                [&](const QString &text) { askAgain(text + u" Answer in a sentence."_s); });
        auto *button = static_cast<MessageWidget *>(f.view.item(edit ? 2 : 3))->lastActionButton();
        QTest::mouseClick(button, Qt::LeftButton);
        QTRY_COMPARE(f.finished.size(), 3);

        // The trace keeps the replaced turn, so the chat does too: dimmed, offering nothing.
        QCOMPARE(f.view.itemCount(), 6);
        QCOMPARE(f.view.itemText(0), u"Capital of France?"_s);
        QCOMPARE(f.view.itemText(1), u"Paris"_s);
        QCOMPARE(f.view.itemText(2), u"Capital of Italy?"_s);
        QCOMPARE(f.view.itemText(3), u"Rome"_s);
        QVERIFY(f.view.item(2)->isReplaced() && f.view.item(3)->isReplaced());
        QVERIFY(!static_cast<MessageWidget *>(f.view.item(2))->isLastActionAvailable());
        QVERIFY(!f.view.item(2)->toolTip().isEmpty());
        QCOMPARE(f.view.itemText(4),
                 edit ? u"Capital of Italy? Answer in a sentence."_s : u"Capital of Italy?"_s);
        QCOMPARE(f.view.itemText(5), u"It is Rome."_s);
        QVERIFY(!f.view.item(4)->isReplaced() && !f.view.item(5)->isReplaced());
        QVERIFY(static_cast<MessageWidget *>(f.view.item(4))->isLastActionAvailable());
    }

    void aBlockedQuestionStaysWhenTheNextOneIsAsked()
    {
        Fixture f;
        auto shield = std::make_shared<RuleShield>();
        RuleShield::Rule rule;
        rule.pattern = u"forbidden"_s;
        shield->addRule(rule);
        f.agent.addShield(shield);
        f.client.enqueue(ScriptedModelClient::text(u"Sure."_s));

        f.agent.send(u"Something forbidden"_s);
        QTRY_COMPARE(f.finished.size(), 1);
        QCOMPARE(f.view.itemCount(), 2);
        // It is not in the history, so it cannot be "the last question" to edit.
        QVERIFY(!static_cast<MessageWidget *>(f.view.item(0))->isLastActionAvailable());
        f.agent.send(u"Something else"_s);
        QTRY_COMPARE(f.finished.size(), 2);

        QCOMPARE(f.view.itemCount(), 4);
        QCOMPARE(f.view.itemText(0), u"Something forbidden"_s);
        QCOMPARE(f.view.item(1)->kind(), ChatItem::Kind::Notice);
        QCOMPARE(f.view.itemText(3), u"Sure."_s);
    }

    void aSavedConversationIsRebuiltWithResultsJoinedToTheirCalls()
    {
        Fixture f;
        runToolTurn(f);
        if (QTest::currentTestFailed())
            return;
        const QList<Message> history = f.agent.history();

        ConversationRows reopenedRows;
        ChatView reopened;
        reopened.setModel(&reopenedRows);
        reopenedRows.setTrace(&f.trace);
        reopenedRows.showHistory(history);

        QCOMPARE(reopened.itemCount(), f.view.itemCount());
        for (int i = 0; i < reopened.itemCount(); ++i) {
            QCOMPARE(reopened.item(i)->kind(), f.view.item(i)->kind());
            QCOMPARE(reopened.itemText(i), f.view.itemText(i));
            // The reopened trace still finds its items.
            QCOMPARE(reopened.item(i)->traceNode(), f.view.item(i)->traceNode());
        }
        auto *card = reopened.toolCallCard(u"c1"_s);
        QVERIFY(card);
        QCOMPARE(card->status(), ToolCallCard::Status::Succeeded);
        QCOMPARE(card->result(), u"5"_s);
        QVERIFY(!card->isBusy());
    }

    void aLongConversationOpensAtItsLastTurnsAndShowsEarlierOnesOnRequest()
    {
        Fixture f;
        constexpr int turns = ChatView::TurnsPerPage * 2 + 10;
        for (int i = 0; i < turns; ++i) {
            f.client.enqueue({ScriptedModelClient::text(u"Answer %1"_s.arg(i))});
            // The same question every time: each item must still find its own turn.
            QVERIFY(f.agent.send(u"Once more?"_s));
            QTRY_COMPARE(f.finished.size(), i + 1);
        }
        ConversationRows reopenedRows;
        ChatView reopened;
        reopened.setModel(&reopenedRows);
        reopenedRows.setTrace(&f.trace);
        const auto expectTurnsFrom = [&](int firstTurn) {
            QCOMPARE(reopened.earlierTurnCount(), firstTurn);
            QCOMPARE(reopened.itemCount(), 2 * (turns - firstTurn));
            for (int turn = firstTurn; turn < turns; ++turn) {
                const int question = 2 * (turn - firstTurn);
                QCOMPARE(reopened.item(question)->kind(), ChatItem::Kind::UserMessage);
                QCOMPARE(reopened.item(question)->traceNode(), f.trace.roots().at(turn));
                QCOMPARE(reopened.itemText(question + 1), u"Answer %1"_s.arg(turn));
                QVERIFY(reopened.item(question + 1)->traceNode() >= 0);
            }
            // Regenerate stays on the last answer only.
            const auto *lastAnswer = static_cast<MessageWidget *>(reopened.item(reopened.itemCount() - 1));
            QVERIFY(lastAnswer->isLastActionAvailable());
            QVERIFY(!static_cast<MessageWidget *>(reopened.item(1))->isLastActionAvailable());
        };

        reopenedRows.showHistory(f.agent.history());
        expectTurnsFrom(turns - ChatView::TurnsPerPage);
        if (QTest::currentTestFailed())
            return;
        reopened.showEarlierTurns();
        expectTurnsFrom(turns - 2 * ChatView::TurnsPerPage);
        if (QTest::currentTestFailed())
            return;
        reopened.showEarlierTurns();
        expectTurnsFrom(0);
        if (QTest::currentTestFailed())
            return;

        // Selecting in the trace finds the items of an early turn too.
        reopened.selectTraceNode(f.trace.roots().at(3));
        QCOMPARE(reopened.selectedIndex(), 6);
        reopenedRows.clear();
        QCOMPARE(reopened.earlierTurnCount(), 0);
    }

    void selectingATraceNodeOfATurnNotShownYetShowsItAndSelectsIt()
    {
        Fixture f;
        constexpr int turns = ChatView::TurnsPerPage + 3;
        for (int i = 0; i < turns; ++i) {
            f.client.enqueue({ScriptedModelClient::text(u"Answer %1"_s.arg(i))});
            QVERIFY(f.agent.send(u"Question %1"_s.arg(i)));
            QTRY_COMPARE(f.finished.size(), i + 1);
        }
        ConversationRows reopenedRows;
        ChatView reopened;
        reopened.setModel(&reopenedRows);
        reopenedRows.setTrace(&f.trace);
        reopenedRows.showHistory(f.agent.history());
        QCOMPARE(reopened.earlierTurnCount(), 3);
        QSignalSpy selected(&reopened, &ChatView::traceNodeSelected);

        reopened.selectTraceNode(f.trace.roots().at(1));

        QCOMPARE(reopened.earlierTurnCount(), 1);
        QCOMPARE(reopened.selectedIndex(), 0);
        QCOMPARE(reopened.itemText(0), u"Question 1"_s);
        QVERIFY(reopened.item(0)->isSelected());
        QCOMPARE(selected.size(), 0);
    }

    void theViewShowsTheRowsOfTheModelHandedToItUntilTheModelGoes()
    {
        auto rows = std::make_unique<ConversationRows>();
        rows->showHistory({Message::user(u"Hi"_s), Message::assistant(u"Hello"_s)});
        ChatView view;
        QCOMPARE(view.model(), nullptr);
        view.setModel(rows.get());
        QCOMPARE(view.model(), rows.get());
        QCOMPARE(view.itemCount(), 2);
        QCOMPARE(view.itemText(1), u"Hello"_s);
        rows.reset();
        QCOMPARE(view.model(), nullptr);
        QCOMPARE(view.itemCount(), 0);
        QVERIFY(view.isEmptyHintVisible());
    }

    void followingAnAgentLeavesFeedingTheModelToItsOwner()
    {
        Fixture f;
        ConversationRows unfed;
        ChatView view;
        view.setModel(&unfed);
        view.follow(&f.agent);
        f.client.enqueue({ScriptedModelClient::text(u"Hello"_s)});
        QVERIFY(f.agent.send(u"Hi"_s));
        QTRY_COMPARE(f.finished.size(), 1);

        QCOMPARE(unfed.rowCount(), 0);
        QCOMPARE(view.itemCount(), 0);
        QCOMPARE(f.view.itemCount(), 2);
    }

    void clearingEmptiesTheViewAndShowsTheHint()
    {
        ConversationRows rows;
        ChatView view;
        view.setModel(&rows);
        QVERIFY(view.isEmptyHintVisible());
        rows.showHistory({Message::user(u"Hi"_s), Message::assistant(u"Hello"_s)});
        QCOMPARE(view.itemCount(), 2);
        QVERIFY(!view.isEmptyHintVisible());
        rows.clear();
        QCOMPARE(view.itemCount(), 0);
        QVERIFY(view.isEmptyHintVisible());
    }

private:
    // Question, a call to add(2, 3), then the answer: items user, card, answer.
    static void runToolTurn(Fixture &f)
    {
        f.client.enqueue({ScriptedModelClient::calls(
                              {ScriptedModelClient::call(u"c1"_s, u"add"_s, u"{\"a\":2,\"b\":3}"_s)}),
                          ScriptedModelClient::text(u"The sum is 5."_s)});
        f.agent.send(u"What is 2 + 3?"_s);
        QTRY_COMPARE(f.finished.size(), 1);
        QCOMPARE(f.view.itemCount(), 3);
    }
};

QTEST_MAIN(ChatViewTest)
#include "tst_chatview.moc"
