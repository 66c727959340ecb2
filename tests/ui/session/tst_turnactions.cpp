// A finished turn's actions (Replay, Fork, Compare With, Playground): enabled
// only where they can act, and offered where the step is picked.

#include "agent/playground/playgroundrun.h"
#include "agent/session/chatsession.h"
#include "agent/session/sessiondocument.h"
#include "agent/trace/tracemodel.h"
#include "agent/transcript/transcript.h"
#include "ui/session/sessionactions.h"
#include "ui/session/turnactions.h"
#include "ui/trace/traceinspector.h"

#include <QAction>
#include <QNetworkAccessManager>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QWidget>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

// A window with a session, its trace and the turn actions, as the main window has them.
struct Fixture
{
    Fixture()
        : state(dir.filePath(u"state.ini"_s), QSettings::IniFormat)
        , profiles(&state)
        , session(&network)
        , document(&session)
        , model(session.trace())
        , inspector(new Ui::TraceInspector(session.trace(), &model, &window))
        , sessionActions(new Ui::SessionActions(&document, &state, &window))
        , actions(new Ui::TurnActions(
              &session, sessionActions, inspector, &profiles,
              [this] { return new PlaygroundRun(&network, nullptr); }, &window))
    {}

    bool restoreExample()
    {
        const TranscriptLoadResult loaded
            = TranscriptFile::load(u":/examples/example-three-iterations.loopscope.json"_s);
        return loaded.transcript && session.restore(*loaded.transcript);
    }

    int firstNodeOf(TraceKind kind) const
    {
        const Trace *trace = session.trace();
        for (int id = 0; id < trace->size(); ++id) {
            if (trace->node(id).kind == kind)
                return id;
        }
        return -1;
    }

    QTemporaryDir dir;
    QSettings state;
    ProviderProfileStore profiles;
    QNetworkAccessManager network;
    ChatSession session;
    SessionDocument document;
    TraceModel model;
    QWidget window;
    Ui::TraceInspector *inspector;
    Ui::SessionActions *sessionActions;
    Ui::TurnActions *actions;
};

} // namespace

Q_DECLARE_METATYPE(Loopscope::TraceKind)

class TurnActionsTest : public QObject
{
    Q_OBJECT

private slots:
    void withoutAFinishedTurnOnlyCompareTurnsIsOffered()
    {
        Fixture fixture;
        QVERIFY(!fixture.actions->replayAction()->isEnabled());
        QVERIFY(!fixture.actions->forkAction()->isEnabled());
        QVERIFY(!fixture.actions->compareWithAction()->isEnabled());
        QVERIFY(!fixture.actions->playgroundAction()->isEnabled());
        // It can compare two session files too.
        QVERIFY(fixture.actions->compareAction()->isEnabled());
    }

    void aRestoredTurnCanBeReplayedAndASelectedStepForked_data()
    {
        QTest::addColumn<TraceKind>("selected");
        QTest::addColumn<bool>("playground");
        QTest::newRow("a model call: every action") << TraceKind::ModelCall << true;
        QTest::newRow("a tool call: all but the playground") << TraceKind::ToolCall << false;
    }

    void aRestoredTurnCanBeReplayedAndASelectedStepForked()
    {
        QFETCH(TraceKind, selected);
        QFETCH(bool, playground);
        Fixture fixture;
        QVERIFY(fixture.restoreExample());
        // Without a selection, Replay takes the last turn; Fork needs a step.
        QVERIFY(fixture.actions->replayAction()->isEnabled());
        QVERIFY(!fixture.actions->forkAction()->isEnabled());

        const int node = fixture.firstNodeOf(selected);
        QVERIFY(node >= 0);
        fixture.inspector->selectNode(node);
        QCOMPARE(fixture.inspector->selectedNode(), node);
        QVERIFY(fixture.actions->replayAction()->isEnabled());
        QVERIFY(fixture.actions->forkAction()->isEnabled());
        QVERIFY(fixture.actions->compareWithAction()->isEnabled());
        QCOMPARE(fixture.actions->playgroundAction()->isEnabled(), playground);

        fixture.document.newSession();
        QVERIFY(!fixture.actions->replayAction()->isEnabled());
        QVERIFY(!fixture.actions->playgroundAction()->isEnabled());
    }

    void theActionsAreInTheTracesContextMenu()
    {
        Fixture fixture;
        const QList<QAction *> offered = fixture.inspector->treeView()->actions();
        for (QAction *action : {fixture.actions->replayAction(), fixture.actions->forkAction(),
                                fixture.actions->compareWithAction(), fixture.actions->playgroundAction()})
            QVERIFY2(offered.contains(action), qPrintable(action->text()));
    }
};

QTEST_MAIN(TurnActionsTest)
#include "tst_turnactions.moc"
