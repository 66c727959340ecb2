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
"""
import json
import sys

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


def send_log_messages(threshold):
    for level in LEVELS[LEVELS.index(threshold):]:
        send({"jsonrpc": "2.0", "method": "notifications/message",
              "params": {"level": level, "logger": "fault.db", "data": {"level": level, "n": LEVELS.index(level)}}})


def handle_legacy(request_id, method, params):
    if method == "server/discover":
        if MODE == "exit-on-discover":
            log("unknown method before initialize, exiting")
            sys.exit(2)
        error(request_id, -32601, "Method not found")
    elif method == "initialize":
        capabilities = {"tools": {"listChanged": True}}
        if MODE == "logging":
            capabilities["logging"] = {}
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
    if method == "server/discover":
        capabilities = {"tools": {}}
        if MODE == "logging-modern":
            capabilities["logging"] = {}
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
            continue
        if MODE == "silent":
            continue
        if MODE == "garbage":
            print("this line is not JSON at all", flush=True)
            print('{"jsonrpc": "1.0", "not": "ours"}', flush=True)
        params = message.get("params") or {}
        if MODE in ("discover-only", "logging-modern"):
            handle_modern(message["id"], method, params)
        else:
            handle_legacy(message["id"], method, params)
    log("stdin closed, exiting")


if __name__ == "__main__":
    main()
