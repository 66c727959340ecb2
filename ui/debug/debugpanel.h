#pragma once

#include <QPointer>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QAction;
class QCheckBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QToolBar;
QT_END_NAMESPACE

namespace Loopscope {
class StepDebugger;
class Workbench;
} // namespace Loopscope

namespace Loopscope::Ui {

/*!
    The step debugger's face: its breakpoints, the stop the loop is held at,
    and editors for what the loop is about to do — the pending request's
    messages, or a tool call's arguments (checked against the tool's schema
    as they are typed), a hand-typed result or a denial. Edits are staged on
    the debugger and take effect when the stop is let go with Step or Continue.

    The debugger and the workbench come from outside and must outlive the
    panel's use of them. The actions carry the debugger shortcuts (F10 step,
    F5 continue, Shift+F5 stop) so the main window can put them in its
    toolbar; Stop only asks: the owner cancels the turn on stopRequested().
*/
class DebugPanel final : public QWidget
{
    Q_OBJECT

public:
    DebugPanel(StepDebugger *debugger, const Workbench *workbench, QWidget *parent = nullptr);
    ~DebugPanel() override;

    // Pause is enabled only while a turn runs in debug mode and is not held
    // (or about to be); Step and Continue only while it is held (Continue
    // also takes back a pause not reached yet); Stop while a turn runs.
    QAction *pauseAction() const { return m_pauseAction; }
    QAction *stepAction() const { return m_stepAction; }
    QAction *continueAction() const { return m_continueAction; }
    QAction *stopAction() const { return m_stopAction; }
    // The owner says when a turn runs (the debugger cannot tell between its checkpoints).
    void setTurnRunning(bool running);
    bool isTurnRunning() const { return m_turnRunning; }
    // What is held and its editors, for a container that scrolls it into view.
    QWidget *stopView() const;
    QLabel *resultStatus() const { return m_resultStatus; }

signals:
    void stopRequested();

private:
    enum Page { NothingHeldPage, RequestPage, ToolCallPage };

    void createActions();
    QGroupBox *createBreakpointBox();
    QWidget *createRequestPage();
    QWidget *createToolCallPage();

    void applyBreakpoints();
    void showSettings();
    void showStop();
    void loadEditors();
    void updateActions();

    void checkMessages();
    void checkArguments();
    bool applyMessages();
    bool applyArguments();
    void revertEdits();
    void useTypedResult();
    void showResultStatus();
    void denyCall();
    // Stages an edit typed but not applied; false (and says why) when it is invalid.
    bool commitTypedEdits();
    void stepOnce();
    void continueRunning();

    QPointer<StepDebugger> m_debugger;
    const Workbench *m_workbench;

    QAction *m_pauseAction = nullptr;
    QAction *m_stepAction = nullptr;
    QAction *m_continueAction = nullptr;
    QAction *m_stopAction = nullptr;

    QCheckBox *m_enabledBox = nullptr;
    QCheckBox *m_modelCallsBox = nullptr;
    QCheckBox *m_allToolCallsBox = nullptr;
    QLineEdit *m_toolNamesEdit = nullptr;
    QCheckBox *m_errorsBox = nullptr;

    QGroupBox *m_stopBox = nullptr;
    QLabel *m_stopLabel = nullptr;
    QLabel *m_decisionLabel = nullptr;
    QStackedWidget *m_pages = nullptr;

    QPlainTextEdit *m_messagesEdit = nullptr;
    QLabel *m_messagesStatus = nullptr;
    QPushButton *m_applyMessagesButton = nullptr;

    QLabel *m_toolLabel = nullptr;
    QPlainTextEdit *m_argumentsEdit = nullptr;
    QLabel *m_argumentsStatus = nullptr;
    QPushButton *m_applyArgumentsButton = nullptr;
    QPlainTextEdit *m_resultEdit = nullptr;
    QCheckBox *m_resultIsErrorBox = nullptr;
    QPushButton *m_useResultButton = nullptr;
    QLabel *m_resultStatus = nullptr; // beside the button: what using the result did
    QPushButton *m_denyButton = nullptr;

    bool m_turnRunning = false;
    QString m_shownStop;       // which stop the editors were loaded from
    QString m_appliedMessages; // the editor texts that match what is staged
    QString m_appliedArguments;
};

} // namespace Loopscope::Ui
