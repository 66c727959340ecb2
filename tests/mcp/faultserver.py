#!/usr/bin/env python3
"""A misbehaving MCP server over stdio for Loopscope's client tests.

Usage: faultserver.py MODE, where MODE is one of
  garbage          prints lines that are not JSON-RPC between valid messages
  silent           never answers anything
  crash-during-call exits in the middle of a tools/call
  paged            lists its tools in three pages (nextCursor)
  discover-only    speaks only 2026-07-28: server/discover, _meta on every request
  exit-on-discover exits when it receives server/discover (before initialize)
  huge-answer      answers a tools/call whose text is "huge" with a 3 MB line, written in pieces
  logging          declares logging; logging/setLevel sets the threshold; a tools/call first sends one
                   notifications/message per level at or above it (all of them before any setLevel)
  logging-modern   like discover-only, with logging: a tools/call whose _meta carries
                   io.modelcontextprotocol/logLevel sends the messages at or above it; none without
  subscriptions    like discover-only, with resources that can be subscribed to (note://a, note://b) and
                   list changes: subscriptions/listen is acknowledged with the resources it knows; a
                   tools/call whose text is "touch URI" makes that resource newer and tells each open
                   listen stream that asked for it; notifications/cancelled closes a stream (logged)
  tasks-legacy     2025-11-25's experimental tasks: declares tasks.requests.tools.call and a tool "slow" that
                   requires a task (execution.taskSupport); a tools/call of it without params.task is refused
                   (-32601); with one, its text "complete", "fail" or "notify" makes a task (pollInterval 200)
                   that completes after two polls, fails after one (tasks/result: an isError result), or
                   completes at once and says so only in notifications/tasks/status (pollInterval 60 s)
  tasks            like discover-only, with the tasks extension: a tools/call whose text is "complete",
                   "fail", "ask", "ask-sample", "forever" or "notify" is answered with a task (pollIntervalMs
                   200) that completes after two polls, fails after one, asks for input (a form or a
                   sampling request, in inputRequests; tasks/update's inputResponses are checked, logged
                   and, one poll later still asking, become its result, as in mrtr), works until
                   tasks/cancel, or
                   (pollIntervalMs 60 s) completes at once and says so only in notifications/tasks; a poll
                   sooner than the interval is refused (and logged)
  mrtr             like discover-only; a tools/call whose text is "sample", "ask", "both", "again",
                   "link" (a URL-mode elicitation) or "forever" is answered with input_required (2026-07-28 multi-round-trip requests):
                   a sampling request, a form, both at once, a sampling request in each of two rounds,
                   or requestState alone every time; the retry's inputResponses and requestState are
                   checked, logged and echoed in the result
"""
import json
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "garbage"
MODERN = "2026-07-28"


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def log(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def result(request_id, value):
    send({"jsonrpc": "2.0", "id": request_id, "result": value})


def error(request_id, code, message, data=None):
    body = {"code": code, "message": message}
    if data is not None:
        body["data"] = data
    send({"jsonrpc": "2.0", "id": request_id, "error": body})


def tool(name):
    return {"name": name, "description": "Tool " + name,
            "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}


PAGED_TOOLS = [tool("paged-%d" % i) for i in range(7)]
LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
log_level = "debug"


TASK_POLL_MS = 200
tasks = {}  # taskId -> {"kind", "polls", "last", "cancelled"}


def task_state(task_id, status, **extra):
    state = {"taskId": task_id, "status": status, "createdAt": "2026-11-29T00:00:00Z",
             "lastUpdatedAt": "2026-11-29T00:00:00Z", "ttlMs": 60000, "pollIntervalMs": TASK_POLL_MS}
    state.update(extra)
    return state


def new_task(kind):
    task_id = "task-%d" % (len(tasks) + 1)
    tasks[task_id] = {"kind": kind, "polls": 0, "last": time.monotonic(), "cancelled": False}
    log("created %s (%s)" % (task_id, kind))
    return task_id


def known_task(request_id, params):
    """The task a tasks/* request names, or None after answering that there is no such task."""
    task_id = params.get("taskId")
    if task_id not in tasks:
        error(request_id, -32602, "Unknown task " + str(task_id))
        return None
    return task_id


def handle_task(request_id, method, params, meta):
    if method == "tools/call":
        text = params.get("arguments", {}).get("text", "")
        extensions = meta.get("io.modelcontextprotocol/clientCapabilities", {}).get("extensions", {})
        if text not in ("complete", "fail", "ask", "ask-sample", "forever", "notify") or "io.modelcontextprotocol/tasks" not in extensions:
            result(request_id, {"resultType": "complete", "content": [{"type": "text", "text": "At once: " + text}]})
            return
        task_id = new_task(text)
        if text == "notify":
            result(request_id, dict(task_state(task_id, "working", statusMessage="Queued", pollIntervalMs=60000),
                                    resultType="task"))
            send({"jsonrpc": "2.0", "method": "notifications/tasks",
                  "params": task_state(task_id, "completed", result={"content": [{"type": "text", "text": "Task done"}]})})
            return
        result(request_id, dict(task_state(task_id, "working", statusMessage="Queued"), resultType="task"))
        return
    task_id = known_task(request_id, params)
    if task_id is None:
        return
    task = tasks[task_id]
    if method == "tasks/cancel":
        task["cancelled"] = True
        log("tasks/cancel %s" % task_id)
        result(request_id, {"resultType": "complete"})
        return
    if method == "tasks/update":
        responses = params.get("inputResponses", {})
        log("tasks/update %s %s" % (task_id, json.dumps(responses, sort_keys=True)))
        if task["kind"] not in TASK_ASKS or set(responses) != set(TASK_ASKS[task["kind"]]):
            error(request_id, -32602, "inputResponses must answer the outstanding inputRequests")
            return
        task["answers"] = responses
        task["answered_at"] = task["polls"]  # the next poll still asks (taken in eventually)
        result(request_id, {"resultType": "complete"})
        return
    if method != "tasks/get":
        error(request_id, -32601, "Method not found")
        return
    now = time.monotonic()
    if (now - task["last"]) * 1000 < TASK_POLL_MS * 0.9:
        log("polled %s too soon" % task_id)
        error(request_id, -32000, "Polled sooner than pollIntervalMs")
        return
    task["last"] = now
    task["polls"] += 1
    log("poll %d of %s" % (task["polls"], task_id))
    kind = task["kind"]
    if task["cancelled"]:
        state = task_state(task_id, "cancelled")
    elif kind == "complete" and task["polls"] >= 2:
        state = task_state(task_id, "completed", result={"content": [{"type": "text", "text": "Task done"}]})
    elif kind == "fail":
        state = task_state(task_id, "failed", error={"code": -32603, "message": "disk full"})
    elif kind in TASK_ASKS and task.get("answered_at", task["polls"]) + 1 < task["polls"]:
        state = task_state(task_id, "completed", result={"content": [
            {"type": "text", "text": answers_text(TASK_ASKS[kind], task["answers"])}]})
    elif kind in TASK_ASKS:
        state = task_state(task_id, "input_required", inputRequests=TASK_ASKS[kind])
    else:
        state = task_state(task_id, "working", statusMessage="Step %d" % task["polls"])
    result(request_id, dict(state, resultType="complete"))


SAMPLE = {"method": "sampling/createMessage", "params": {
    "messages": [{"role": "user", "content": {"type": "text", "text": "Name the capital of France."}}],
    "systemPrompt": "Answer in one word.", "maxTokens": 20,
    "modelPreferences": {"hints": [{"name": "claude-3-sonnet"}], "speedPriority": 0.5}}}
ASK = {"method": "elicitation/create", "params": {
    "mode": "form", "message": "Your name?",
    "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}}
LINK = {"method": "elicitation/create", "params": {
    "mode": "url", "message": "Sign the form on our site.", "url": "https://example.com/sign?id=7",
    "elicitationId": "sign-7"}}


# What a task of the tasks mode asks for (inputRequests of its input_required state).
TASK_ASKS = {"ask": {"name": ASK}, "ask-sample": {"summary": SAMPLE}}


def content_text(content):
    blocks = content if isinstance(content, list) else [content]
    return " ".join(block.get("text", "") for block in blocks if isinstance(block, dict))


def handle_mrtr_call(request_id, params, meta):
    text = params.get("arguments", {}).get("text", "")
    responses = params.get("inputResponses")
    state = params.get("requestState")
    log("tools/call %s responses=%s state=%s" % (text, json.dumps(responses, sort_keys=True), state))
    capabilities = meta.get("io.modelcontextprotocol/clientCapabilities", {})
    if text in ("sample", "both", "again") and "sampling" not in capabilities:
        result(request_id, {"resultType": "complete", "isError": True,
                            "content": [{"type": "text", "text": "The client cannot sample."}]})
        return
    asked = {"sample": {"summary": SAMPLE}, "ask": {"name": ASK}, "both": {"summary": SAMPLE, "name": ASK},
             "again": {"summary": SAMPLE}, "link": {"link": LINK}}.get(text)
    if text == "forever":
        result(request_id, {"resultType": "input_required", "requestState": "round-%d" % (int((state or "round-0")[6:]) + 1)})
        return
    if asked is None:
        result(request_id, {"resultType": "complete", "content": [{"type": "text", "text": "Modern echo: " + text}]})
        return
    rounds = 2 if text == "again" else 1
    done = int(state[6:]) if state and state.startswith("round-") else 0
    if responses is None or done < rounds:
        if responses is not None and state is None:
            error(request_id, -32602, "inputResponses without requestState")
            return
        result(request_id, {"resultType": "input_required", "inputRequests": asked,
                            "requestState": "round-%d" % (done + 1)})
        return
    result(request_id, {"resultType": "complete", "content": [{"type": "text", "text": answers_text(asked, responses)}]})


def answers_text(asked, responses):
    """The input responses to \a asked, one line: how the tests see what the client answered."""
    parts = []
    for key in sorted(asked):
        answer = responses.get(key)
        if answer is None:
            parts.append("%s: missing" % key)
        elif "action" in answer:
            parts.append("%s: %s %s" % (key, answer["action"], json.dumps(answer.get("content", {}), sort_keys=True)))
        else:
            parts.append("%s: %s (%s, %s)" % (key, content_text(answer.get("content")), answer.get("model"),
                                               answer.get("stopReason")))
    return "; ".join(parts)


NOTES = {"note://a": 1, "note://b": 1}
listeners = {}  # subscriptions/listen request id -> the resource URIs it asked for


def handle_subscriptions(request_id, method, params):
    if method == "subscriptions/listen":
        asked = params.get("notifications", {})
        uris = [uri for uri in asked.get("resourceSubscriptions", []) if uri in NOTES]
        listeners[request_id] = uris
        log("listen %s for %s" % (request_id, ",".join(uris)))
        accepted = {key: value for key, value in asked.items() if key != "resourceSubscriptions"}
        accepted["resourceSubscriptions"] = uris
        send({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
              "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": request_id},
                         "notifications": accepted}})
    elif method == "resources/list":
        result(request_id, {"resultType": "complete", "ttlMs": 0, "cacheScope": "private",
                            "resources": [{"uri": uri, "name": uri[7:]} for uri in NOTES]})
    elif method == "resources/read":
        uri = params.get("uri")
        if uri not in NOTES:
            error(request_id, -32602, "Unknown resource " + str(uri))
            return
        result(request_id, {"resultType": "complete", "ttlMs": 0, "cacheScope": "private",
                            "contents": [{"uri": uri, "text": "version %d" % NOTES[uri]}]})
    else:
        text = params.get("arguments", {}).get("text", "")
        uri = text[len("touch "):]
        if method == "tools/call" and text.startswith("touch ") and uri in NOTES:
            NOTES[uri] += 1
            for listen_id, uris in listeners.items():
                if uri in uris:
                    send({"jsonrpc": "2.0", "method": "notifications/resources/updated",
                          "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": listen_id}, "uri": uri}})
        return False
    return True


