#include "agent/debug/stepdebugger.h"
#include "agent/replay/replayrun.h"
#include "agent/session/chatsession.h"
#include "agent/trace/trace.h"
#include "agent/transcript/transcript.h"
#include "tests/replay/recordingfixture.h"
#include "ui/chat/chatview.h"
#include "ui/chat/messagewidget.h"
#include "ui/chat/noticecard.h"
#include "ui/debug/debugpanel.h"
#include "ui/replay/replaywindow.h"
#include "ui/trace/traceinspector.h"

#include <QCheckBox>
#include <QNetworkAccessManager>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace Loopscope;
using namespace Loopscope::Testing;
using namespace Qt::StringLiterals;

namespace {

// The standard turn recorded by a real agent, and the tools a replay may run
// live: multiply is off by `bias` to make a live run leave the recording.
struct Fixture
{
    explicit Fixture(int bias = 0)
        : liveTools(bias)
    {
        liveTools.install(liveWorkbench);
        recording.run(question, threeIterations());
        turn = recording.turns().value(0);
    }

    std::unique_ptr<Ui::ReplayWindow> window()
    {
        auto made = std::make_unique<Ui::ReplayWindow>(
            turn, u"Sums"_s, [] { return std::unique_ptr<ModelClient>(); },
            [this](const QString &name) { return liveWorkbench.find(name); });
        made->setAttribute(Qt::WA_DeleteOnClose, false);
        return made;
    }

    Recording recording;
    Tools liveTools;
    Workbench liveWorkbench;
    RecordedTurn turn;
};

QPushButton *button(const Ui::ReplayWindow &window, const QString &text)
{
    for (QPushButton *found : window.findChildren<QPushButton *>()) {
        if (found->text() == text)
            return found;
    }
    qWarning("no button %s", qPrintable(text));
    return nullptr;
}

} // namespace

class ReplayWindowTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        qRegisterMetaType<TurnResult>();
        qRegisterMetaType<AgentEvent>();
    }

    void theChatOffersNothingThatWouldNotWorkInAReplay()
    {
        Fixture f;
        QVERIFY(!f.turn.userText.isEmpty());
        const auto window = f.window();
        Ui::ChatView *chat = window->chatView();
        QVERIFY(chat->isReadOnly());
        // The first turn: nothing before it, and no box to ask in.
        QVERIFY(chat->isEmptyHintVisible());
        QVERIFY2(chat->emptyText().startsWith(u"Press Replay"_s), qPrintable(chat->emptyText()));
        QVERIFY(!chat->emptyText().contains(u"Ask the agent"_s));

        QSignalSpy finished(window->run(), &ReplayRun::finished);
        window->start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 15000);
        QVERIFY2(finished.first().first().toBool(), qPrintable(window->statusText()));
        QVERIFY(chat->itemCount() > 2);
        for (int i = 0; i < chat->itemCount(); ++i) {
            if (const auto *message = qobject_cast<Ui::MessageWidget *>(chat->item(i)))
                QVERIFY2(!message->isLastActionAvailable(), qPrintable(chat->itemText(i)));
            if (const auto *notice = qobject_cast<Ui::NoticeCard *>(chat->item(i)))
                QVERIFY2(!notice->isRetryAvailable(), qPrintable(chat->itemText(i)));
        }
    }

    void saveKeepsTheReplayedRunAsASessionThatReopens()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Fixture f;
        const auto window = f.window();
        // Nothing to keep before a run ended, nor without a library to keep it in.
        QVERIFY(!window->saveButton()->isEnabled());
        QVERIFY(!window->compareButton()->isEnabled());
        QSignalSpy finished(window->run(), &ReplayRun::finished);
        window->start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 15000);
        QVERIFY(!window->saveButton()->isEnabled());
        QVERIFY(window->compareButton()->isEnabled());
        QSignalSpy compare(window.get(), &Ui::ReplayWindow::compareRequested);
        window->compareButton()->click();
        QCOMPARE(compare.size(), 1);

        window->setSaveFolder(dir.path());
        QVERIFY(window->saveButton()->isEnabled());
        QSignalSpy saved(window.get(), &Ui::ReplayWindow::saved);
        window->saveButton()->click();
        QTRY_COMPARE(saved.size(), 1);
        const QString path = saved.first().first().toString();
        QVERIFY2(path.startsWith(dir.path()) && path.endsWith(u".loopscope.json"_s), qPrintable(path));

        const TranscriptLoadResult loaded = TranscriptFile::load(path);
        QVERIFY2(loaded.transcript, qPrintable(loaded.error));
        QCOMPARE(loaded.transcript->title, u"Sums (replay)"_s);
        QCOMPARE(loaded.transcript->messages, window->run()->agent()->history());
        QCOMPARE(loaded.transcript->turnCount(), 1);
        // It opens as a session does, its trace the replay's.
        QNetworkAccessManager network;
        ChatSession session(&network);
        QString error;
        QVERIFY2(session.restore(*loaded.transcript, &error), qPrintable(error));
        QCOMPARE(session.title(), u"Sums (replay)"_s);
        QCOMPARE(session.trace()->roots().size(), 1);
        QCOMPARE(session.agent()->history(), window->run()->agent()->history());
    }

    void aReplayCanRunAgainHoweverItEnded_data()
    {
        QTest::addColumn<QString>("ending");
        QTest::addColumn<bool>("reproduced");

        QTest::newRow("reproduced") << u"reproduced"_s << true;
        QTest::newRow("stopped while held at a breakpoint") << u"stopped"_s << false;
        QTest::newRow("diverged, then stopped") << u"diverged"_s << false;
    }

    void aReplayCanRunAgainHoweverItEnded()
    {
        QFETCH(QString, ending);
        QFETCH(bool, reproduced);

        Fixture f(ending == u"diverged"_s ? 1 : 0);
        const auto window = f.window();
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        QPushButton *start = window->startButton();
        QPushButton *stop = button(*window, u"&Stop"_s);
        QVERIFY(start->isEnabled());

        if (ending == u"stopped"_s) {
            window->debugger()->setBreakpoints({.toolNames = {u"add"_s}});
            window->debugger()->setEnabled(true);
        }
        if (ending == u"diverged"_s)
            window->findChild<QCheckBox *>()->setChecked(true); // the tools run live, multiply now differs

        ReplayRun *first = window->run();
        QSignalSpy finished(first, &ReplayRun::finished);
        QTest::mouseClick(start, Qt::LeftButton);
        QVERIFY(!start->isEnabled());
        if (ending == u"stopped"_s) {
            QTRY_VERIFY(window->debugger()->isPaused());
            QTest::mouseClick(stop, Qt::LeftButton);
        } else if (ending == u"diverged"_s) {
            QTRY_VERIFY_WITH_TIMEOUT(first->isWaitingForDecision(), 15000);
            QTest::mouseClick(stop, Qt::LeftButton);
        }
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 15000);
        QCOMPARE(finished.first().first().toBool(), reproduced);

        // However it ended, the recording can run again: a new run, in a new trace.
        QVERIFY(start->isEnabled());
        QCOMPARE(start->text(), u"Replay &Again"_s);
        QVERIFY(!stop->isEnabled());
        if (ending != u"reproduced"_s) {
            // With what made it end out of the way, it reproduces.
            window->debugger()->setEnabled(false);
            window->findChild<QCheckBox *>()->setChecked(false);
        }
        QTest::mouseClick(start, Qt::LeftButton);
        ReplayRun *second = window->run();
        QVERIFY(second != first);
        QSignalSpy again(second, &ReplayRun::finished);
        QTRY_COMPARE_WITH_TIMEOUT(again.size(), 1, 15000);
        QVERIFY2(again.first().first().toBool(), qPrintable(window->statusText()));
        QVERIFY2(window->statusText().startsWith(u"Reproduced"_s), qPrintable(window->statusText()));
        QCOMPARE(second->trace()->roots().size(), 1);
        QCOMPARE(window->traceInspector()->treeView()->model()->rowCount(), 1);
        // The chat shows the second run only: the question once.
        int questions = 0;
        for (int i = 0; i < window->chatView()->itemCount(); ++i)
            questions += window->chatView()->itemText(i) == question;
        QCOMPARE(questions, 1);
    }

    void theDebuggerActionsFollowTheReplaysTurn()
    {
        Fixture f;
        const auto window = f.window();
        auto *panel = window->findChild<Ui::DebugPanel *>();
        QVERIFY(panel);
        QVERIFY(!panel->stopAction()->isEnabled());
        window->debugger()->setBreakpoints({.toolNames = {u"add"_s}});
        window->debugger()->setEnabled(true);
        window->start();
        QTRY_VERIFY(window->debugger()->isPaused());
        QVERIFY(panel->stopAction()->isEnabled());
        QVERIFY(panel->continueAction()->isEnabled());
        QVERIFY(!panel->pauseAction()->isEnabled());
        QSignalSpy finished(window->run(), &ReplayRun::finished);
        window->debugger()->setEnabled(false); // lets the held calls go
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 15000);
        QTRY_VERIFY(!panel->stopAction()->isEnabled());
        QVERIFY(!panel->continueAction()->isEnabled());
    }
};

QTEST_MAIN(ReplayWindowTest)
#include "tst_replaywindow.moc"
