#!/bin/sh
# The client side of the MCP conformance suite (@modelcontextprotocol/conformance, client mode):
#   conformance client --command "sh conformance-client.sh LOOPSCOPE_BINARY" --scenario NAME
# The suite starts the scenario's server, appends its URL as the last argument and names the
# scenario in $MCP_CONFORMANCE_SCENARIO, and client credentials in $MCP_CONFORMANCE_CONTEXT (JSON);
# this drives the loopscope CLI through it. For the auth/* scenarios it writes an --mcp-config file
# with the server's "oauth" object (the same JSON as in Settings) and follows the authorization
# redirects with curl as $BROWSER, the way a browser would without a person.
set -eu

if [ "$#" -ne 2 ]; then
    echo "usage: conformance-client.sh LOOPSCOPE_BINARY URL" >&2
    exit 2
fi
loopscope=$1
url=$2

case "${MCP_CONFORMANCE_SCENARIO:-}" in
initialize)
    exec "$loopscope" mcp list --mcp-url "$url"
    ;;
tools_call)
    exec "$loopscope" mcp call --mcp-url "$url" add_numbers '{"a":2,"b":3}'
    ;;
elicitation-sep1034-client-defaults)
    exec "$loopscope" mcp call --mcp-url "$url" --approve all test_client_elicitation_defaults '{}'
    ;;
sse-retry)
    # The tool's answer comes only after the client resumed the closed stream with Last-Event-ID.
    exec "$loopscope" mcp call --mcp-url "$url" test_reconnection '{}'
    ;;
auth/*)
    config=$(mktemp)
    trap 'rm -f "$config" "$config.pem"' EXIT
    # The "oauth" entry from the scenario's context: pre-registered credentials, client credentials,
    # a private key (written to a file beside the config), or the Client ID Metadata Document URL the
    # basic-cimd scenario expects.
    MCP_URL=$url MCP_KEY_FILE=$config.pem node -e '
        const fs = require("fs");
        const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || "{}");
        const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
        const oauth = {};
        if (context.client_id) oauth.clientId = context.client_id;
        if (context.client_secret) oauth.clientSecret = context.client_secret;
        if (scenario.startsWith("auth/client-credentials")) oauth.grant = "client_credentials";
        if (context.private_key_pem) {
            fs.writeFileSync(process.env.MCP_KEY_FILE, context.private_key_pem, { mode: 0o600 });
            oauth.privateKeyFile = process.env.MCP_KEY_FILE;
            oauth.algorithm = context.signing_algorithm || "ES256";
        }
        if (scenario === "auth/basic-cimd")
            oauth.clientMetadataUrl = "https://conformance-test.local/client-metadata.json";
        const server = { url: process.env.MCP_URL, oauth };
        process.stdout.write(JSON.stringify({ mcpServers: { conformance: server } }));
    ' >"$config"
    BROWSER="curl --silent --show-error --location --output /dev/null" \
        "$loopscope" mcp call --mcp-config "$config" test-tool '{}'
    ;;
*)
    echo "conformance-client.sh: scenario not supported: ${MCP_CONFORMANCE_SCENARIO:-(none)}" >&2
    exit 3
    ;;
esac
