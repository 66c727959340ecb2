#!/bin/sh
# Runs the benchmarks of issue 15 and prints one table, so anyone can
# reproduce the README's figures. It builds nothing: build first, e.g.
#
#   cmake --preset release -DLOOPSCOPE_BENCHMARKS=ON -DBUILD_TESTING=ON
#   cmake --build build/release --target loopscope-bench loopscope-bench-server \
#       loopscope-session-bench loopscope-chat-bench loopscope-window-bench loopscope-parser-bench
#   tests/bench/run-benchmarks.sh [build/release]
#
# The loop benchmark runs every K:P cell streamed and not against one
# loopscope-bench-server; the Vercel AI SDK client in tests/bench/aisdk/, when
# there is one (and its packages are installed), runs against the same server
# in the same run. The GUI benchmarks run on the offscreen platform.
# Environment: REPEAT (loop turns per cell, default 5), RATE (tokens/s, 1000).
set -eu

build=${1:-build/release}
bench="$build/tests/bench"
here=$(cd "$(dirname "$0")" && pwd)
repeat=${REPEAT:-5}
rate=${RATE:-1000}
export QT_QPA_PLATFORM=offscreen

for tool in loopscope-bench loopscope-bench-server loopscope-session-bench loopscope-chat-bench \
    loopscope-window-bench loopscope-parser-bench; do
    if [ ! -x "$bench/$tool" ]; then
        echo "run-benchmarks.sh: $bench/$tool is missing; build it first (see the top of this script)" >&2
        exit 2
    fi
done

work=$(mktemp -d)
server=
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

# The last line of a benchmark's output is its JSON; anything else goes to the log.
last_json() {
    grep '^{' | tail -n 1
}

# --- The loop: one server for every client -------------------------------------------
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bench/loopscope-bench-server" --port "$port" >"$work/server.log" 2>&1 &
server=$!
python3 - "$port" <<'EOF'
import socket, sys, time
for _ in range(100):
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=0.1).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.05)
sys.exit("loopscope-bench-server did not start")
EOF

aisdk=
for name in loopbench.mjs loopbench.js bench.mjs bench.js index.mjs index.js; do
    if [ -f "$here/aisdk/$name" ]; then aisdk="$here/aisdk/$name"; break; fi
done

