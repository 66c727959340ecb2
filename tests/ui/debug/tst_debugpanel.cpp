#include "agent/debug/stepdebugger.h"
#include "tests/debug/debugfixture.h"
#include "ui/debug/debugpanel.h"

#include <QAbstractButton>
#include <QAction>
#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTest>

using namespace Loopscope;
using namespace Loopscope::Testing;
using namespace Qt::StringLiterals;

namespace {

// A real agent held by the debugger the panel shows, wired as the app wires it.
struct Fixture : AgentFixture
{
    StepDebugger debugger;
    Ui::DebugPanel panel{&debugger, &workbench};

    Fixture()
    {
        agent.addInterceptor(&debugger);
        QObject::connect(&agent, &Agent::event, &debugger, &StepDebugger::observe);
        // The owner says when a turn runs (the main window: the session's busyChanged).
        QObject::connect(&agent, &Agent::stateChanged, &panel,
                         [this](Agent::State state) { panel.setTurnRunning(state != Agent::State::Idle); });
        QObject::connect(&panel, &Ui::DebugPanel::stopRequested, &agent, [this] {
            agent.cancel();
            debugger.forgetHeld();
        });
    }
    ~Fixture() { agent.removeInterceptor(&debugger); }

    template<typename T>
    T *child(const QString &name) const
    {
        T *widget = panel.findChild<T *>(name);
        if (!widget)
            qWarning("no child %s", qPrintable(name));
        return widget;
    }
    QPlainTextEdit *argumentsEditor() const { return child<QPlainTextEdit>(u"argumentsEditor"_s); }
    QPlainTextEdit *messagesEditor() const { return child<QPlainTextEdit>(u"messagesEditor"_s); }
    QPushButton *applyArguments() const { return child<QPushButton>(u"applyArgumentsButton"_s); }
    QString argumentsStatus() const { return child<QLabel>(u"argumentsStatus"_s)->text(); }
    QString stopText() const { return child<QLabel>(u"stopLabel"_s)->text(); }
    QString decisionText() const { return child<QLabel>(u"decisionLabel"_s)->text(); }
    QWidget *currentPage() const { return panel.findChild<QStackedWidget *>()->currentWidget(); }

    bool showPanel()
    {
        panel.resize(480, 720);
        panel.show();
        panel.activateWindow();
        return QTest::qWaitForWindowActive(&panel);
    }
    bool waitForToolStop(const QString &name)
    {
        return QTest::qWaitFor([&] {
            const auto stop = debugger.currentStop();
            return stop && stop->toolCall && stop->toolCall->call.name == name;
        });
    }
    bool waitForModelStop(int iteration)
    {
        return QTest::qWaitFor([&] {
            const auto stop = debugger.currentStop();
            return stop && stop->modelCall && stop->modelCall->iteration == iteration;
        });
    }
    bool waitForEnd()
    {
        return QTest::qWaitFor([&] { return !finished.isEmpty(); });
    }
};

QJsonObject parsed(const QString &text)
{
    return QJsonDocument::fromJson(text.toUtf8()).object();
}

} // namespace

class DebugPanelTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        qRegisterMetaType<TurnResult>();
        qRegisterMetaType<AgentEvent>();
    }

    void whenNothingIsHeldThePanelSaysHowToHoldTheLoop()
    {
        Fixture f;
        QVERIFY(f.showPanel());

        QVERIFY2(f.stopText().contains(u"Pause"_s), qPrintable(f.stopText()));
        QVERIFY(!f.child<QLabel>(u"decisionLabel"_s)->isVisible());
        QVERIFY(!f.argumentsEditor()->isVisible());
        QVERIFY(!f.messagesEditor()->isVisible());
    }

    // What each action can do at each moment: (pause, step, continue, stop) enabled.
    void theActionsAreEnabledOnlyWhenTheyCanDoSomething_data()
    {
        QTest::addColumn<QString>("moment");
        QTest::addColumn<QList<bool>>("enabled");

        QTest::newRow("nothing runs, debug mode off") << u"idle"_s << QList<bool>{false, false, false, false};
        QTest::newRow("nothing runs, debug mode on")
            << u"idle in debug mode"_s << QList<bool>{false, false, false, false};
        QTest::newRow("a turn runs, debug mode off")
            << u"running"_s << QList<bool>{false, false, false, true};
        QTest::newRow("a turn runs in debug mode")
            << u"running in debug mode"_s << QList<bool>{true, false, false, true};
        QTest::newRow("pausing: the loop has not reached a checkpoint yet")
            << u"pausing"_s << QList<bool>{false, false, true, true};
        QTest::newRow("held at a breakpoint") << u"held"_s << QList<bool>{false, true, true, true};
        QTest::newRow("the turn ended") << u"ended"_s << QList<bool>{false, false, false, false};
    }

    void theActionsAreEnabledOnlyWhenTheyCanDoSomething()
    {
        QFETCH(QString, moment);
        QFETCH(QList<bool>, enabled);

        Fixture f;
        if (moment.endsWith(u"debug mode"_s))
            f.child<QCheckBox>(u"debugModeBox"_s)->click();
        if (moment.startsWith(u"running"_s) || moment == u"pausing"_s) {
            f.client.enqueue(ScriptedModelClient::hang());
            QVERIFY(f.agent.send(u"1 + 2?"_s));
            QTRY_VERIFY(f.panel.stopAction()->isEnabled());
        }
        if (moment == u"pausing"_s) {
            f.child<QCheckBox>(u"debugModeBox"_s)->click();
            f.panel.pauseAction()->trigger();
            QVERIFY(f.debugger.isPausePending());
            QVERIFY2(f.stopText().contains(u"Pausing"_s), qPrintable(f.stopText()));
        }
        if (moment == u"held"_s || moment == u"ended"_s) {
            f.child<QLineEdit>(u"toolNamesEdit"_s)->setText(u"add"_s);
            f.client.enqueue({ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2)}),
                              ScriptedModelClient::text(u"three"_s)});
            QVERIFY(f.agent.send(u"1 + 2?"_s));
            QVERIFY(f.waitForToolStop(u"add"_s));
        }
        if (moment == u"ended"_s) {
            f.panel.continueAction()->trigger();
            QVERIFY(f.waitForEnd());
            QTRY_VERIFY(!f.panel.isTurnRunning());
        }

        const QList<bool> actual{f.panel.pauseAction()->isEnabled(), f.panel.stepAction()->isEnabled(),
                                 f.panel.continueAction()->isEnabled(), f.panel.stopAction()->isEnabled()};
        QCOMPARE(actual, enabled);
    }

    void pauseWhileATurnRunsHoldsItAtTheNextCheckpoint()
    {
        Fixture f;
        f.child<QCheckBox>(u"debugModeBox"_s)->click();
        QSignalSpy paused(&f.debugger, &StepDebugger::paused);
        ScriptedModelClient::Step slowCall = ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2)});
        slowCall.delayMs = 300;
        f.client.enqueue({slowCall, ScriptedModelClient::text(u"three"_s)});
        QVERIFY(f.agent.send(u"1 + 2?"_s));
        // The model call is under way when Pause is pressed: the loop holds before the tool runs.
        QTRY_VERIFY(f.client.isBusy());
        QVERIFY(f.panel.pauseAction()->isEnabled());

        f.panel.pauseAction()->trigger();
        QVERIFY(!f.panel.pauseAction()->isEnabled());
        QVERIFY(f.waitForToolStop(u"add"_s));
        QCOMPARE(f.debugger.currentStop()->reason, StepDebugger::Reason::Pause);
        QCOMPARE(paused.size(), 1);
        QCOMPARE(f.adds.count(), 0);
        QVERIFY(f.panel.stepAction()->isEnabled());
        QVERIFY(!f.panel.pauseAction()->isEnabled());

        f.panel.continueAction()->trigger();
        QVERIFY(f.waitForEnd());
        QCOMPARE(f.adds.count(), 1);
    }

    void theActionsCarryTheDebuggerShortcuts_data()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<QKeySequence>("shortcut");

        QTest::newRow("F10 steps") << u"step"_s << QKeySequence(Qt::Key_F10);
        QTest::newRow("F5 continues") << u"continue"_s << QKeySequence(Qt::Key_F5);
        QTest::newRow("Shift+F5 stops") << u"stop"_s << QKeySequence(Qt::SHIFT | Qt::Key_F5);
    }

    void theActionsCarryTheDebuggerShortcuts()
    {
        QFETCH(QString, action);
        QFETCH(QKeySequence, shortcut);

        Fixture f;
        const QAction *found = action == u"step"       ? f.panel.stepAction()
                               : action == u"continue" ? f.panel.continueAction()
                                                       : f.panel.stopAction();
        QCOMPARE(found->shortcut(), shortcut);
        QVERIFY(found->toolTip().contains(shortcut.toString(QKeySequence::NativeText)));
        QVERIFY(!found->text().isEmpty());
    }

    void theBreakpointControlsAndTheDebuggerAgree()
    {
        Fixture f;
        QVERIFY(!f.debugger.isEnabled());

        // A breakpoint set from the panel turns debug mode on.
        f.child<QLineEdit>(u"toolNamesEdit"_s)->setText(u"add, echo ,, add"_s);
        QVERIFY(f.debugger.isEnabled());
        QCOMPARE(f.debugger.breakpoints().toolNames, (QSet<QString>{u"add"_s, u"echo"_s}));
        f.child<QCheckBox>(u"errorsBox"_s)->click();
        QVERIFY(f.debugger.breakpoints().errors);
        f.child<QCheckBox>(u"debugModeBox"_s)->click();
        QVERIFY(!f.debugger.isEnabled());

        // And what is set on the debugger shows in the panel.
        f.debugger.setBreakpoints({true, true, {u"fail"_s}, false});
        f.debugger.setEnabled(true);
        QVERIFY(f.child<QCheckBox>(u"modelCallsBox"_s)->isChecked());
        QVERIFY(f.child<QCheckBox>(u"allToolCallsBox"_s)->isChecked());
        QVERIFY(!f.child<QCheckBox>(u"errorsBox"_s)->isChecked());
        QVERIFY(f.child<QCheckBox>(u"debugModeBox"_s)->isChecked());
        QCOMPARE(f.child<QLineEdit>(u"toolNamesEdit"_s)->text(), u"fail"_s);
    }

    void continueRunsTheHeldToolWithTheArgumentsEditedInThePanel_data()
    {
        QTest::addColumn<bool>("applyFirst");
        QTest::addColumn<bool>("byKey");

        QTest::newRow("applied, then the Continue action") << true << false;
        QTest::newRow("typed, then F5 on the panel") << false << true;
    }

    void continueRunsTheHeldToolWithTheArgumentsEditedInThePanel()
    {
        QFETCH(bool, applyFirst);
        QFETCH(bool, byKey);

        Fixture f;
        QVERIFY(f.showPanel());
        f.child<QLineEdit>(u"toolNamesEdit"_s)->setText(u"add"_s);
        f.client.enqueue({ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2)}),
                          ScriptedModelClient::text(u"thirty"_s)});

        QVERIFY(f.agent.send(u"1 + 2?"_s));
        QVERIFY(f.waitForToolStop(u"add"_s));
        QVERIFY(f.argumentsEditor()->isVisible());
        QVERIFY2(f.stopText().contains(u"add"_s), qPrintable(f.stopText()));
        QCOMPARE(parsed(f.argumentsEditor()->toPlainText()), (QJsonObject{{u"a"_s, 1}, {u"b"_s, 2}}));
        QVERIFY(!f.applyArguments()->isEnabled()); // nothing edited yet
        QTest::qWait(30);
        QCOMPARE(f.adds.count(), 0);

        f.argumentsEditor()->setFocus();
        f.argumentsEditor()->setPlainText(u"{\n    \"a\": 10,\n    \"b\": 20\n}\n"_s);
        QVERIFY(f.applyArguments()->isEnabled());
        QVERIFY2(f.argumentsStatus().contains(u"Valid"_s), qPrintable(f.argumentsStatus()));
        if (applyFirst) {
            QTest::mouseClick(f.applyArguments(), Qt::LeftButton);
            QVERIFY(!f.applyArguments()->isEnabled());
            QVERIFY2(f.decisionText().contains(u"edited arguments"_s), qPrintable(f.decisionText()));
        }
        if (byKey)
            QTest::keyClick(&f.panel, Qt::Key_F5);
        else
            f.panel.continueAction()->trigger();

        QVERIFY(f.waitForEnd());
        QCOMPARE(f.adds.count(), 1);
        QCOMPARE(f.adds.arguments().constFirst(), (QJsonObject{{u"a"_s, 10}, {u"b"_s, 20}}));
        QCOMPARE(f.toolNode().originalArguments, json({{u"a"_s, 1}, {u"b"_s, 2}}));
        QCOMPARE(f.lastToolResult(1).text, u"30"_s);
        QVERIFY(!f.argumentsEditor()->isVisible());
        QVERIFY(!f.panel.continueAction()->isEnabled());
    }

    void anInvalidEditKeepsApplyDisabledShowsWhyAndIsNotSent()
    {
        Fixture f;
        QVERIFY(f.showPanel());
        f.child<QCheckBox>(u"allToolCallsBox"_s)->click();
        f.client.enqueue({ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2)}),
                          ScriptedModelClient::text(u"three"_s)});
        QVERIFY(f.agent.send(u"1 + 2?"_s));
        QVERIFY(f.waitForToolStop(u"add"_s));

        f.argumentsEditor()->setPlainText(u"{\"a\": \"ten\", \"b\": 2}"_s);
        QVERIFY(!f.applyArguments()->isEnabled());
        QVERIFY2(f.argumentsStatus().contains(u"at /a"_s), qPrintable(f.argumentsStatus()));
        f.argumentsEditor()->setPlainText(u"{\"a\": 1,"_s);
        QVERIFY(!f.applyArguments()->isEnabled());
        QVERIFY2(f.argumentsStatus().contains(u"not valid JSON"_s), qPrintable(f.argumentsStatus()));

        // Continuing with an invalid edit in the editor is refused, not silently dropped.
        QTest::keyClick(&f.panel, Qt::Key_F5);
        QTest::qWait(30);
        QVERIFY(f.debugger.isPaused());
        QCOMPARE(f.adds.count(), 0);
        QVERIFY2(f.argumentsStatus().contains(u"not valid JSON"_s), qPrintable(f.argumentsStatus()));

        QTest::mouseClick(f.child<QPushButton>(u"revertArgumentsButton"_s), Qt::LeftButton);
        QCOMPARE(parsed(f.argumentsEditor()->toPlainText()), (QJsonObject{{u"a"_s, 1}, {u"b"_s, 2}}));
        QVERIFY(!f.applyArguments()->isEnabled());
        QVERIFY2(f.argumentsStatus().contains(u"Valid"_s), qPrintable(f.argumentsStatus()));
        QTest::keyClick(&f.panel, Qt::Key_F5);
        QVERIFY(f.waitForEnd());
        QCOMPARE(f.adds.arguments().constFirst(), (QJsonObject{{u"a"_s, 1}, {u"b"_s, 2}}));
    }

    void f10StepsFromCheckpointToCheckpoint()
    {
        Fixture f;
        QVERIFY(f.showPanel());
        f.child<QCheckBox>(u"modelCallsBox"_s)->click();
        f.client.enqueue({ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2)}),
                          ScriptedModelClient::text(u"three"_s)});
        QVERIFY(f.agent.send(u"1 + 2?"_s));

        QVERIFY(f.waitForModelStop(1));
        QCOMPARE(f.currentPage(), f.messagesEditor()->parentWidget());
        QVERIFY(f.messagesEditor()->toPlainText().contains(u"1 + 2?"_s));
        QVERIFY2(f.stopText().contains(u"iteration 1"_s), qPrintable(f.stopText()));

        QTest::keyClick(&f.panel, Qt::Key_F10);
        QVERIFY(f.waitForToolStop(u"add"_s));
        QVERIFY(f.argumentsEditor()->isVisible());
        QVERIFY2(f.stopText().contains(u"step"_s), qPrintable(f.stopText()));
        QCOMPARE(f.adds.count(), 0);

        QTest::keyClick(&f.panel, Qt::Key_F10);
        QVERIFY(f.waitForModelStop(2));
        QCOMPARE(f.adds.count(), 1);
        QVERIFY(f.messagesEditor()->isVisible());
        QVERIFY(f.messagesEditor()->toPlainText().contains(u"\"3\""_s));
        QCOMPARE(f.client.requests().size(), 1);

        QTest::keyClick(&f.panel, Qt::Key_F5);
        QVERIFY(f.waitForEnd());
        QCOMPARE(f.lastResult().text, u"three"_s);
    }

    void editedMessagesAreWhatTheModelReceives()
    {
        Fixture f;
        QVERIFY(f.showPanel());
        f.child<QCheckBox>(u"modelCallsBox"_s)->click();
        f.client.enqueue(ScriptedModelClient::text(u"ok"_s));
        QVERIFY(f.agent.send(u"hello"_s));
        QVERIFY(f.waitForModelStop(1));

        QJsonArray messages = QJsonDocument::fromJson(f.messagesEditor()->toPlainText().toUtf8()).array();
        messages.append(QJsonObject{{u"role"_s, u"user"_s}, {u"text"_s, u"(added in the panel)"_s}});
        f.messagesEditor()->setPlainText(QString::fromUtf8(QJsonDocument(messages).toJson()));
        auto *apply = f.child<QPushButton>(u"applyMessagesButton"_s);
        QVERIFY(apply->isEnabled());
        QTest::mouseClick(apply, Qt::LeftButton);
        QVERIFY2(f.decisionText().contains(u"edited messages"_s), qPrintable(f.decisionText()));

        f.messagesEditor()->setPlainText(u"[{\"role\": \"robot\"}]"_s);
        QVERIFY(!apply->isEnabled());
        QVERIFY(f.child<QLabel>(u"messagesStatus"_s)->text().contains(u"robot"_s));
        QTest::mouseClick(f.child<QPushButton>(u"revertMessagesButton"_s), Qt::LeftButton);
        QVERIFY(!f.messagesEditor()->toPlainText().contains(u"added in the panel"_s));
        f.messagesEditor()->setPlainText(QString::fromUtf8(QJsonDocument(messages).toJson()));

        f.panel.continueAction()->trigger();
        QVERIFY(f.waitForEnd());
        QCOMPARE(f.client.requests().constFirst().messages.constLast().text, u"(added in the panel)"_s);
        QVERIFY(f.trace.node(f.nodesOfKind(TraceKind::ModelCall).constFirst())
                    .data<ModelCallData>()
                    .editedByInterceptor);
    }

    void aTypedResultOrADenialReplacesRunningTheTool_data()
    {
        QTest::addColumn<bool>("deny");
        QTest::newRow("a typed result") << false;
        QTest::newRow("a denial") << true;
    }

    void aTypedResultOrADenialReplacesRunningTheTool()
    {
        QFETCH(bool, deny);

        Fixture f;
        QVERIFY(f.showPanel());
        f.child<QLineEdit>(u"toolNamesEdit"_s)->setText(u"add"_s);
        f.client.enqueue({ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2)}),
                          ScriptedModelClient::text(u"ok"_s)});
        QVERIFY(f.agent.send(u"1 + 2?"_s));
        QVERIFY(f.waitForToolStop(u"add"_s));

        auto *useResult = f.child<QPushButton>(u"useResultButton"_s);
        QVERIFY(!useResult->isEnabled());
        if (deny) {
            QTest::mouseClick(f.child<QPushButton>(u"denyButton"_s), Qt::LeftButton);
            QVERIFY2(f.decisionText().contains(u"denied"_s), qPrintable(f.decisionText()));
        } else {
            f.child<QPlainTextEdit>(u"resultEditor"_s)->setPlainText(u"3, said by hand"_s);
            QTest::mouseClick(useResult, Qt::LeftButton);
            QVERIFY2(f.decisionText().contains(u"typed result"_s), qPrintable(f.decisionText()));
        }
        QCOMPARE(f.adds.count(), 0);

        f.panel.continueAction()->trigger();
        QVERIFY(f.waitForEnd());
        QCOMPARE(f.adds.count(), 0);
        const Message fed = f.lastToolResult(1);
        QCOMPARE(fed.isError, deny);
        if (!deny)
            QCOMPARE(fed.text, u"3, said by hand"_s);
    }

    void usingATypedResultSaysSoBesideTheButton()
    {
        Fixture f;
        QVERIFY(f.showPanel());
        f.child<QLineEdit>(u"toolNamesEdit"_s)->setText(u"add"_s);
        f.client.enqueue({ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2)}),
                          ScriptedModelClient::text(u"ok"_s)});
        QVERIFY(f.agent.send(u"1 + 2?"_s));
        QVERIFY(f.waitForToolStop(u"add"_s));

        auto *status = f.child<QLabel>(u"resultStatus"_s);
        QVERIFY(status);
        QVERIFY(!status->isVisible());
        auto *editor = f.child<QPlainTextEdit>(u"resultEditor"_s);
        editor->setPlainText(u"3, said by hand"_s);
        QTest::mouseClick(f.child<QPushButton>(u"useResultButton"_s), Qt::LeftButton);
        // In the same box as the button, not only at the top of the panel.
        QVERIFY(status->isVisible());
        QVERIFY2(status->text().contains(u"Staged"_s), qPrintable(status->text()));
        QCOMPARE(status->parentWidget(), f.child<QPushButton>(u"useResultButton"_s)->parentWidget());
        // Typing on says that the new text is not what is staged.
        editor->setPlainText(u"4"_s);
        QVERIFY2(status->text().contains(u"Changed"_s), qPrintable(status->text()));
        f.panel.continueAction()->trigger();
        QVERIFY(f.waitForEnd());
    }

    void shiftF5AsksToStopAndThePanelEmptiesWhenTheTurnIsCancelled()
    {
        Fixture f;
        QVERIFY(f.showPanel());
        QSignalSpy stopRequested(&f.panel, &Ui::DebugPanel::stopRequested);
        f.child<QLineEdit>(u"toolNamesEdit"_s)->setText(u"add"_s);
        f.client.enqueue(ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2)}));
        QVERIFY(f.agent.send(u"1 + 2?"_s));
        QVERIFY(f.waitForToolStop(u"add"_s));

        QTest::keyClick(&f.panel, Qt::Key_F5, Qt::ShiftModifier);

        QCOMPARE(stopRequested.size(), 1);
        QCOMPARE(f.finished.size(), 1);
        QCOMPARE(f.lastResult().outcome, TurnOutcome::Cancelled);
        QVERIFY(!f.debugger.isPaused());
        QVERIFY(!f.argumentsEditor()->isVisible());
        QVERIFY(f.stopText().contains(u"not held"_s));
        QVERIFY(!f.panel.stepAction()->isEnabled());
        QTest::qWait(30);
        QCOMPARE(f.adds.count(), 0);
    }

    void everyControlHasAnAccessibleName()
    {
        Fixture f;
        const QList<QWidget *> widgets = f.panel.findChildren<QWidget *>();
        int checked = 0;
        for (QWidget *widget : widgets) {
            const bool interactive = qobject_cast<QAbstractButton *>(widget)
                                     || qobject_cast<QLineEdit *>(widget)
                                     || qobject_cast<QPlainTextEdit *>(widget);
            // The toolbar's buttons are named by their actions' text, a line edit's
            // clear button by Qt.
            const QWidget *parent = widget->parentWidget();
            if (!interactive || parent->inherits("QToolBar") || parent->inherits("QLineEdit"))
                continue;
            ++checked;
            QVERIFY2(!widget->accessibleName().isEmpty(),
                     qPrintable(widget->objectName() + u' '
                                + QString::fromLatin1(widget->metaObject()->className())));
        }
        QVERIFY(checked >= 12);
    }
};

QTEST_MAIN(DebugPanelTest)
#include "tst_debugpanel.moc"