def handle_legacy_task(request_id, method, params):
    if method == "tools/call":
        text = params.get("arguments", {}).get("text", "")
        if params.get("name") != "slow":
            result(request_id, {"content": [{"type": "text", "text": "Echo: " + text}]})
            return
        if "task" not in params:
            log("slow called without a task")
            error(request_id, -32601, "slow must be called as a task")
            return
        task_id = new_task(text)
        poll = 60000 if text == "notify" else TASK_POLL_MS
        state = {"taskId": task_id, "status": "working", "statusMessage": "Queued", "createdAt": "2025-11-25T00:00:00Z",
                 "lastUpdatedAt": "2025-11-25T00:00:00Z", "ttl": 60000, "pollInterval": poll}
        result(request_id, {"task": state})
        if text == "notify":
            send({"jsonrpc": "2.0", "method": "notifications/tasks/status",
                  "params": dict(state, status="completed", statusMessage="Done")})
        return
    task_id = known_task(request_id, params)
    if task_id is None:
        return
    task = tasks[task_id]
    base = {"taskId": task_id, "createdAt": "2025-11-25T00:00:00Z", "lastUpdatedAt": "2025-11-25T00:00:00Z",
            "ttl": 60000, "pollInterval": TASK_POLL_MS}
    if method == "tasks/cancel":
        task["cancelled"] = True
        log("tasks/cancel %s" % task_id)
        result(request_id, dict(base, status="cancelled"))
    elif method == "tasks/get":
        task["polls"] += 1
        log("poll %d of %s" % (task["polls"], task_id))
        if task["cancelled"]:
            status = "cancelled"
        elif task["kind"] == "fail":
            status = "failed"
        elif task["kind"] == "complete" and task["polls"] >= 2:
            status = "completed"
        else:
            status = "working"
        result(request_id, dict(base, status=status, statusMessage="Step %d" % task["polls"]))
    elif method == "tasks/result":
        log("tasks/result %s" % task_id)
        meta = {"io.modelcontextprotocol/related-task": {"taskId": task_id}}
        if task["kind"] == "fail":
            result(request_id, {"content": [{"type": "text", "text": "disk full"}], "isError": True, "_meta": meta})
        else:
            result(request_id, {"content": [{"type": "text", "text": "Task done"}], "_meta": meta})
    else:
        error(request_id, -32601, "Method not found")


