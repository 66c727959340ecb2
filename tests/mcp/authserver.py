#!/usr/bin/env python3
"""An MCP server behind OAuth, with its own authorization server, for Loopscope's client tests.

Usage: authserver.py PORT MODE, where MODE is one of
  ok            signs in: dynamic registration, a code, a token (with a refresh token)
  refuse-token  the token endpoint refuses every code (invalid_grant)
  wrong-state   the authorization endpoint redirects back with a state of its own
  expire        the first access token is refused by the MCP endpoint after one use; refreshing works
  iss           advertises RFC 9207 and names itself (iss) in the authorization response
  wrong-iss     advertises RFC 9207 and names another issuer in the authorization response
  no-iss        advertises RFC 9207 and names no issuer in the authorization response
  static        no OAuth at all: the MCP endpoint takes the fixed "Authorization: Bearer SECRET-STATIC"
                (a secret header the user saved) and answers anything else with a bare 401
It prints "ready" once it listens on 127.0.0.1:PORT. Tokens start with "SECRET-" so a test can
search everything Loopscope logged for them.
"""
import json
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT = int(sys.argv[1])
MODE = sys.argv[2] if len(sys.argv) > 2 else "ok"
BASE = "http://127.0.0.1:%d" % PORT
STATE = {"tokens": {"SECRET-STATIC": 10**9} if MODE == "static"
         else {"SECRET-ACCESS-1": 1 if MODE == "expire" else 10**9}, "refreshed": 0}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, body=None, headers=None):
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        if body is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        if MODE == "static":
            return self.reply(404, {"error": "not found"})
        if url.path == "/.well-known/oauth-protected-resource/mcp":
            return self.reply(200, {"resource": BASE + "/mcp", "authorization_servers": [BASE],
                                    "scopes_supported": ["files:read"]})
        if url.path == "/.well-known/oauth-authorization-server":
            metadata = {"issuer": BASE, "authorization_endpoint": BASE + "/authorize",
                        "token_endpoint": BASE + "/token", "registration_endpoint": BASE + "/register",
                        "response_types_supported": ["code"], "code_challenge_methods_supported": ["S256"],
                        "token_endpoint_auth_methods_supported": ["client_secret_post"]}
            if MODE in ("iss", "wrong-iss", "no-iss"):
                metadata["authorization_response_iss_parameter_supported"] = True
            return self.reply(200, metadata)
        if url.path == "/authorize":
            query = dict(urllib.parse.parse_qsl(url.query))
            state = "forged" if MODE == "wrong-state" else query["state"]
            answer = {"code": "SECRET-CODE", "state": state}
            if MODE in ("iss", "wrong-iss"):
                answer["iss"] = BASE if MODE == "iss" else "https://mix-up.example"
            target = query["redirect_uri"] + "?" + urllib.parse.urlencode(answer)
            return self.reply(302, None, {"Location": target})
        return self.reply(404, {"error": "not found"})

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length).decode()
        path = urllib.parse.urlparse(self.path).path
        if path == "/register":
            return self.reply(201, {"client_id": "dynamic-client", "client_secret": "SECRET-CLIENT"})
        if path == "/token":
            form = dict(urllib.parse.parse_qsl(raw))
            if MODE == "refuse-token" or form.get("client_secret") != "SECRET-CLIENT":
                return self.reply(400, {"error": "invalid_grant"})
            if form.get("grant_type") == "refresh_token":
                if form.get("refresh_token") != "SECRET-REFRESH":
                    return self.reply(400, {"error": "invalid_grant"})
                STATE["refreshed"] += 1
                token = "SECRET-ACCESS-REFRESHED"
                STATE["tokens"][token] = 10**9
                return self.reply(200, {"access_token": token, "token_type": "Bearer", "expires_in": 3600})
            if form.get("code") != "SECRET-CODE" or not form.get("code_verifier"):
                return self.reply(400, {"error": "invalid_grant"})
            return self.reply(200, {"access_token": "SECRET-ACCESS-1", "token_type": "Bearer",
                                    "refresh_token": "SECRET-REFRESH", "expires_in": 3600})
        if path == "/mcp":
            return self.mcp(json.loads(raw))
        return self.reply(404, {"error": "not found"})

    def mcp(self, message):
        token = self.headers.get("Authorization", "")[len("Bearer "):]
        uses = STATE["tokens"].get(token, 0)
        if uses <= 0 and MODE == "static":
            return self.reply(401, {"error": "invalid_token"}, {"WWW-Authenticate": "Bearer"})
        if uses <= 0:
            challenge = 'Bearer resource_metadata="%s/.well-known/oauth-protected-resource/mcp"' % BASE
            return self.reply(401, {"error": "invalid_token"}, {"WWW-Authenticate": challenge})
        if "id" not in message:
            return self.reply(202)
        STATE["tokens"][token] = uses - 1 if message.get("method") == "tools/call" else uses
        method = message.get("method")
        if method == "initialize":
            result = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                      "serverInfo": {"name": "auth-test", "version": "1"}}
        elif method == "tools/list":
            result = {"tools": [{"name": "whoami", "inputSchema": {"type": "object"}}]}
        elif method == "tools/call":
            result = {"content": [{"type": "text", "text": "refreshed %d" % STATE["refreshed"]}]}
        else:
            return self.reply(200, {"jsonrpc": "2.0", "id": message["id"],
                                    "error": {"code": -32601, "message": "Method not found"}})
        return self.reply(200, {"jsonrpc": "2.0", "id": message["id"], "result": result})


server = ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
print("ready", flush=True)
server.serve_forever()
