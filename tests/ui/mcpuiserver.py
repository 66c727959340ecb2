#!/usr/bin/env python3
"""A small MCP server over stdio for the widget tests: two tools, a prompt with
a required argument, a text resource, an image resource, and a line on stderr
at start. Resources can be subscribed to: a call of lookup with q "touch" edits
the text resource and tells the server's subscribers (notifications/resources/updated)."""
import json
import sys

TOOLS = [
    {"name": "lookup", "title": "Look up", "description": "Looks something up.",
     "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}},
    {"name": "erase", "description": "Erases everything.",
     "inputSchema": {"type": "object", "properties": {}}},
]
PROMPTS = [
    {"name": "review", "title": "Review code", "description": "Asks for a review.",
     "arguments": [{"name": "file", "description": "The file to review", "required": True},
                   {"name": "focus", "description": "What to look at"}]},
]
RESOURCES = [
    {"uri": "notes://today", "name": "today", "title": "Today's notes", "mimeType": "text/plain"},
    {"uri": "file:///reports/chart.png", "name": "chart", "title": "Sales chart", "mimeType": "image/png"},
]
# A 1x1 PNG.
CHART_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


subscribed = set()
edits = 0


def notes_text():
    return "Buy milk.\nCall Ada." + "".join("\nEdit %d." % n for n in range(1, edits + 1))


sys.stderr.write("uiserver: ready for questions\n")
sys.stderr.flush()
for line in sys.stdin:
    try:
        message = json.loads(line)
    except ValueError:
        continue
    method = message.get("method")
    request_id = message.get("id")
    params = message.get("params") or {}
    if request_id is None:
        continue
    result = None
    if method == "initialize":
        result = {"protocolVersion": params.get("protocolVersion", "2025-06-18"),
                  "capabilities": {"tools": {}, "prompts": {}, "resources": {"subscribe": True}},
                  "serverInfo": {"name": "uiserver", "version": "1.0"}}
    elif method == "tools/list":
        result = {"tools": TOOLS}
    elif method == "prompts/list":
        result = {"prompts": PROMPTS}
    elif method == "prompts/get":
        args = params.get("arguments") or {}
        text = "Please review %s" % args.get("file", "?")
        if args.get("focus"):
            text += " with a focus on %s" % args["focus"]
        result = {"messages": [{"role": "user", "content": {"type": "text", "text": text + "."}}]}
    elif method == "resources/list":
        result = {"resources": RESOURCES}
    elif method == "resources/read" and params.get("uri") == "file:///reports/chart.png":
        result = {"contents": [{"uri": params.get("uri"), "mimeType": "image/png", "blob": CHART_PNG}]}
    elif method == "resources/read":
        result = {"contents": [{"uri": params.get("uri"), "mimeType": "text/plain", "text": notes_text()}]}
    elif method == "resources/subscribe":
        subscribed.add(params.get("uri"))
        result = {}
    elif method == "resources/unsubscribe":
        subscribed.discard(params.get("uri"))
        result = {}
    elif method == "tools/call" and (params.get("arguments") or {}).get("q") == "touch":
        edits += 1
        for uri in sorted(subscribed):
            send({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": uri}})
        result = {"content": [{"type": "text", "text": "touched"}]}
    elif method == "ping":
        result = {}
    if result is None:
        send({"jsonrpc": "2.0", "id": request_id,
              "error": {"code": -32601, "message": "Method not found"}})
    else:
        send({"jsonrpc": "2.0", "id": request_id, "result": result})
