#include "ui/debug/debugpanel.h"

#include "agent/debug/stepdebugger.h"
#include "agent/tools/workbench.h"

#include <QAction>
#include <QCheckBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QToolBar>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

QString prettyJson(const QString &compact)
{
    const QJsonDocument document = QJsonDocument::fromJson(compact.toUtf8());
    if (!document.isObject())
        return compact;
    return QString::fromUtf8(document.toJson(QJsonDocument::Indented));
}

QStringList toolNamesFrom(const QString &text)
{
    QStringList names;
    for (const QString &part : text.split(u',', Qt::SkipEmptyParts)) {
        const QString name = part.trimmed();
        if (!name.isEmpty() && !names.contains(name))
            names.append(name);
    }
    return names;
}

QPlainTextEdit *jsonEditor(const QString &objectName, const QString &accessibleName, QWidget *parent)
{
    auto *editor = new QPlainTextEdit(parent);
    editor->setObjectName(objectName);
    editor->setAccessibleName(accessibleName);
    editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    editor->setTabChangesFocus(true);
    return editor;
}

QLabel *statusLabel(const QString &objectName, QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QPushButton *button(const QString &text, const QString &objectName, QWidget *parent)
{
    auto *result = new QPushButton(text, parent);
    result->setObjectName(objectName);
    result->setAccessibleName(QString(text).remove(u'&'));
    return result;
}

} // namespace

