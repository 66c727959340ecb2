#!/bin/sh
# How the cost of one response's tool calls grows with their number. `loopscope run` plays
# loopscope-bench-server's calc-1-N model: one response asking for N different calculator calls,
# then the answer. For each N it prints the whole process's CPU time (user + sys), the CPU per call
# and the peak memory; last, the ratio of the largest to the smallest CPU per call (about 1 when the
# cost is linear in N; a quadratic step doubles it with each doubling of N). It builds nothing:
#
#   cmake --preset release -DLOOPSCOPE_BENCHMARKS=ON -DBUILD_TESTING=ON
#   cmake --build build/release --target loopscope loopscope-bench-server
#   tests/bench/toolcalls-bench.sh [build/release] [N ...]     (default N: 1000 2000 4000 8000 16000)
set -eu

build=${1:-build/release}
[ $# -gt 0 ] && shift
sizes=${*:-1000 2000 4000 8000 16000}
app="$build/app/loopscope"
server_bin="$build/tests/bench/loopscope-bench-server"
for tool in "$app" "$server_bin"; do
    if [ ! -x "$tool" ]; then
        echo "toolcalls-bench.sh: $tool is missing; build it first (see the top of this script)" >&2
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

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$server_bin" --port "$port" >"$work/server.log" 2>&1 &
server=$!
python3 - "$port" <<'PY'
import socket, sys, time
for _ in range(100):
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.2).close()
        break
    except OSError:
        time.sleep(0.05)
PY

echo "| calls in one response | CPU (user + sys) | CPU per call | peak RSS |"
echo "| --- | --- | --- | --- |"
smallest=
largest=
for n in $sizes; do
    # --max-tool-calls lifts the cap on one response's calls, where this build has one.
    cap=
    if "$app" run --help 2>/dev/null | grep -q -- --max-tool-calls; then cap="--max-tool-calls $n"; fi
    # shellcheck disable=SC2086 # $cap is two words or none
    if ! OPENAI_API_KEY=sk-bench /usr/bin/time -f '%U %S %M' -o "$work/time" "$app" run --no-stream \
        --base-url "http://127.0.0.1:$port/v1" --model "calc-1-$n" --tools calculator $cap \
        "Add them up." >"$work/out" 2>"$work/err"; then
        echo "toolcalls-bench.sh: the run with $n calls failed:" >&2
        tail -n 5 "$work/err" >&2
        exit 1
    fi
    read -r user sys rss <"$work/time"
    line=$(python3 -c "
u, s, n, rss = float('$user'), float('$sys'), int('$n'), int('$rss')
cpu = u + s
print(f'{cpu:.2f} {cpu / n * 1000:.3f} {rss / 1024:.0f}')")
    set -- $line
    echo "| $n | $1 s | $2 ms | $3 MB |"
    [ -z "$smallest" ] && smallest=$2
    largest=$2
done
python3 -c "print(f'\nCPU per call, largest N over smallest N: {float(\"$largest\") / float(\"$smallest\"):.2f} (1 = linear)')"
