#!/usr/bin/env python3
"""A tiny OpenAI-compatible chat server on 127.0.0.1, for check-packages.sh.

POST /v1/chat/completions: when the last message is not a tool result, the
model asks for calculator {"expression": "0.17*2340"}; once the result is
back, it answers "The answer is <result>." Both streamed (SSE) and whole
responses are spoken. Writes the port it listens on to the file named by
its first argument, then serves until killed.
"""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def completion(messages):
    last = messages[-1] if messages else {}
    if last.get("role") == "tool":
        content = last.get("content")
        if isinstance(content, list):
            content = "".join(part.get("text", "") for part in content)
        return {"role": "assistant", "content": f"The answer is {content}."}, "stop"
    call = {"id": "call_1", "type": "function",
            "function": {"name": "calculator", "arguments": json.dumps({"expression": "0.17*2340"})}}
    return {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"


class Handler(BaseHTTPRequestHandler):
    def log_message(self, format, *args):
        sys.stderr.write("openai-test-server: " + (format % args) + "\n")

    def do_POST(self):
        if not self.path.endswith("/chat/completions"):
            self.send_error(404)
            return
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        message, finish = completion(body.get("messages", []))
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        base = {"id": "chatcmpl-test", "created": 0, "model": body.get("model", "test")}
        if not body.get("stream"):
            payload = json.dumps({**base, "object": "chat.completion", "usage": usage,
                                  "choices": [{"index": 0, "message": message, "finish_reason": finish}]})
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload.encode())))
            self.end_headers()
            self.wfile.write(payload.encode())
            return
        delta = {"role": "assistant"}
        if message.get("content"):
            delta["content"] = message["content"]
        if message.get("tool_calls"):
            delta["tool_calls"] = [{"index": 0, **message["tool_calls"][0]}]
        chunks = [
            {**base, "object": "chat.completion.chunk",
             "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
            {**base, "object": "chat.completion.chunk",
             "choices": [{"index": 0, "delta": {}, "finish_reason": finish}], "usage": usage},
        ]
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for chunk in chunks:
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(sys.argv[1], "w") as port_file:
        port_file.write(str(server.server_address[1]))
    server.serve_forever()


if __name__ == "__main__":
    main()
