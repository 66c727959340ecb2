#include "ui/replay/replaywindow.h"

#include "agent/debug/stepdebugger.h"
#include "agent/loop/agent.h"
#include "agent/replay/replayrun.h"
#include "agent/replay/replayworkbench.h"
#include "agent/session/conversationrows.h"
#include "agent/trace/trace.h"
#include "agent/trace/tracemodel.h"
#include "ui/chat/chatview.h"
#include "ui/debug/debugpanel.h"
#include "ui/trace/traceinspector.h"

#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRandomGenerator>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

ReplayWindow::ReplayWindow(const RecordedTurn &turn, const QString &title, LiveClientFactory liveClients,
                           const ToolProvider &tools, QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_turn(turn)
    , m_title(title)
    , m_liveClients(std::move(liveClients))
    , m_status(new QLabel(this))
    , m_liveTools(new QCheckBox(tr("Run &tools live"), this))
    , m_startButton(new QPushButton(tr("&Replay"), this))
    , m_continueButton(new QPushButton(tr("Continue &Live"), this))
    , m_stopButton(new QPushButton(tr("&Stop"), this))
    , m_compareButton(new QPushButton(tr("C&ompare…"), this))
    , m_saveButton(new QPushButton(tr("Sa&ve"), this))
    , m_rows(new ConversationRows(this))
    , m_chat(new ChatView)
    , m_inspector(nullptr)
    , m_debugPanel(nullptr)
{
    setWindowTitle(tr("Replay: %1 — Loopscope").arg(title));
    setAttribute(Qt::WA_DeleteOnClose);

    ReplayWorkbench::fill(m_workbench, m_turn, tools);
    m_debugger = std::make_unique<StepDebugger>();
    m_debugPanel = new DebugPanel(m_debugger.get(), &m_workbench);
    // Nobody can ask or ask again here: what the chat shows is the recording's, then the run's.
    m_chat->setModel(m_rows);
    m_chat->setReadOnly(true);
    m_chat->setEmptyText(tr("Press Replay to run the recorded turn again.\nIts answers, tool calls and "
                            "errors appear here; select one to find it in the trace."));

    m_status->setWordWrap(true);
    m_status->setAccessibleName(tr("Replay status"));
    m_liveTools->setToolTip(tr("Run the tools again instead of using the results the recording holds."));
    m_continueButton->setToolTip(tr("Send this and every later model call to the current provider."));
    m_continueButton->setEnabled(false);
    m_stopButton->setEnabled(false);
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_status, 1);
    bar->addWidget(m_liveTools);
    bar->addWidget(m_startButton);
    bar->addWidget(m_continueButton);
    bar->addWidget(m_stopButton);
    bar->addWidget(m_compareButton);
    bar->addWidget(m_saveButton);
    m_compareButton->setToolTip(tr("Compare the replayed turn with its recording, or with another session"));
    m_saveButton->setToolTip(tr("Keep the replayed run as a session in the library"));
    connect(m_compareButton, &QPushButton::clicked, this, &ReplayWindow::compareRequested);
    connect(m_saveButton, &QPushButton::clicked, this, &ReplayWindow::save);
    connect(&m_saving, &QFutureWatcher<QString>::finished, this, &ReplayWindow::onSaved);

    // The trace first; the debugger scrolls in what room is left.
    auto *debugScroll = new QScrollArea;
    debugScroll->setWidget(m_debugPanel);
    debugScroll->setWidgetResizable(true);
    debugScroll->setFrameShape(QFrame::NoFrame);
    m_side = new QSplitter(Qt::Vertical);
    m_side->addWidget(debugScroll);
    createRun();
    m_side->setStretchFactor(0, 3);
    m_side->setStretchFactor(1, 2);
    auto *split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_chat);
    split->addWidget(m_side);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(m_startButton, &QPushButton::clicked, this, &ReplayWindow::start);
    connect(m_continueButton, &QPushButton::clicked, this, &ReplayWindow::continueLive);
    connect(m_stopButton, &QPushButton::clicked, this, [this] {
        m_debugger->forgetHeld();
        m_run->stop();
    });
    connect(m_debugPanel, &DebugPanel::stopRequested, m_stopButton, &QPushButton::click);

    if (!m_turn.notReplayable.isEmpty()) {
        setStatus(tr("This turn cannot be replayed: %1").arg(m_turn.notReplayable), true);
        m_startButton->setEnabled(false);
    } else {
        setStatus(tr("Ready to replay \"%1\" from its recorded responses, without network. Set breakpoints "
                     "in the debugger to pause on the way.")
                      .arg(m_turn.userText.left(80)),
                  false);
    }
    resize(1200, 760);
    updateButtons();
}

