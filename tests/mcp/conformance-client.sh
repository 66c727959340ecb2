#!/bin/sh
# The client side of the MCP conformance suite (@modelcontextprotocol/conformance, client mode):
#   conformance client --command "sh conformance-client.sh LOOPSCOPE_BINARY" --scenario NAME
# The suite starts the scenario's server, appends its URL as the last argument and names the
# scenario in $MCP_CONFORMANCE_SCENARIO; this drives the loopscope CLI through it.
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
*)
    echo "conformance-client.sh: scenario not supported: ${MCP_CONFORMANCE_SCENARIO:-(none)}" >&2
    exit 3
    ;;
esac