DebugPanel::DebugPanel(StepDebugger *debugger, const Workbench *workbench, QWidget *parent)
    : QWidget(parent)
    , m_debugger(debugger)
    , m_workbench(workbench)
{
    Q_ASSERT(debugger);
    setAccessibleName(tr("Debugger"));
    createActions();

    auto *toolBar = new QToolBar(this);
    toolBar->setObjectName(u"debugToolBar"_s);
    toolBar->setAccessibleName(tr("Debugger controls"));
    toolBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    toolBar->addActions({m_pauseAction, m_stepAction, m_continueAction, m_stopAction});

    auto *stopBox = new QGroupBox(tr("Current stop"), this);
    m_stopBox = stopBox;
    m_stopLabel = statusLabel(u"stopLabel"_s, stopBox);
    m_stopLabel->setAccessibleName(tr("Where the loop is held"));
    m_decisionLabel = statusLabel(u"decisionLabel"_s, stopBox);
    m_decisionLabel->setAccessibleName(tr("What letting it go will do"));
    m_pages = new QStackedWidget(stopBox);
    m_pages->insertWidget(NothingHeldPage, new QWidget(m_pages));
    m_pages->insertWidget(RequestPage, createRequestPage());
    m_pages->insertWidget(ToolCallPage, createToolCallPage());
    auto *stopLayout = new QVBoxLayout(stopBox);
    stopLayout->addWidget(m_stopLabel);
    stopLayout->addWidget(m_decisionLabel);
    stopLayout->addWidget(m_pages, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(toolBar);
    layout->addWidget(createBreakpointBox());
    layout->addWidget(stopBox, 1);

    connect(m_debugger, &StepDebugger::settingsChanged, this, &DebugPanel::showSettings);
    connect(m_debugger, &StepDebugger::stopChanged, this, &DebugPanel::showStop);
    connect(m_debugger, &QObject::destroyed, this, [this] {
        setEnabled(false);
        for (QAction *action : {m_pauseAction, m_stepAction, m_continueAction})
            action->setEnabled(false);
    });
    showSettings();
    showStop();
}

DebugPanel::~DebugPanel() = default;

void DebugPanel::createActions()
{
    const auto make = [this](const QString &text, const QString &objectName, const QString &icon,
                             const QKeySequence &shortcut, const QString &toolTip) {
        auto *action = new QAction(QIcon::fromTheme(icon), text, this);
        action->setObjectName(objectName);
        action->setShortcut(shortcut);
        action->setToolTip(shortcut.isEmpty()
                               ? toolTip
                               : tr("%1 (%2)").arg(toolTip, shortcut.toString(QKeySequence::NativeText)));
        addAction(action);
        return action;
    };
    m_pauseAction = make(tr("Pause"), u"pauseAction"_s, u"media-playback-pause"_s, {},
                         tr("Hold the loop before its next model call or tool execution"));
    m_stepAction = make(tr("Step"), u"stepAction"_s, u"debug-step-over"_s, QKeySequence(Qt::Key_F10),
                        tr("Let this stop go and hold at the next model call or tool execution"));
    m_continueAction = make(tr("Continue"), u"continueAction"_s, u"media-playback-start"_s,
                            QKeySequence(Qt::Key_F5), tr("Let the loop run until the next breakpoint"));
    m_stopAction = make(tr("Stop"), u"stopAction"_s, u"media-playback-stop"_s,
                        QKeySequence(Qt::SHIFT | Qt::Key_F5), tr("Cancel the turn"));

    connect(m_pauseAction, &QAction::triggered, this, [this] {
        if (m_debugger)
            m_debugger->pause();
    });
    connect(m_stepAction, &QAction::triggered, this, &DebugPanel::stepOnce);
    connect(m_continueAction, &QAction::triggered, this, &DebugPanel::continueRunning);
    connect(m_stopAction, &QAction::triggered, this, &DebugPanel::stopRequested);
}

QGroupBox *DebugPanel::createBreakpointBox()
{
    auto *box = new QGroupBox(tr("Breakpoints"), this);
    const auto checkBox = [box](const QString &text, const QString &objectName) {
        auto *result = new QCheckBox(text, box);
        result->setObjectName(objectName);
        result->setAccessibleName(QString(text).remove(u'&'));
        return result;
    };
    m_enabledBox = checkBox(tr("&Debug mode: hold the loop at breakpoints"), u"debugModeBox"_s);
    m_modelCallsBox = checkBox(tr("Before each &model call"), u"modelCallsBox"_s);
    m_allToolCallsBox = checkBox(tr("Before every &tool call"), u"allToolCallsBox"_s);
    m_errorsBox = checkBox(tr("At the next step after an &error"), u"errorsBox"_s);
    m_toolNamesEdit = new QLineEdit(box);
    m_toolNamesEdit->setObjectName(u"toolNamesEdit"_s);
    m_toolNamesEdit->setAccessibleName(tr("Tools to break before"));
    m_toolNamesEdit->setPlaceholderText(tr("Tool names, comma-separated"));
    m_toolNamesEdit->setClearButtonEnabled(true);

    auto *form = new QFormLayout(box);
    form->addRow(m_enabledBox);
    form->addRow(m_modelCallsBox);
    form->addRow(m_allToolCallsBox);
    form->addRow(tr("Before the tools:"), m_toolNamesEdit);
    form->addRow(m_errorsBox);

    connect(m_enabledBox, &QCheckBox::toggled, this, [this](bool on) {
        if (m_debugger)
            m_debugger->setEnabled(on);
    });
    for (QCheckBox *box : {m_modelCallsBox, m_allToolCallsBox, m_errorsBox})
        connect(box, &QCheckBox::toggled, this, &DebugPanel::applyBreakpoints);
    connect(m_toolNamesEdit, &QLineEdit::textChanged, this, &DebugPanel::applyBreakpoints);
    return box;
}

QWidget *DebugPanel::createRequestPage()
{
    auto *page = new QWidget(this);
    auto *caption = new QLabel(tr("Messages the model will receive (JSON):"), page);
    m_messagesEdit = jsonEditor(u"messagesEditor"_s, tr("Messages of the pending request"), page);
    caption->setBuddy(m_messagesEdit);
    m_messagesStatus = statusLabel(u"messagesStatus"_s, page);
    m_messagesStatus->setAccessibleName(tr("Check of the messages"));
    m_applyMessagesButton = button(tr("&Apply"), u"applyMessagesButton"_s, page);
    auto *revert = button(tr("&Revert"), u"revertMessagesButton"_s, page);

    auto *buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(m_applyMessagesButton);
    buttons->addWidget(revert);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins({});
    layout->addWidget(caption);
    layout->addWidget(m_messagesEdit, 1);
    layout->addWidget(m_messagesStatus);
    layout->addLayout(buttons);

    connect(m_messagesEdit, &QPlainTextEdit::textChanged, this, &DebugPanel::checkMessages);
    connect(m_applyMessagesButton, &QPushButton::clicked, this, &DebugPanel::applyMessages);
    connect(revert, &QPushButton::clicked, this, &DebugPanel::revertEdits);
    return page;
}

QWidget *DebugPanel::createToolCallPage()
{
    auto *page = new QWidget(this);
    m_toolLabel = statusLabel(u"toolLabel"_s, page);
    m_toolLabel->setAccessibleName(tr("The held tool"));
    m_argumentsEdit = jsonEditor(u"argumentsEditor"_s, tr("Arguments of the held tool call"), page);
    m_argumentsStatus = statusLabel(u"argumentsStatus"_s, page);
    m_argumentsStatus->setAccessibleName(tr("Check of the arguments"));
    m_applyArgumentsButton = button(tr("&Apply"), u"applyArgumentsButton"_s, page);
    auto *revert = button(tr("&Revert"), u"revertArgumentsButton"_s, page);

    m_resultEdit = jsonEditor(u"resultEditor"_s, tr("Result typed by hand"), page);
    m_resultEdit->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_resultEdit->setPlaceholderText(tr("What the model should read as the tool's result"));
    m_resultIsErrorBox = new QCheckBox(tr("Report it as an error"), page);
    m_resultIsErrorBox->setObjectName(u"resultIsErrorBox"_s);
    m_resultIsErrorBox->setAccessibleName(m_resultIsErrorBox->text());
    m_useResultButton = button(tr("&Use this result"), u"useResultButton"_s, page);
    m_denyButton = button(tr("&Deny"), u"denyButton"_s, page);
    m_denyButton->setToolTip(tr("Do not run the tool; the model is told the call was denied"));

    auto *argumentButtons = new QHBoxLayout;
    argumentButtons->addStretch();
    argumentButtons->addWidget(m_applyArgumentsButton);
    argumentButtons->addWidget(revert);
    auto *arguments = new QGroupBox(tr("Arguments (JSON)"), page);
    auto *argumentsLayout = new QVBoxLayout(arguments);
    argumentsLayout->addWidget(m_argumentsEdit, 2);
    argumentsLayout->addWidget(m_argumentsStatus);
    argumentsLayout->addLayout(argumentButtons);

    m_resultStatus = statusLabel(u"resultStatus"_s, page);
    m_resultStatus->setAccessibleName(tr("What the typed result will do"));
    m_resultStatus->hide();

    auto *resultButtons = new QHBoxLayout;
    resultButtons->addWidget(m_resultIsErrorBox);
    resultButtons->addStretch();
    resultButtons->addWidget(m_useResultButton);
    auto *result = new QGroupBox(tr("Type a result instead"), page);
    auto *resultLayout = new QVBoxLayout(result);
    resultLayout->addWidget(m_resultEdit, 1);
    resultLayout->addLayout(resultButtons);
    resultLayout->addWidget(m_resultStatus);

    auto *denyRow = new QHBoxLayout;
    denyRow->addStretch();
    denyRow->addWidget(m_denyButton);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins({});
    layout->addWidget(m_toolLabel);
    layout->addWidget(arguments, 2);
    layout->addWidget(result, 1);
    layout->addLayout(denyRow);

    connect(m_argumentsEdit, &QPlainTextEdit::textChanged, this, &DebugPanel::checkArguments);
    connect(m_applyArgumentsButton, &QPushButton::clicked, this, &DebugPanel::applyArguments);
    connect(revert, &QPushButton::clicked, this, &DebugPanel::revertEdits);
    connect(m_resultEdit, &QPlainTextEdit::textChanged, this, [this] {
        m_useResultButton->setEnabled(!m_resultEdit->toPlainText().isEmpty());
        showResultStatus();
    });
    connect(m_resultIsErrorBox, &QCheckBox::toggled, this, &DebugPanel::showResultStatus);
    connect(m_useResultButton, &QPushButton::clicked, this, &DebugPanel::useTypedResult);
    connect(m_denyButton, &QPushButton::clicked, this, &DebugPanel::denyCall);
    return page;
}

// ---------------------------------------------------------------------------
// Breakpoints

void DebugPanel::applyBreakpoints()
{
    if (!m_debugger)
        return;
    StepDebugger::Breakpoints breakpoints;
    breakpoints.modelCalls = m_modelCallsBox->isChecked();
    breakpoints.allToolCalls = m_allToolCallsBox->isChecked();
    const QStringList names = toolNamesFrom(m_toolNamesEdit->text());
    breakpoints.toolNames = QSet<QString>(names.cbegin(), names.cend());
    breakpoints.errors = m_errorsBox->isChecked();
    // A breakpoint set is meant to hold: it turns debug mode on.
    const StepDebugger::Breakpoints &before = m_debugger->breakpoints();
    const bool added
        = (breakpoints.modelCalls && !before.modelCalls) || (breakpoints.allToolCalls && !before.allToolCalls)
          || (breakpoints.errors && !before.errors) || !before.toolNames.contains(breakpoints.toolNames);
    m_debugger->setBreakpoints(breakpoints);
    if (added)
        m_debugger->setEnabled(true);
}

void DebugPanel::setTurnRunning(bool running)
{
    if (m_turnRunning == running)
        return;
    m_turnRunning = running;
    if (m_debugger)
        updateActions();
}

void DebugPanel::showSettings()
{
    if (!m_debugger)
        return;
    updateActions();
    const StepDebugger::Breakpoints &breakpoints = m_debugger->breakpoints();
    const QSignalBlocker blockEnabled(m_enabledBox);
    const QSignalBlocker blockModel(m_modelCallsBox);
    const QSignalBlocker blockTools(m_allToolCallsBox);
    const QSignalBlocker blockErrors(m_errorsBox);
    const QSignalBlocker blockNames(m_toolNamesEdit);
    m_enabledBox->setChecked(m_debugger->isEnabled());
    m_modelCallsBox->setChecked(breakpoints.modelCalls);
    m_allToolCallsBox->setChecked(breakpoints.allToolCalls);
    m_errorsBox->setChecked(breakpoints.errors);
    // Rewriting the text the user is typing would move the cursor.
    const QStringList typed = toolNamesFrom(m_toolNamesEdit->text());
    if (QSet<QString>(typed.cbegin(), typed.cend()) != breakpoints.toolNames) {
        QStringList names(breakpoints.toolNames.cbegin(), breakpoints.toolNames.cend());
        names.sort();
        m_toolNamesEdit->setText(names.join(u", "_s));
    }
}

// ---------------------------------------------------------------------------
// The current stop

void DebugPanel::showStop()
{
    if (!m_debugger)
        return;
    const std::optional<StepDebugger::Stop> stop = m_debugger->currentStop();
    updateActions();
    // The workbench may have changed since: it is read when it matters.
    if (m_workbench)
        m_toolNamesEdit->setToolTip(tr("Available tools: %1").arg(m_workbench->names().join(u", "_s)));
    if (!stop) {
        m_shownStop.clear();
        m_pages->setCurrentIndex(NothingHeldPage);
        m_stopLabel->setText(m_debugger->isPausePending()
                                 ? tr("Pausing: the loop will be held before its next model call or tool "
                                      "execution.")
                                 : tr("The loop is not held. Set a breakpoint or press Pause to hold it "
                                      "before its next model call or tool execution."));
        m_decisionLabel->clear();
        m_decisionLabel->hide();
        return;
    }

    QString reason;
    switch (stop->reason) {
    case StepDebugger::Reason::Breakpoint: reason = tr("breakpoint"); break;
    case StepDebugger::Reason::Step: reason = tr("step"); break;
    case StepDebugger::Reason::Pause: reason = tr("paused"); break;
    case StepDebugger::Reason::Error: reason = tr("after an error"); break;
    }

    QString where;
    QString decision;
    QString key;
    if (stop->modelCall) {
        const ModelCallCheckpoint &call = *stop->modelCall;
        key = u"model:%1"_s.arg(call.traceNode);
        where = call.isReflection
                    ? tr("Held before the reflection call (%1).").arg(reason)
                    : tr("Held before the model call of iteration %1 (%2).").arg(call.iteration).arg(reason);
        decision = stop->editedRequest ? tr("On release: the model receives the edited messages.")
                                       : tr("On release: the request goes as the loop built it.");
    } else {
        const ToolCallCheckpoint &call = *stop->toolCall;
        key = u"tool:%1:%2"_s.arg(call.traceNode).arg(call.call.id);
        where = tr("Held before the tool call %1 (id %2) of iteration %3 (%4).")
                    .arg(call.call.name, call.call.id)
                    .arg(call.iteration)
                    .arg(reason);
        if (stop->denial)
            decision = tr("On release: the call is denied and the model is told so.");
        else if (stop->suppliedResult)
            decision = tr("On release: the tool does not run; the model reads the typed result.");
        else if (stop->editedArguments)
            decision = tr("On release: the tool runs with the edited arguments.");
        else
            decision = tr("On release: the tool runs with the model's arguments.");
    }
    const int others = m_debugger->heldCount() - 1;
    if (others > 0)
        where += u' ' + tr("%n more call(s) held: Step lets them go one at a time.", nullptr, others);
    m_stopLabel->setText(where);
    m_decisionLabel->setText(decision);
    m_decisionLabel->show();

    if (key != m_shownStop) {
        m_shownStop = key;
        loadEditors();
    }
}

void DebugPanel::loadEditors()
{
    const std::optional<StepDebugger::Stop> stop = m_debugger->currentStop();
    if (!stop)
        return;
    if (stop->modelCall) {
        const ModelRequest &request = stop->editedRequest ? *stop->editedRequest : stop->modelCall->request;
        m_appliedMessages = StepDebugger::messagesToJson(request.messages);
        m_messagesEdit->setPlainText(m_appliedMessages);
        checkMessages();
        m_pages->setCurrentIndex(RequestPage);
        return;
    }

    const ToolCall &call = stop->toolCall->call;
    QString description = stop->toolCall->schema.description;
    QString schema = QString::fromUtf8(QJsonDocument(stop->toolCall->schema.parameters).toJson());
    if (m_workbench) {
        if (const auto tool = m_workbench->find(call.name)) {
            const ToolSchema current = tool->schema();
            description = current.description;
            schema = QString::fromUtf8(QJsonDocument(current.parameters).toJson());
        } else {
            description = tr("%1 is no longer on the workbench.").arg(call.name);
        }
    }
    m_toolLabel->setText(description.isEmpty() ? call.name : tr("%1: %2").arg(call.name, description));
    m_argumentsEdit->setToolTip(tr("The parameter schema of %1:\n%2").arg(call.name, schema));
    m_appliedArguments = prettyJson(stop->editedArguments.value_or(call.arguments));
    m_argumentsEdit->setPlainText(m_appliedArguments);
    checkArguments();
    m_resultEdit->setPlainText(stop->suppliedResult ? stop->suppliedResult->content : QString());
    m_resultIsErrorBox->setChecked(stop->suppliedResult && stop->suppliedResult->isError);
    m_useResultButton->setEnabled(!m_resultEdit->toPlainText().isEmpty());
    showResultStatus();
    m_pages->setCurrentIndex(ToolCallPage);
}

void DebugPanel::updateActions()
{
    const bool paused = m_debugger->isPaused();
    const bool pausing = m_turnRunning && m_debugger->isPausePending();
    m_pauseAction->setEnabled(m_turnRunning && m_debugger->isEnabled() && !paused && !pausing);
    m_stepAction->setEnabled(paused);
    m_continueAction->setEnabled(paused || pausing);
    m_stopAction->setEnabled(m_turnRunning);
}

// ---------------------------------------------------------------------------
// Edits

void DebugPanel::checkMessages()
{
    QString error;
    const auto messages = StepDebugger::messagesFromJson(m_messagesEdit->toPlainText(), &error);
    QString problem;
    if (!messages)
        m_messagesStatus->setText(error);
    else if (!historyIsWellFormed(*messages, &problem))
        m_messagesStatus->setText(tr("A strict provider may refuse these messages: %1.").arg(problem));
    else
        m_messagesStatus->setText(tr("Valid: %n message(s).", nullptr, int(messages->size())));
    m_applyMessagesButton->setEnabled(messages && m_messagesEdit->toPlainText() != m_appliedMessages);
}

void DebugPanel::checkArguments()
{
    if (!m_debugger)
        return;
    const QString text = m_argumentsEdit->toPlainText();
    const QString error = m_debugger->validateArguments(text);
    m_argumentsStatus->setText(error.isEmpty() ? tr("Valid for the tool's schema.") : error);
    m_applyArgumentsButton->setEnabled(error.isEmpty() && text != m_appliedArguments);
}

bool DebugPanel::applyMessages()
{
    const std::optional<StepDebugger::Stop> stop = m_debugger ? m_debugger->currentStop() : std::nullopt;
    if (!stop || !stop->modelCall)
        return false;
    const QString text = m_messagesEdit->toPlainText();
    QString error;
    const auto messages = StepDebugger::messagesFromJson(text, &error);
    if (!messages) {
        m_messagesStatus->setText(error);
        m_messagesEdit->setFocus();
        return false;
    }
    ModelRequest request = stop->modelCall->request;
    request.messages = *messages;
    m_appliedMessages = text;
    m_debugger->editRequest(request);
    checkMessages();
    return true;
}

bool DebugPanel::applyArguments()
{
    if (!m_debugger)
        return false;
    const QString text = m_argumentsEdit->toPlainText();
    QString error;
    if (!m_debugger->editArguments(text, &error)) {
        m_argumentsStatus->setText(error);
        m_argumentsEdit->setFocus();
        return false;
    }
    m_appliedArguments = text;
    checkArguments();
    return true;
}

void DebugPanel::revertEdits()
{
    if (!m_debugger || !m_debugger->discardEdits())
        return;
    loadEditors();
}

void DebugPanel::useTypedResult()
{
    if (!m_debugger)
        return;
    m_debugger->supplyResult({m_resultEdit->toPlainText(), m_resultIsErrorBox->isChecked()});
    showResultStatus();
}

void DebugPanel::showResultStatus()
{
    // Said beside the button, where the eye is when it is pressed.
    const std::optional<StepDebugger::Stop> stop = m_debugger ? m_debugger->currentStop() : std::nullopt;
    const bool staged = stop && stop->suppliedResult;
    if (!staged) {
        m_resultStatus->clear();
        m_resultStatus->hide();
        return;
    }
    const bool current = stop->suppliedResult->content == m_resultEdit->toPlainText()
                         && stop->suppliedResult->isError == m_resultIsErrorBox->isChecked();
    m_resultStatus->setText(
        current ? (stop->suppliedResult->isError
                       ? tr("Staged: the tool will not run; on Step or Continue the model reads this as an "
                            "error.")
                       : tr("Staged: the tool will not run; on Step or Continue the model reads this "
                            "result."))
                : tr("Changed since it was staged: press Use this result again to stage the new text."));
    m_resultStatus->show();
}

void DebugPanel::denyCall()
{
    if (m_debugger)
        m_debugger->deny();
}

bool DebugPanel::commitTypedEdits()
{
    switch (m_pages->currentIndex()) {
    case RequestPage: return m_messagesEdit->toPlainText() == m_appliedMessages || applyMessages();
    case ToolCallPage: return m_argumentsEdit->toPlainText() == m_appliedArguments || applyArguments();
    default: return true;
    }
}

void DebugPanel::stepOnce()
{
    if (m_debugger && commitTypedEdits())
        m_debugger->step();
}

void DebugPanel::continueRunning()
{
    if (m_debugger && commitTypedEdits())
        m_debugger->resume();
}

QWidget *DebugPanel::stopView() const
{
    return m_stopBox;
}

} // namespace Loopscope::Ui
