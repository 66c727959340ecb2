#pragma once

#include <QByteArray>
#include <QString>

namespace Loopscope {

struct Transcript;

struct OtlpExportOptions
{
    // The OpenTelemetry GenAI conventions make content opt-in, and so does
    // this: when set, tool spans carry gen_ai.tool.call.arguments and (on
    // success) gen_ai.tool.call.result, the turn span gen_ai.input.messages
    // (the question's attachments too: an image as a "blob" part, a file as
    // its text) and gen_ai.output.messages, and error statuses the tool's
    // error text.
    bool includeContent = false;
    // The instrumentation scope's version; empty: QCoreApplication::applicationVersion().
    QString version;
};

/*!
    The transcript's trace as OTLP/JSON (an ExportTraceServiceRequest) that
    Jaeger, Langfuse or Phoenix ingest, following the OpenTelemetry GenAI
    semantic conventions. Each turn is its own trace:

    - Turn: span "invoke_agent {agent}", INTERNAL, gen_ai.operation.name
      invoke_agent, gen_ai.agent.name, the turn's total token usage.
    - Iteration: span "iteration {n}", INTERNAL, loopscope.iteration.* (the
      conventions have no iteration; keeping it shows the loop's shape).
    - Reflection: span "reflection", INTERNAL, holding its chat span.
    - Model call: span "chat {model}", CLIENT, gen_ai.operation.name chat,
      gen_ai.provider.name, gen_ai.request.model, gen_ai.response.model,
      gen_ai.usage.input_tokens/output_tokens, gen_ai.response.finish_reasons,
      gen_ai.request.temperature/top_p/max_tokens/stream, server.address/port.
    - Tool call: span "execute_tool {tool}", INTERNAL, gen_ai.tool.name,
      gen_ai.tool.call.id, gen_ai.tool.type "function", loopscope.tool.decision.
    - Retries, shield checks, handoffs and summaries are span events
      ("loopscope.retry", "loopscope.shield_check", "loopscope.handoff",
      "loopscope.summary"); recorded errors are "exception" events with
      exception.type (the loop's error code) and exception.message. An event
      goes on its parent's span, or on the nearest ancestor whose time covers
      it: a tool span is the execution, so the shield check made before the
      tool ran lands on the iteration, naming its gen_ai.tool.call.id.

    Status is OK or ERROR (unset while a step was still running, whose end is
    then its last child's). error.type on failed spans: for a turn its
    outcome (failed, cancelled, blocked, fallback, error_limit, token_budget);
    for a chat the HTTP status, else "cancelled" or "_OTHER"; for a tool
    "tool_error", "denied", "skipped", "blocked" or "cancelled"; otherwise
    the trace status name.

    Ids are derived (SHA-256) from the session's creation time and the turn's
    start, index and input, so exporting the same session twice gives the
    same ids, and a later export of a longer session keeps the earlier turns'
    ids. gen_ai.conversation.id ties a session's turns together.

    Returns an empty array and sets *error when the trace cannot be read.
*/
QByteArray exportOtlpJson(const Transcript &transcript, const OtlpExportOptions &options = {},
                          QString *error = nullptr);

} // namespace Loopscope
