#include "agent/debug/stepdebugger.h"

#include "agent/tools/schemavalidator.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <utility>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

QString compactJson(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

// The model's arguments as an object, or nullopt when they are not one.
std::optional<QJsonObject> argumentsObject(const QString &arguments)
{
    const QString text = arguments.trimmed().isEmpty() ? u"{}"_s : arguments;
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return std::nullopt;
    return document.object();
}

} // namespace

StepDebugger::StepDebugger(QObject *parent)
    : QObject(parent)
{}

StepDebugger::~StepDebugger()
{
    // Decisions reach the agent queued and only if its turn still waits, so
    // this is safe whether or not the agent is still there.
    for (Held &held : m_held)
        release(held);
}

void StepDebugger::setEnabled(bool enabled)
{
    if (m_enabled == enabled)
        return;
    m_enabled = enabled;
    if (!enabled)
        resume();
    emit settingsChanged();
}

void StepDebugger::setBreakpoints(const Breakpoints &breakpoints)
{
    if (m_breakpoints == breakpoints)
        return;
    m_breakpoints = breakpoints;
    if (!m_breakpoints.errors)
        m_errorSeen = false;
    emit settingsChanged();
}

std::optional<StepDebugger::Stop> StepDebugger::currentStop() const
{
    if (m_held.empty())
        return std::nullopt;
    return m_held.front().stop;
}

QList<StepDebugger::Stop> StepDebugger::heldStops() const
{
    QList<Stop> stops;
    stops.reserve(qsizetype(m_held.size()));
    for (const Held &held : m_held)
        stops.append(held.stop);
    return stops;
}

void StepDebugger::setPauseRequested(bool requested)
{
    if (m_pauseRequested == requested)
        return;
    m_pauseRequested = requested;
    emit stopChanged();
}

void StepDebugger::pause()
{
    if (!m_enabled) {
        m_enabled = true;
        emit settingsChanged();
    }
    setPauseRequested(true);
}

void StepDebugger::step()
{
    if (m_held.empty()) {
        pause();
        return;
    }
    Held held = std::move(m_held.front());
    m_held.pop_front();
    // With more held, the next checkpoint is already there; else it is the
    // next one the loop reaches.
    m_stepping = m_held.empty();
    release(held);
    emit stopChanged();
    if (m_held.empty())
        emit resumed();
    else
        emit paused(Reason::Step);
}

void StepDebugger::resume()
{
    m_stepping = false;
    m_errorSeen = false;
    const bool wasPending = std::exchange(m_pauseRequested, false);
    if (m_held.empty()) {
        if (wasPending)
            emit stopChanged();
        return;
    }
    std::deque<Held> held = std::exchange(m_held, {});
    for (Held &h : held)
        release(h);
    emit stopChanged();
    emit resumed();
}

bool StepDebugger::editRequest(const ModelRequest &request)
{
    if (m_held.empty() || !m_held.front().modelDecision)
        return false;
    Stop &stop = m_held.front().stop;
    if (request == stop.modelCall->request)
        stop.editedRequest.reset();
    else
        stop.editedRequest = request;
    emit stopChanged();
    return true;
}

QString StepDebugger::validateArguments(const QString &arguments) const
{
    if (m_held.empty() || !m_held.front().toolDecision)
        return tr("No tool call is held.");
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(arguments.toUtf8(), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return tr("The arguments are not valid JSON: %1 at offset %2.")
            .arg(parseError.errorString())
            .arg(parseError.offset);
    if (!document.isObject())
        return tr("The arguments must be a JSON object.");
    const Held &held = m_held.front();
    const QString violation = held.validator->validate(document.object());
    if (!violation.isEmpty())
        return tr("The arguments do not match the schema of %1:\n%2")
            .arg(held.stop.toolCall->call.name, violation);
    return {};
}

bool StepDebugger::editArguments(const QString &arguments, QString *error)
{
    const QString problem = validateArguments(arguments);
    if (!problem.isEmpty()) {
        if (error)
            *error = problem;
        return false;
    }
    Stop &stop = m_held.front().stop;
    const QJsonObject edited = QJsonDocument::fromJson(arguments.toUtf8()).object();
    stop.suppliedResult.reset();
    stop.denial.reset();
    // The same object in other words is no edit: the trace keeps the model's text.
    if (argumentsObject(stop.toolCall->call.arguments) == edited)
        stop.editedArguments.reset();
    else
        stop.editedArguments = compactJson(edited);
    emit stopChanged();
    return true;
}

bool StepDebugger::supplyResult(const ToolResult &result)
{
    if (m_held.empty() || !m_held.front().toolDecision)
        return false;
    Stop &stop = m_held.front().stop;
    stop.editedArguments.reset();
    stop.denial.reset();
    stop.suppliedResult = result;
    emit stopChanged();
    return true;
}

bool StepDebugger::deny(const QString &reason)
{
    if (m_held.empty() || !m_held.front().toolDecision)
        return false;
    Stop &stop = m_held.front().stop;
    stop.editedArguments.reset();
    stop.suppliedResult.reset();
    stop.denial = reason;
    emit stopChanged();
    return true;
}

bool StepDebugger::discardEdits()
{
    if (m_held.empty())
        return false;
    Stop &stop = m_held.front().stop;
    stop.editedRequest.reset();
    stop.editedArguments.reset();
    stop.suppliedResult.reset();
    stop.denial.reset();
    emit stopChanged();
    return true;
}

void StepDebugger::observe(const AgentEvent &event)
{
    switch (event.kind) {
    case AgentEvent::Kind::TurnFinished:
        // A sub-agent's turn ends inside its caller's, which may still hold a call.
        if (event.depth == 0)
            forgetHeld();
        return;
    case AgentEvent::Kind::Retry:
        // The client tries again by itself; only a failure the loop sees counts.
        return;
    case AgentEvent::Kind::ToolResult:
        // A call the user (or the approval policy) denied is a decision, not an error.
        if (const auto *result = event.payloadAs<ToolResultInfo>();
            result && result->status == TraceStatus::Denied)
            return;
        break;
    default: break;
    }
    if (event.isError && m_enabled && m_breakpoints.errors)
        m_errorSeen = true;
}

void StepDebugger::forgetHeld()
{
    const bool changed = !m_held.empty() || m_pauseRequested;
    const bool wasPaused = !m_held.empty();
    m_held.clear();
    m_stepping = false;
    m_errorSeen = false;
    m_pauseRequested = false;
    if (changed)
        emit stopChanged();
    if (wasPaused)
        emit resumed();
}

QString StepDebugger::messagesToJson(const QList<Message> &messages)
{
    QJsonArray array;
    for (const Message &message : messages)
        array.append(message.toJson());
    return QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Indented));
}

