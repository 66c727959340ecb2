#!/bin/sh
# The knowledge benchmarks of issue 26, each measurement 3 times (min / median printed: the machine may
# be shared). Needs python3 (its sqlite3 module is the baseline) and /usr/bin/time.
#
#   cmake --preset release -DBUILD_TESTING=ON -DLOOPSCOPE_BENCHMARKS=ON
#   cmake --build build/release --target loopscope loopscope-knowledge-bench
#   tests/bench/knowledge-bench.sh build/release [WORKDIR [STAGES]]
#
# STAGES: any of index, search, embed (default: all three, comma-separated). LOOPSCOPE=path measures
# another loopscope executable (e.g. main's, for a before/after).
#
# 1. Lexical indexing of 2,000 generated Markdown files (~20 MB) as whole processes: `loopscope knowledge
#    add` (which indexes at once) against fts5baseline.py reading the same files into FTS5, CPU time
#    (user + system) of each, in the same run, and their ratio (goal: within 2x).
# 2. Re-indexing the unchanged corpus, `loopscope knowledge index`, whole process (goal: <= 1 s).
# 3. Search latency and peak RSS at 10k and 100k passages of 768 dimensions (loopscope-knowledge-bench).
# 4. Embeddings requests per 1,000 passages, each wire format (loopscope-knowledge-bench --embed).
set -eu
build=$(cd "${1:?build directory}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=${2:-$(mktemp -d /tmp/knowledge-bench.XXXXXX)}
stages=${3:-index,search,embed}
loopscope=${LOOPSCOPE:-$build/app/loopscope}
bench="$build/tests/bench/loopscope-knowledge-bench"
mkdir -p "$work"
export XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache"
export QT_QPA_PLATFORM=offscreen

# "elapsed user system maxrss_kb" of a command, its output to $work/last.log.
measure() {
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" >"$work/last.log" 2>&1 || {
        cat "$work/last.log"
        exit 1
    }
    cat "$work/time"
}
# min / median of three numbers on stdin, one a line.
stats() { sort -g | awk '{ v[NR] = $1 } END { printf "min %.2f, median %.2f", v[1], v[2] }'; }

corpus="$work/corpus"
[ -d "$corpus" ] || python3 "$here/knowledgecorpus.py" "$corpus" 2000
echo "corpus: $(find "$corpus" -type f | wc -l) files, $(cat $(find "$corpus" -type f) | wc -c) bytes"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

if echo "$stages" | grep -q index; then
: >"$work/ours"; : >"$work/python"; : >"$work/ratio"; : >"$work/reindex"
for run in 1 2 3; do
    "$loopscope" knowledge remove bench >/dev/null 2>&1 || true
    set -- $(measure "$loopscope" knowledge add bench "$corpus")
    ours=$(echo "$2 + $3" | bc)
    echo "$ours" >>"$work/ours"
    chunks=$("$loopscope" knowledge list 2>/dev/null | grep -o 'passages [0-9]*' | head -1 || true)
    rm -f "$work/python.sqlite"*
    set -- $(measure python3 "$here/fts5baseline.py" "$work/python.sqlite" "$corpus")
    python=$(echo "$2 + $3" | bc)
    echo "$python" >>"$work/python"
    pythonchunks=$(tail -1 "$work/last.log")
    echo "scale=3; $ours / $python" | bc >>"$work/ratio"
    set -- $(measure "$loopscope" knowledge index bench)
    echo "$1" >>"$work/reindex"
    echo "run $run: loopscope add ${ours} s CPU ($chunks), python sqlite3 ${python} s CPU ($pythonchunks)," \
        "re-index $1 s wall ($2 s user, $3 s system, $4 KB peak)"
done
echo "1. lexical indexing, CPU s: loopscope $(stats <"$work/ours"); python $(stats <"$work/python"); ratio $(stats <"$work/ratio") (goal <= 2)"
echo "2. re-index unchanged, wall s: $(stats <"$work/reindex") (goal <= 1)"
fi

if echo "$stages" | grep -q search; then
for chunks in 10000 100000; do
    [ -f "$work/index$chunks/bench.sqlite" ] || "$bench" --build "$work/index$chunks" --chunks "$chunks"
    for run in 1 2 3; do
        echo "3. search, $chunks passages, run $run:"
        "$bench" --search "$work/index$chunks" --queries 20
    done
done
fi
if echo "$stages" | grep -q embed; then
    echo "4. embeddings requests:"
    "$bench" --embed --chunks 1000
fi
