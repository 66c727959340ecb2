#!/usr/bin/env bash
# Every test function a test's source declares must be one its executable runs.
# moc can lose a test class part-way (moc 6.4 reads a // inside a raw string that
# spans lines as a comment): the functions after that point then never run, and
# ctest still says Passed. This compares each source's private slots with what the
# executable lists (-functions).
#
# Usage: check-test-functions.sh LIST
#   LIST: lines "name<TAB>executable<TAB>source[|source...]", as tests/CMakeLists.txt writes them.
set -uo pipefail

list=${1:?usage: check-test-functions.sh LIST}
failed=0
checked=0

# The test functions a source declares: "void name()" at member indentation inside a
# "private slots:" section, leaving out _data rows and the init/cleanup hooks.
declared_functions() {
    awk '
        /^(private|public|protected) (slots|Q_SLOTS):/ { inside = 1; next }
        /^(private|public|protected):/ || /^(signals|Q_SIGNALS):/ || /^};/ { inside = 0 }
        inside && match($0, /^    void [A-Za-z_][A-Za-z0-9_]*\(\)/) {
            name = substr($0, 10, RLENGTH - 11)
            if (name !~ /_data$/ && name !~ /^(init|cleanup|initTestCase|cleanupTestCase)$/)
                print name
        }' "$@" | sort -u
}

while IFS=$'\t' read -r name executable sources; do
    [[ -n $name ]] || continue
    IFS='|' read -r -a files <<<"$sources"
    declared=$(declared_functions "${files[@]}")
    [[ -n $declared ]] || continue
    if ! listed=$(QT_QPA_PLATFORM=offscreen "$executable" -functions 2>/dev/null); then
        echo "FAIL: $name: $executable -functions did not run"
        failed=1
        continue
    fi
    listed=$(sed -n 's/()$//p' <<<"$listed" | sort -u)
    missing=$(comm -23 <(echo "$declared") <(echo "$listed"))
    if [[ -n $missing ]]; then
        echo "FAIL: $name declares test functions its executable never runs (moc lost them):"
        sed 's/^/    /' <<<"$missing"
        failed=1
    fi
    checked=$((checked + 1))
done <"$list"

echo "checked $checked test executables"
exit $failed