std::optional<QList<Message>> StepDebugger::messagesFromJson(const QString &json, QString *error)
{
    const auto fail = [error](const QString &why) -> std::optional<QList<Message>> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json.toUtf8(), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return fail(tr("The messages are not valid JSON: %1 at offset %2.")
                        .arg(parseError.errorString())
                        .arg(parseError.offset));
    if (!document.isArray())
        return fail(tr("The messages must be a JSON array of message objects."));
    QList<Message> messages;
    const QJsonArray array = document.array();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QJsonValue value = array.at(i);
        if (!value.isObject())
            return fail(tr("Message %1 is not a JSON object.").arg(i + 1));
        const QJsonObject object = value.toObject();
        const QString role = object.value(u"role"_s).toString();
        if (!roleFromName(role))
            return fail(tr("Message %1 has an unknown role \"%2\" (system, user, assistant or tool).")
                            .arg(i + 1)
                            .arg(role));
        if (object.contains(u"text"_s) && !object.value(u"text"_s).isString())
            return fail(tr("The text of message %1 must be a string.").arg(i + 1));
        messages.append(Message::fromJson(object));
    }
    return messages;
}

std::optional<StepDebugger::Reason> StepDebugger::holdReason(const ToolCallCheckpoint *toolCall) const
{
    if (!m_enabled)
        return std::nullopt;
    if (m_stepping)
        return Reason::Step;
    if (m_pauseRequested)
        return Reason::Pause;
    if (m_errorSeen)
        return Reason::Error;
    if (!toolCall)
        return m_breakpoints.modelCalls ? std::optional(Reason::Breakpoint) : std::nullopt;
    if (m_breakpoints.allToolCalls || m_breakpoints.toolNames.contains(toolCall->call.name))
        return Reason::Breakpoint;
    // Stepping through one response's parallel calls stops at each of them;
    // a breakpoint on one tool holds only that tool.
    for (const Held &held : m_held) {
        if (held.stop.toolCall && held.stop.reason != Reason::Breakpoint
            && held.stop.toolCall->iteration == toolCall->iteration)
            return Reason::Step;
    }
    return std::nullopt;
}

void StepDebugger::hold(Held held)
{
    // Holding is what a step, a pause or an error asked for: each asks once.
    m_stepping = false;
    m_errorSeen = false;
    m_pauseRequested = false;
    const bool first = m_held.empty();
    const Reason reason = held.stop.reason;
    m_held.push_back(std::move(held));
    emit stopChanged();
    if (first)
        emit paused(reason);
}

void StepDebugger::release(Held &held)
{
    const Stop &stop = held.stop;
    if (held.modelDecision) {
        if (stop.editedRequest)
            held.modelDecision->proceed(*stop.editedRequest);
        else
            held.modelDecision->proceed();
        return;
    }
    if (!held.toolDecision)
        return;
    if (stop.denial)
        held.toolDecision->deny(*stop.denial);
    else if (stop.suppliedResult)
        held.toolDecision->supplyResult(*stop.suppliedResult);
    else if (stop.editedArguments)
        held.toolDecision->allowWithArguments(*stop.editedArguments);
    else
        held.toolDecision->allow();
}

void StepDebugger::interceptModelCall(const ModelCallCheckpoint &checkpoint, ModelCallDecision decision)
{
    const std::optional<Reason> reason = holdReason(nullptr);
    if (!reason) {
        decision.proceed();
        return;
    }
    Held held;
    held.stop.modelCall = checkpoint;
    held.stop.reason = *reason;
    held.modelDecision = std::move(decision);
    hold(std::move(held));
}

void StepDebugger::interceptToolCall(const ToolCallCheckpoint &checkpoint, ToolCallDecision decision)
{
    const std::optional<Reason> reason = holdReason(&checkpoint);
    if (!reason) {
        decision.allow();
        return;
    }
    Held held;
    held.stop.toolCall = checkpoint;
    held.stop.reason = *reason;
    held.toolDecision = std::move(decision);
    held.validator = std::make_shared<const SchemaValidator>(checkpoint.schema.parameters);
    hold(std::move(held));
}

} // namespace Loopscope
