#!/usr/bin/env bash
# Fuzzes the session loader with libFuzzer for N seconds (default 60):
#   tests/fuzz/run-fuzzer.sh [seconds]
# It configures its own build directory (clang, ASan + UBSan; BUILD_DIR, default
# build-fuzz), builds only the fuzzer and runs it over a copy of tests/fuzz/corpus,
# so the committed seeds stay as they are. A finding stops the run, leaves
# crash-*/leak-*/timeout-* in the build directory and fails the script.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-60}"
build="${BUILD_DIR:-build-fuzz}"

CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLOOPSCOPE_FUZZ=ON
cmake --build "$build" --target loopscope-transcript-fuzzer

corpus="$build/fuzz-corpus"
rm -rf "$corpus"
mkdir -p "$corpus"
cp tests/fuzz/corpus/* "$corpus/"
"$build/tests/fuzz/loopscope-transcript-fuzzer" "$corpus" \
    -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$build/" -print_final_stats=1