ReplayWindow::~ReplayWindow()
{
    m_saving.waitForFinished();
    // The run's agent goes before the debugger and the live client it may point to.
    m_debugger->forgetHeld();
    m_run.reset();
}

void ReplayWindow::createRun()
{
    // The views of the run before move to the new one first: the old run goes last.
    std::unique_ptr<ReplayRun> previous = std::move(m_run);
    m_debugger->forgetHeld();
    m_run = std::make_unique<ReplayRun>(m_turn, &m_workbench);
    m_runStarted = false;
    Agent *agent = m_run->agent();
    // Before start(): the debugger sits between the recorded edits and the recorded results.
    agent->addInterceptor(m_debugger.get());
    connect(agent, &Agent::event, m_debugger.get(), &StepDebugger::observe);
    connect(agent, &Agent::stateChanged, m_debugPanel, [panel = m_debugPanel](Agent::State state) {
        panel->setTurnRunning(state != Agent::State::Idle);
    });
    connect(m_run.get(), &ReplayRun::diverged, this, &ReplayWindow::onDiverged);
    connect(m_run.get(), &ReplayRun::finished, this, [this](bool reproduced) { onFinished(reproduced); });

    m_rows->setTrace(m_run->trace());
    m_rows->follow(agent);
    m_rows->showHistory(m_turn.history);
    m_chat->follow(agent);

    // A trace view shows one trace for its life: the new trace gets new ones.
    TraceInspector *oldInspector = std::exchange(m_inspector, nullptr);
    TraceModel *oldModel = std::exchange(m_traceModel, nullptr);
    m_traceModel = new TraceModel(m_run->trace(), this);
    m_inspector = new TraceInspector(m_run->trace(), m_traceModel);
    if (oldInspector) {
        // In the same room: the debugger keeps the height the user gave it.
        const QList<int> sizes = m_side->sizes();
        m_side->replaceWidget(m_side->indexOf(oldInspector), m_inspector);
        m_side->setSizes(sizes);
    } else {
        m_side->insertWidget(0, m_inspector);
    }
    connect(m_chat, &ChatView::traceNodeSelected, m_inspector, &TraceInspector::selectNode);
    connect(m_inspector, &TraceInspector::nodeSelected, m_chat, &ChatView::selectTraceNode);
    delete oldInspector;
    delete oldModel;
    previous.reset();
    m_live.reset(); // the previous run's, if it went live
}

QString ReplayWindow::statusText() const
{
    return m_status->text();
}

void ReplayWindow::start()
{
    if (m_runStarted)
        createRun();
    m_run->setToolSource(m_liveTools->isChecked() ? RecordedToolResults::Source::Live
                                                  : RecordedToolResults::Source::Recorded);
    if (!m_run->start()) {
        setStatus(tr("The replay could not start."), true);
        return;
    }
    m_runStarted = true;
    m_startButton->setEnabled(false);
    m_liveTools->setEnabled(false);
    m_stopButton->setEnabled(true);
    updateButtons();
    setStatus(tr("Replaying from the recording…"), false);
}

void ReplayWindow::onDiverged(int modelCall, const QString &what)
{
    setStatus(tr("Diverged from the recording at model call %1: %2").arg(modelCall).arg(what), true);
    m_continueButton->setEnabled(true);
}