for cell in 10:1 10:4 50:4 200:4; do
    k=${cell%:*}
    p=${cell#*:}
    for stream in 0 1; do
        "$bench/loopscope-bench" --port "$port" --rounds "$k" --parallel "$p" --repeat "$repeat" \
            --stream "$stream" 2>>"$work/loop.log" | last_json >"$work/loop-$k-$p-$stream.json" || true
        if [ -n "$aisdk" ] && command -v node >/dev/null 2>&1; then
            node "$aisdk" --port "$port" --rounds "$k" --parallel "$p" --stream "$stream" \
                2>>"$work/aisdk.log" | last_json >"$work/aisdk-$k-$p-$stream.json" || true
        fi
    done
done

# --- The window -----------------------------------------------------------------------
for tokens in 2000 8000 20000; do
    "$bench/loopscope-chat-bench" --tokens "$tokens" --rate "$rate" 2>>"$work/gui.log" \
        | last_json >"$work/chat-$tokens.json" || true
done
for turns in 250 2500; do
    "$bench/loopscope-session-bench" --turns "$turns" --repeat 1 --keep "$work/session-$turns.json" \
        2>>"$work/gui.log" | last_json >"$work/load-$turns.json" || true
    "$bench/loopscope-window-bench" --file "$work/session-$turns.json" 2>>"$work/gui.log" \
        | last_json >"$work/window-$turns.json" || true
    rm -f "$work/session-$turns.json"
done

# --- The stream parsers, one byte at a time ------------------------------------------------
"$bench/loopscope-parser-bench" --sizes 1,2,4,8 >"$work/parsers.jsonl" 2>>"$work/gui.log" || true

python3 - "$work" "$repeat" "$rate" <<'EOF'
import json, os, sys

work, repeat, rate = sys.argv[1], int(sys.argv[2]), sys.argv[3]

def load(name):
    try:
        with open(os.path.join(work, name)) as f:
            return json.loads(f.read() or "null")
    except (OSError, ValueError):
        return None

def cpu_per_request(r):
    """Whole-process CPU per model request: a turn of K rounds makes K + 1 requests."""
    if not r:
        return None
    if "cpu_ms_per_request" in r:
        return r["cpu_ms_per_request"]
    requests = r.get("repeat", repeat) * (r["rounds"] + 1)
    return (r.get("cpu_user_ms", 0) + r.get("cpu_sys_ms", 0)) / requests

def ms(v, digits=2):
    return "n/a" if v is None else f"{v:.{digits}f} ms"

def mb(v):
    return "n/a" if v is None else f"{v:.0f} MB"

print(f"Loop overhead (R = {repeat} turns per cell, one server for every client)\n")
print("| K × P, stream | Loopscope CPU/request | Vercel AI SDK CPU/request | ratio | Loopscope peak RSS |")
print("| --- | --- | --- | --- | --- |")
for k, p in ((10, 1), (10, 4), (50, 4), (200, 4)):
    for stream in (0, 1):
        ours = load(f"loop-{k}-{p}-{stream}.json")
        theirs = load(f"aisdk-{k}-{p}-{stream}.json")
        a, b = cpu_per_request(ours), cpu_per_request(theirs)
        ratio = f"{a / b:.2f}" if a is not None and b else "n/a"
        rss = ours.get("max_rss_mb") if ours else None
        print(f"| {k} × {p}, {'SSE' if stream else 'JSON'} | {ms(a)} | {ms(b)} | {ratio} | {mb(rss)} |")

print(f"\nStreaming into the chat ({rate} tokens/s; the whole process's CPU)\n")
print("| tokens | CPU per 1k tokens | longest stall (GUI thread busy) | stalls > 20 ms | finished after last byte | RSS idle → after | selecting a trace step adds |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for tokens in (2000, 8000, 20000):
    r = load(f"chat-{tokens}.json")
    if not r:
        print(f"| {tokens} | n/a | n/a | n/a | n/a | n/a | n/a |")
        continue
    print(f"| {tokens} | {ms(r['cpu_ms_per_1k_tokens'], 0)} | {ms(r['longest_stall_ms'], 0)} "
          f"({ms(r['longest_stall_cpu_ms'], 0)}) | {r['stalls_over_20ms']} | "
          f"{ms(r['responsive_after_last_byte_ms'], 0)} | {mb(r['rss_idle_mb'])} → {mb(r['rss_after_mb'])} | "
          f"{mb(r['select_added_mb'])} |")

print("\nOpening a long session\n")
print("| messages / trace nodes | loader alone | window: usable after | GUI thread's longest busy stretch | window RSS |")
print("| --- | --- | --- | --- | --- |")
for turns in (250, 2500):
    loaded, window = load(f"load-{turns}.json"), load(f"window-{turns}.json")
    label = f"{window['messages']:,} / {window['trace_nodes']:,}" if window else f"{turns * 4:,} / {turns * 12:,}"
    load_ms = loaded.get("loadMsMedian") if loaded else None
    if not window:
        print(f"| {label} | {ms(load_ms, 0)} | n/a | n/a | n/a |")
        continue
    print(f"| {label} | {ms(load_ms, 0)} | {ms(window['usable_ms'], 0)} | "
          f"{ms(window['longest_stall_cpu_ms'], 0)} | {mb(window['rss_settled_mb'])} |")

print("\nStream parsers fed one byte at a time (one long line, then 20,000 short events)\n")
print("| format | long line | time | per MB |")
print("| --- | --- | --- | --- |")
try:
    with open(os.path.join(work, "parsers.jsonl")) as f:
        rows = [json.loads(line) for line in f if line.startswith("{")]
except (OSError, ValueError):
    rows = []
for r in rows:
    if "lineMB" in r:
        print(f"| {r['format']} | {r['lineMB']} MB | {ms(r['ms'], 0)} | {ms(r['msPerMB'], 0)} |")
    else:
        print(f"| {r['format']} | slowest / fastest per MB | {r['slowestOverFastestPerMB']:.2f} (1 = linear) | |")
EOF

for log in loop aisdk gui; do
    said=$(grep -v -e propagateSizeHints -e XDG_RUNTIME_DIR "$work/$log.log" 2>/dev/null | sort -u | head -n 5)
    if [ -n "$said" ]; then
        printf '\nThe %s benchmarks said (first lines):\n%s\n' "$log" "$said"
    fi
done
