#pragma once

#include "agent/loop/agentevent.h"
#include "agent/loop/interceptor.h"

#include <QList>
#include <QObject>
#include <QSet>

#include <deque>
#include <memory>
#include <optional>

namespace Loopscope {

class SchemaValidator;

/*!
    The step debugger: an Interceptor that holds the loop at breakpoints
    (before model calls, before tool calls — all or by name — and at the next
    checkpoint after an error) so the user can look, edit the pending request
    or arguments, type a result by hand or deny the call, and then step or
    continue. It decides nothing on its own and knows nothing of widgets; the
    UI shows what it holds.

    Parallel tool calls of one response may be held together; step() lets
    them go one at a time, resume() all at once. Feed it the agent's events
    through observe() so that it can break on errors and drop what it holds
    when the turn ends.
*/
class StepDebugger final : public QObject, public Interceptor
{
    Q_OBJECT

public:
    enum class Reason { Breakpoint, Step, Pause, Error };
    Q_ENUM(Reason)

    struct Breakpoints
    {
        bool modelCalls = false;
        bool allToolCalls = false;
        QSet<QString> toolNames;
        bool errors = false;
        bool operator==(const Breakpoints &) const = default;
    };

    // What the loop is held at, and what letting it go will do. Exactly one
    // of the two checkpoints is set; at most one tool decision is staged.
    struct Stop
    {
        std::optional<ModelCallCheckpoint> modelCall;
        std::optional<ToolCallCheckpoint> toolCall;
        Reason reason = Reason::Breakpoint;
        std::optional<ModelRequest> editedRequest;
        std::optional<QString> editedArguments; // compact JSON, valid for the tool's schema
        std::optional<ToolResult> suppliedResult;
        std::optional<QString> denial;

        bool isEdited() const { return editedRequest || editedArguments || suppliedResult || denial; }
    };

    explicit StepDebugger(QObject *parent = nullptr);
    // Lets go of whatever is still held, so that a loop never waits on a debugger that is gone.
    ~StepDebugger() override;

    // Off: every checkpoint passes (what is held is let go). Breakpoints are kept.
    void setEnabled(bool enabled);
    bool isEnabled() const { return m_enabled; }
    void setBreakpoints(const Breakpoints &breakpoints);
    const Breakpoints &breakpoints() const { return m_breakpoints; }

    bool isPaused() const { return !m_held.empty(); }
    // True after pause() (or step() while running) until the next checkpoint is held.
    bool isPausePending() const { return m_pauseRequested; }
    // The stop being shown and edited: the oldest held checkpoint.
    std::optional<Stop> currentStop() const;
    QList<Stop> heldStops() const;
    int heldCount() const { return int(m_held.size()); }

    // Hold at the next model or tool call, breakpoint or not. Turns debugging on.
    void pause();
    // Let the current stop go (with its edits) and hold at the very next
    // checkpoint: another held one, or the next the loop reaches.
    void step();
    // Let everything held go; hold again only at a breakpoint.
    void resume();

    // Edits to the current stop, applied when it is let go. Each returns
    // false when the current stop is not of the right kind (or the edit is refused).
    bool editRequest(const ModelRequest &request);
    // Empty when \a arguments are a JSON object that satisfies the held tool's
    // schema; else a sentence saying what is wrong. The UI's live check.
    QString validateArguments(const QString &arguments) const;
    // Refuses (and keeps the previous state) when validateArguments() objects;
    // the reason goes to \a error. Arguments equal to the model's are no edit.
    bool editArguments(const QString &arguments, QString *error = nullptr);
    bool supplyResult(const ToolResult &result);
    bool deny(const QString &reason = {});
    // Forgets the current stop's edits: it goes as the loop proposed it.
    bool discardEdits();

    // Feed the agent's events: errors arm "break on error", TurnFinished
    // drops whatever is held.
    void observe(const Loopscope::AgentEvent &event);
    // The turn ended (or was cancelled): whatever is held belongs to it and is
    // dropped without a decision; a pending pause or step is forgotten too.
    void forgetHeld();

    // The messages of a request as the indented JSON array the UI edits, and back.
    static QString messagesToJson(const QList<Message> &messages);
    // nullopt, with the reason in \a error, unless \a json is an array of message objects with known roles.
    static std::optional<QList<Message>> messagesFromJson(const QString &json, QString *error = nullptr);

    void interceptModelCall(const ModelCallCheckpoint &checkpoint, ModelCallDecision decision) override;
    void interceptToolCall(const ToolCallCheckpoint &checkpoint, ToolCallDecision decision) override;
    QString holdKind() const override { return QStringLiteral("breakpoint"); }

signals:
    void paused(Loopscope::StepDebugger::Reason reason);
    void resumed();
    // What is held, its edits, or a pending pause changed.
    void stopChanged();
    // The enabled state or the breakpoints changed.
    void settingsChanged();

private:
    struct Held
    {
        Stop stop;
        std::optional<ModelCallDecision> modelDecision;
        std::optional<ToolCallDecision> toolDecision;
        std::shared_ptr<const SchemaValidator> validator; // tool calls only
    };

    std::optional<Reason> holdReason(const ToolCallCheckpoint *toolCall) const;
    void hold(Held held);
    static void release(Held &held);
    void setPauseRequested(bool requested);

    bool m_enabled = false;
    Breakpoints m_breakpoints;
    bool m_pauseRequested = false;
    bool m_stepping = false;
    bool m_errorSeen = false;
    std::deque<Held> m_held;
};

} // namespace Loopscope
