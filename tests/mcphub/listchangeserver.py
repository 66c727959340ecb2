#!/usr/bin/env python3
"""An MCP server over stdio whose tool list grows: calling "grow" adds the tool
"extra" and sends notifications/tools/list_changed, and the call is answered
only after the client has listed the tools again. For the hub's test that a
turn sees a changed list from its next iteration on."""
import json
import sys

pending_grow = None
tools = [{"name": "grow", "description": "Adds the tool extra.",
          "inputSchema": {"type": "object", "properties": {}}}]


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    try:
        message = json.loads(line)
    except ValueError:
        continue
    method = message.get("method")
    request_id = message.get("id")
    params = message.get("params") or {}
    if request_id is None:
        continue  # notifications
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": request_id, "result": {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {"listChanged": True}},
            "serverInfo": {"name": "listchange", "version": "1.0"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": request_id, "result": {"tools": tools}})
        if pending_grow is not None:
            send({"jsonrpc": "2.0", "id": pending_grow,
                  "result": {"content": [{"type": "text", "text": "grown"}]}})
            pending_grow = None
    elif method == "tools/call":
        name = params.get("name")
        if name == "grow":
            if len(tools) == 1:
                tools.append({"name": "extra", "description": "Says that it ran.",
                              "inputSchema": {"type": "object", "properties": {}}})
                send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
                pending_grow = request_id
                continue
            text = "grown"
        else:
            text = "extra ran"
        send({"jsonrpc": "2.0", "id": request_id,
              "result": {"content": [{"type": "text", "text": text}]}})
    elif method == "ping":
        send({"jsonrpc": "2.0", "id": request_id, "result": {}})
    else:
        send({"jsonrpc": "2.0", "id": request_id,
              "error": {"code": -32601, "message": "Method not found"}})