def send_log_messages(threshold):
    for level in LEVELS[LEVELS.index(threshold):]:
        send({"jsonrpc": "2.0", "method": "notifications/message",
              "params": {"level": level, "logger": "fault.db", "data": {"level": level, "n": LEVELS.index(level)}}})


def handle_legacy(request_id, method, params):
    if MODE == "tasks-legacy" and (method == "tools/call" or method.startswith("tasks/")):
        handle_legacy_task(request_id, method, params)
        return
    if method == "server/discover":
        if MODE == "exit-on-discover":
            log("unknown method before initialize, exiting")
            sys.exit(2)
        error(request_id, -32601, "Method not found")
    elif method == "initialize":
        capabilities = {"tools": {"listChanged": True}}
        if MODE == "logging":
            capabilities["logging"] = {}
        if MODE == "tasks-legacy":
            capabilities["tasks"] = {"cancel": {}, "requests": {"tools": {"call": {}}}}
        result(request_id, {"protocolVersion": "2025-11-25", "capabilities": capabilities,
                            "serverInfo": {"name": "fault-" + MODE, "version": "1.0"}})
    elif method == "logging/setLevel" and MODE == "logging":
        global log_level
        if params.get("level") not in LEVELS:
            error(request_id, -32602, "Invalid log level")
            return
        log_level = params["level"]
        result(request_id, {})
    elif method == "tools/list":
        if MODE == "paged":
            cursor = params.get("cursor")
            start = {None: 0, "page-2": 3, "page-3": 6}.get(cursor, 0)
            page = {"tools": PAGED_TOOLS[start:start + 3]}
            if start + 3 < len(PAGED_TOOLS):
                page["nextCursor"] = "page-%d" % (start // 3 + 2)
            result(request_id, page)
        elif MODE == "tasks-legacy":
            result(request_id, {"tools": [tool("echo"), dict(tool("slow"), execution={"taskSupport": "required"})]})
        else:
            result(request_id, {"tools": [tool("echo"), tool("crash")]})
    elif method == "tools/call":
        if MODE == "crash-during-call":
            log("crashing in the middle of the call")
            sys.exit(3)
        text = params.get("arguments", {}).get("text", "")
        if MODE == "logging":
            send_log_messages(log_level)
        if MODE == "huge-answer" and text == "huge":
            sys.stdout.write('{"jsonrpc": "2.0", "id": %s, "result": {"content": [{"type": "text", "text": "'
                             % json.dumps(request_id))
            for _ in range(48):
                sys.stdout.write("x" * 65536)
                sys.stdout.flush()
            sys.stdout.write('"}]}}\n')
            sys.stdout.flush()
            return
        result(request_id, {"content": [{"type": "text", "text": "Echo: " + text}]})
    elif method == "ping":
        result(request_id, {})
    else:
        error(request_id, -32601, "Method not found")


def handle_modern(request_id, method, params):
    meta = params.get("_meta", {})
    version = meta.get("io.modelcontextprotocol/protocolVersion")
    if version != MODERN:
        log("request %s without protocol version %s in _meta" % (method, MODERN))
        error(request_id, -32022, "Unsupported protocol version", {"supported": [MODERN], "requested": version})
        return
    if "io.modelcontextprotocol/clientCapabilities" not in meta:
        error(request_id, -32021, "Missing client capabilities")
        return
    if MODE == "mrtr" and method == "tools/call":
        handle_mrtr_call(request_id, params, meta)
        return
    if MODE == "subscriptions" and handle_subscriptions(request_id, method, params):
        return
    if MODE == "tasks" and (method == "tools/call" or method.startswith("tasks/")):
        handle_task(request_id, method, params, meta)
        return
    if method == "server/discover":
        capabilities = {"tools": {}}
        if MODE == "logging-modern":
            capabilities["logging"] = {}
        if MODE == "subscriptions":
            capabilities = {"tools": {"listChanged": True}, "resources": {"subscribe": True, "listChanged": True}}
        if MODE == "tasks":
            capabilities["extensions"] = {"io.modelcontextprotocol/tasks": {}}
        result(request_id, {"resultType": "complete", "supportedVersions": [MODERN],
                            "capabilities": capabilities,
                            "serverInfo": {"name": "fault-discover-only", "version": "2.0"},
                            "instructions": "Modern only."})
    elif method == "tools/list":
        result(request_id, {"resultType": "complete", "tools": [tool("echo")], "ttlMs": 0, "cacheScope": "private"})
    elif method == "tools/call":
        text = params.get("arguments", {}).get("text", "")
        if MODE == "logging-modern" and "io.modelcontextprotocol/logLevel" in meta:
            send_log_messages(meta["io.modelcontextprotocol/logLevel"])
        result(request_id, {"resultType": "complete", "content": [{"type": "text", "text": "Modern echo: " + text}]})
    else:
        error(request_id, -32601, "Method not found")


def main():
    log("fault server in mode " + MODE)
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        message = json.loads(line)
        method = message.get("method")
        if "id" not in message:
            log("notification " + str(method))
            if method == "notifications/cancelled":
                request_id = (message.get("params") or {}).get("requestId")
                if listeners.pop(request_id, None) is not None:
                    log("listen %s closed" % request_id)
            continue
        if MODE == "silent":
            continue
        if MODE == "garbage":
            print("this line is not JSON at all", flush=True)
            print('{"jsonrpc": "1.0", "not": "ours"}', flush=True)
        params = message.get("params") or {}
        if MODE in ("discover-only", "logging-modern", "tasks", "mrtr", "subscriptions"):
            handle_modern(message["id"], method, params)
        else:
            handle_legacy(message["id"], method, params)
    log("stdin closed, exiting")


if __name__ == "__main__":
    main()
