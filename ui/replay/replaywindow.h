#pragma once

#include "agent/model/modelclient.h"
#include "agent/replay/recordedturn.h"
#include "agent/tools/workbench.h"
#include "agent/transcript/transcript.h"

#include <QFutureWatcher>
#include <QWidget>

#include <functional>
#include <memory>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QLabel;
class QPushButton;
class QSplitter;
QT_END_NAMESPACE

namespace Loopscope {
class ConversationRows;
class ModelClient;
class ReplayRun;
class StepDebugger;
class TraceModel;
} // namespace Loopscope

namespace Loopscope::Ui {

class ChatView;
class DebugPanel;
class TraceInspector;

/*!
    Re-runs one saved turn from its recorded model responses (no network),
    with recorded or live tool results, in its own window: the chat and the
    trace of the replay, and the step debugger to pause it anywhere. When
    the run leaves the recording it says where, and the user continues live
    (with the current provider) or stops. When a run has ended, Replay Again
    runs the same recording (with its recorded edits) afresh: a new run, with
    its own trace, on the same workbench and debugger. Compare asks for the
    replay beside its recording (or another session); Save keeps the replayed
    run as a session of the library, titled "<title> (replay)".
*/
class ReplayWindow final : public QWidget
{
    Q_OBJECT

public:
    // Makes the live client when the user continues past a divergence; may return nullptr.
    using LiveClientFactory = std::function<std::unique_ptr<ModelClient>()>;
    using ToolProvider = std::function<std::shared_ptr<const Tool>(const QString &name)>;

    ReplayWindow(const RecordedTurn &turn, const QString &title, LiveClientFactory liveClients,
                 const ToolProvider &tools, QWidget *parent = nullptr);
    ~ReplayWindow() override;

    ReplayRun *run() const { return m_run.get(); }
    StepDebugger *debugger() const { return m_debugger.get(); }
    ChatView *chatView() const { return m_chat; }
    TraceInspector *traceInspector() const { return m_inspector; }
    QString statusText() const;

    // Runs the recording; after a run ended, runs it again from the start.
    void start();
    QPushButton *startButton() const { return m_startButton; }
    QPushButton *compareButton() const { return m_compareButton; }
    QPushButton *saveButton() const { return m_saveButton; }
    // The title the window was opened with (the session's).
    QString title() const { return m_title; }
    // Where Save writes: the session library's folder. Without one Save stays off.
    void setSaveFolder(const QString &folder);
    // The replayed run as a session: the recorded history, the run's turn and its trace.
    Transcript toTranscript() const;
    // Writes toTranscript() into the save folder off the GUI thread; saved() or a status follows.
    void save();

signals:
    // The user asked to compare the replayed turn (Compare).
    void compareRequested();
    void saved(const QString &path);

private:
    // A new run of the recording, and the chat and trace views on it.
    void createRun();
    void onDiverged(int modelCall, const QString &what);
    void onFinished(bool reproduced);
    void continueLive();
    void setStatus(const QString &text, bool problem);
    void updateButtons();
    void onSaved();

    RecordedTurn m_turn;
    QString m_title;
    QString m_saveFolder;
    QFutureWatcher<QString> m_saving; // the error, empty when written
    QString m_savingPath;
    LiveClientFactory m_liveClients;
    Workbench m_workbench;
    std::unique_ptr<ReplayRun> m_run;
    std::unique_ptr<StepDebugger> m_debugger;
    std::unique_ptr<ModelClient> m_live;
    TraceModel *m_traceModel = nullptr;
    bool m_runStarted = false;

    QLabel *m_status;
    QCheckBox *m_liveTools;
    QPushButton *m_startButton;
    QPushButton *m_continueButton;
    QPushButton *m_stopButton;
    QPushButton *m_compareButton;
    QPushButton *m_saveButton;
    // The chat's rows: the recorded history, then the run's turn.
    ConversationRows *m_rows;
    ChatView *m_chat;
    TraceInspector *m_inspector;
    DebugPanel *m_debugPanel;
    QSplitter *m_side = nullptr;
};

} // namespace Loopscope::Ui