void ReplayWindow::continueLive()
{
    m_live = m_liveClients ? m_liveClients() : nullptr;
    if (!m_live) {
        setStatus(tr("No provider is configured to continue live; stop, or configure one in Settings."),
                  true);
        return;
    }
    if (m_run->continueLive(m_live.get())) {
        m_continueButton->setEnabled(false);
        setStatus(tr("Continuing live with the current provider…"), false);
    }
}

void ReplayWindow::onFinished(bool reproduced)
{
    m_continueButton->setEnabled(false);
    m_stopButton->setEnabled(false);
    // However it ended, the recording can run again (with the recorded edits, and the tools as chosen).
    m_startButton->setText(tr("Replay &Again"));
    m_startButton->setToolTip(tr("Run the recorded turn again from the start, in a new trace."));
    m_startButton->setEnabled(true);
    m_liveTools->setEnabled(true);
    updateButtons();
    if (reproduced) {
        setStatus(tr("Reproduced: the same tool calls and the same answer as recorded."), false);
        return;
    }
    const auto divergence = m_run->divergence();
    setStatus(divergence ? tr("Did not reproduce: it diverged at model call %1 (%2).")
                               .arg(divergence->modelCall)
                               .arg(divergence->what)
                         : tr("Did not reproduce: the outcome or the tool calls differ from the recording."),
              true);
}

void ReplayWindow::setSaveFolder(const QString &folder)
{
    m_saveFolder = folder;
    updateButtons();
}

void ReplayWindow::updateButtons()
{
    // Only a run that ended has a turn to compare or keep.
    const bool ended = m_runStarted && !m_stopButton->isEnabled();
    m_compareButton->setEnabled(ended);
    m_saveButton->setEnabled(ended && !m_saveFolder.isEmpty() && !m_saving.isRunning());
}

Transcript ReplayWindow::toTranscript() const
{
    Transcript transcript;
    //: The title of a replayed run kept as a session
    transcript.title = tr("%1 (replay)").arg(m_title);
    transcript.created = QDateTime::currentDateTimeUtc();
    transcript.updated = transcript.created;
    transcript.messages = m_run->agent()->history();
    transcript.trace = m_run->trace()->toJson();
    return transcript;
}

void ReplayWindow::save()
{
    if (m_saveFolder.isEmpty() || m_saving.isRunning() || !m_runStarted)
        return;
    const QString stamp = QDateTime::currentDateTimeUtc().toString(u"yyyyMMdd-HHmmss"_s);
    const QDir folder(m_saveFolder);
    QString path;
    do {
        const QString random = u"%1"_s.arg(QRandomGenerator::global()->bounded(0x10000), 4, 16, QChar(u'0'));
        path = folder.absoluteFilePath(stamp + u"-replay-"_s + random + u".loopscope.json"_s);
    } while (QFile::exists(path));
    m_savingPath = path;
    m_saving.setFuture(QtConcurrent::run([transcript = toTranscript(), path] {
        QString error;
        if (!QDir().mkpath(QFileInfo(path).absolutePath()))
            return tr("the folder cannot be made.");
        return TranscriptFile::save(transcript, path, &error) ? QString() : error;
    }));
    updateButtons();
}

void ReplayWindow::onSaved()
{
    const QString error = m_saving.result();
    updateButtons();
    if (!error.isEmpty()) {
        setStatus(tr("The replay could not be saved: %1").arg(error), true);
        return;
    }
    setStatus(tr("Saved as \"%1\" in the session library.").arg(tr("%1 (replay)").arg(m_title)), false);
    emit saved(m_savingPath);
}

void ReplayWindow::setStatus(const QString &text, bool problem)
{
    m_status->setText(text);
    QPalette palette = m_status->palette();
    palette.setColor(QPalette::WindowText,
                     problem ? QColor(0xc0, 0x39, 0x2b) : QWidget::palette().color(QPalette::WindowText));
    m_status->setPalette(palette);
}

} // namespace Loopscope::Ui
