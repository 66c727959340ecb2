#!/usr/bin/env bash
# The packaging check: builds the release configuration, makes the .deb and
# the .rpm, lints them, installs the .deb on this machine, checks that the
# installed Loopscope works as a user gets it, then purges it and checks that
# nothing of it is left. Run by .ci/run; by hand (as root, on Debian 12):
#
#   packaging/linux/check-packages.sh
#
# It really installs and removes the package, so run it on a CI machine or a
# throw-away container. Safe to re-run: a previous install is purged first.
# Set CMAKE_CXX_COMPILER_LAUNCHER=ccache in the environment to reuse a cache.
# Debian packages it needs are in .ci/debian-packages.
set -euo pipefail
cd "$(dirname "$0")/../.."
export DEBIAN_FRONTEND=noninteractive
source_dir=$PWD
build_dir=$source_dir/build/release
app_id=io.github.loopscope.Loopscope
mime_type=application/x-loopscope-session

step() { printf '\n== check-packages: %s\n' "$*"; }
ok() { printf '   ok: %s\n' "$*"; }
fail() {
    printf '   FAILED: %s\n' "$*" >&2
    exit 1
}

[[ $(id -u) -eq 0 ]] || fail "run as root: the check installs and purges the package"

work=$(mktemp -d /tmp/loopscope-check.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT

# Started programs get a private home, so nothing is written to root's.
isolated() {
    env -i PATH=/usr/bin:/bin HOME="$work/home" LANG=C.UTF-8 \
        XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share" \
        XDG_CACHE_HOME="$work/home/.cache" XDG_RUNTIME_DIR="$work/runtime" "$@"
}
mkdir -p "$work/home" "$work/runtime"
chmod 700 "$work/runtime"

step "a previous install is purged first"
if dpkg-query -W -f='${Status}' loopscope 2>/dev/null | grep -q 'install ok'; then
    apt-get purge -y loopscope >/dev/null
    ok "purged the loopscope package that was installed"
else
    ok "no loopscope package was installed"
fi

version=$(sed -n 's/^project(Loopscope VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
[[ -n $version ]] || fail "no VERSION in the top CMakeLists.txt's project()"

step "the desktop integration files are valid (version $version)"
desktop-file-validate "packaging/linux/$app_id.desktop"
ok "desktop-file-validate $app_id.desktop"
appstreamcli validate --no-net "packaging/linux/$app_id.metainfo.xml"
ok "appstreamcli validate --no-net $app_id.metainfo.xml"
xmllint --noout "packaging/linux/$app_id.xml"
ok "the MIME package is well-formed XML"
metainfo_version=$(xmllint --xpath 'string(//releases/release[1]/@version)' "packaging/linux/$app_id.metainfo.xml")
[[ $metainfo_version == "$version" ]] ||
    fail "the metainfo's newest release is $metainfo_version, project(VERSION) is $version"
ok "the metainfo's newest release is $version"
changelog_version=$(sed -n '1s/^loopscope (\([^)]*\)).*/\1/p' packaging/linux/changelog)
[[ $changelog_version == "$version" ]] ||
    fail "packaging/linux/changelog's newest entry is $changelog_version, project(VERSION) is $version"
ok "packaging/linux/changelog's newest entry is $version"
bash -n packaging/linux/loopscope.bash
ok "the bash completion parses"

step "the recipes for the platforms CI cannot build parse"
python3 - packaging/flatpak/$app_id.yml .github/workflows/release.yml <<'PY'
import sys, yaml
manifest = yaml.safe_load(open(sys.argv[1]))
assert manifest["id"] == "io.github.loopscope.Loopscope", manifest["id"]
assert manifest["runtime"] == "org.kde.Platform" and float(manifest["runtime-version"]) >= 6.4
assert [m["name"] for m in manifest["modules"]][-1] == "loopscope"
jobs = yaml.safe_load(open(sys.argv[2]))["jobs"]
assert {"linux", "windows", "macos"} <= set(jobs), set(jobs)
PY
ok "the Flatpak manifest and the release workflow are valid YAML with what they need"
xmllint --noout packaging/macos/Info.plist.in
python3 -c 'import plistlib, re, sys
plist = plistlib.loads(re.sub(rb"\$\{\w+\}", b"x", open(sys.argv[1], "rb").read()))
assert plist["UTExportedTypeDeclarations"][0]["UTTypeIdentifier"] == "io.github.loopscope.session"' \
    packaging/macos/Info.plist.in
ok "the macOS Info.plist is a property list declaring the session type"

step "the release configuration builds"
start=$(date +%s)
cmake --preset release >/dev/null
cmake --build build/release --parallel "$(nproc)"
ok "built in $(($(date +%s) - start)) s"

step "cpack makes the .deb and the .rpm"
rm -f "$build_dir"/loopscope[_-]*.deb "$build_dir"/loopscope[_-]*.rpm
(cd "$build_dir" && cpack -G "DEB;RPM" >/dev/null)
debs=("$build_dir"/loopscope_*.deb)
rpms=("$build_dir"/loopscope-*.rpm)
[[ ${#debs[@]} -eq 1 && -f ${debs[0]} ]] || fail "expected one .deb in $build_dir"
[[ ${#rpms[@]} -eq 1 && -f ${rpms[0]} ]] || fail "expected one .rpm in $build_dir"
deb=${debs[0]}
rpm=${rpms[0]}
ok "$(basename "$deb"), $(basename "$rpm")"

step "lintian finds no error and no warning in the .deb"
lintian --fail-on error,warning --display-info "$deb"
ok "lintian $(basename "$deb")"

step "the .deb's fields"
dpkg-deb --field "$deb" Package Version Architecture Section Depends Recommends
depends=$(dpkg-deb --field "$deb" Depends)
grep -q 'libqt6widgets6' <<<"$depends" || fail "Depends lacks libqt6widgets6 (dpkg-shlibdeps)"
grep -q 'qt6-qpa-plugins' <<<"$depends" || fail "Depends lacks qt6-qpa-plugins"
grep -q 'libqt6sql6-sqlite' <<<"$depends" || fail "Depends lacks libqt6sql6-sqlite"
grep -q 'libpoppler-qt6-3' <<<"$depends" || fail "Depends lacks libpoppler-qt6-3 (attached PDFs)"
grep -q 'libssl3' <<<"$depends" || fail "Depends lacks libssl3 (OAuth client assertions)"
ok "Depends has the Qt libraries (dpkg-shlibdeps), the platform plugins, the SQLite driver and Poppler"
dpkg-deb --contents "$deb" | awk '{print $NF}' | sed 's|^\./|/|' | grep -v '/$' | sort >"$work/deb-files"
for path in /usr/bin/loopscope "/usr/share/applications/$app_id.desktop" \
    "/usr/share/metainfo/$app_id.metainfo.xml" "/usr/share/mime/packages/$app_id.xml" \
    "/usr/share/icons/hicolor/scalable/apps/$app_id.svg" "/usr/share/icons/hicolor/256x256/apps/$app_id.png" \
    /usr/share/man/man1/loopscope.1.gz /usr/share/bash-completion/completions/loopscope \
    /usr/share/loopscope/examples/example-three-iterations.loopscope.json; do
    grep -qx "$path" "$work/deb-files" || fail "the .deb lacks $path"
done
ok "the .deb holds the executable, desktop entry, metainfo, MIME type, icons, man page, completion, examples"

step "rpm -qp --requires lists the Qt 6 libraries"
rpm -qp --requires "$rpm" >"$work/rpm-requires" 2>/dev/null
grep 'libQt6' "$work/rpm-requires"
for library in libQt6Core.so.6 libQt6Gui.so.6 libQt6Widgets.so.6 libQt6Network.so.6; do
    grep -q "^$library" "$work/rpm-requires" || fail "the .rpm does not require $library"
done
ok "the .rpm requires Qt 6 Core, Gui, Widgets and Network"
rpm -qpl "$rpm" 2>/dev/null >"$work/rpm-files"
grep -qx /usr/bin/loopscope "$work/rpm-files" || fail "the .rpm lacks /usr/bin/loopscope"
! grep -qxE '/usr|/usr/bin|/usr/share|/usr/share/(applications|icons|metainfo|mime|man)' "$work/rpm-files" ||
    fail "the .rpm claims a directory that belongs to the file system"
ok "the .rpm holds /usr/bin/loopscope and claims no system directory"

step "apt-get installs the .deb"
find /usr -xdev | sort >"$work/usr-before"
dpkg-query -W -f='${Package}\n' | sort >"$work/packages-before"
apt-get install -y "$deb" >"$work/apt-install.log" || {
    cat "$work/apt-install.log"
    fail "apt-get install $deb"
}
dpkg-query -W -f='${Package}\n' | sort >"$work/packages-after"
new_packages=$(comm -13 "$work/packages-before" "$work/packages-after" | grep -vx loopscope || true)
ok "installed loopscope $(dpkg-query -W -f='${Version}' loopscope)${new_packages:+, and as dependencies: $(echo $new_packages)}"
find /usr -xdev | sort >"$work/usr-installed"
# Every new path is the package's, a dependency's, or a cache a trigger rebuilt.
cache_paths='/(mimeinfo\.cache|icon-theme\.cache)$|^/usr/share/mime/'
{
    dpkg-query -L loopscope
    for package in $new_packages; do dpkg-query -L "$package"; done
} | sort -u >"$work/listed-files"
unlisted=$(comm -13 "$work/usr-before" "$work/usr-installed" | comm -23 - "$work/listed-files" |
    grep -vE "$cache_paths" || true)
[[ -z $unlisted ]] || fail "installed but not listed by any package: $unlisted"
ok "every file installed under /usr is listed by the package or a dependency"

step "every library ldd resolves for /usr/bin/loopscope comes from the .deb's Depends"
ldd /usr/bin/loopscope >"$work/ldd"
! grep -q 'not found' "$work/ldd" || fail "unresolved libraries: $(grep 'not found' "$work/ldd")"
python3 - "$work/ldd" <<'PY'
# The closure of loopscope's Depends (alternatives and virtual packages
# included) over the installed packages, then dpkg -S for each library.
import re, subprocess, sys

def query(fmt):
    out = subprocess.run(["dpkg-query", "-W", "-f", fmt], capture_output=True, text=True, check=True).stdout
    return [line.split("\t") for line in out.splitlines() if line]

def names(field):
    return {re.sub(r":\w+$", "", alternative.strip().split(" ")[0])
            for relation in field.split(",") if relation.strip()
            for alternative in relation.split("|")}

depends, providers = {}, {}
for package, status, deps, pre, provides in query("${Package}\t${Status}\t${Depends}\t${Pre-Depends}\t${Provides}\n"):
    if not status.endswith(" installed"):
        continue
    depends[package] = names(deps) | names(pre)
    for virtual in names(provides):
        providers.setdefault(virtual, set()).add(package)
    providers.setdefault(package, set()).add(package)

closure, todo = set(), list(depends["loopscope"])
while todo:
    name = todo.pop()
    for package in providers.get(name, set()) - closure:
        closure.add(package)
        todo.extend(depends.get(package, ()))

failures = 0
for line in open(sys.argv[1]):
    match = re.search(r"(/\S+)", line)
    if not match:
        continue  # linux-vdso
    path = match.group(1)
    owners = None
    for candidate in (path, "/usr" + path, path.removeprefix("/usr")):
        result = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True)
        if result.returncode == 0:
            owners = {re.sub(r":\w+$", "", o.strip()) for o in result.stdout.split(":", 1)[0].split(",")}
            break
    if owners is None:
        print(f"   FAILED: {path} belongs to no package"); failures += 1
    elif not owners & closure:
        print(f"   FAILED: {path} is from {', '.join(sorted(owners))}, not in the Depends closure"); failures += 1
    else:
        print(f"   {path}: {', '.join(sorted(owners & closure))}")
print(f"   ({len(closure)} packages in the Depends closure)")
sys.exit(1 if failures else 0)
PY
ok "every library is covered by the .deb's Depends"

step "--version, --help and every command's --help work without a display"
shown=$(isolated /usr/bin/loopscope --version)
[[ $shown == "Loopscope $version" ]] || fail "loopscope --version printed \"$shown\""
ok "loopscope --version: $shown"
isolated /usr/bin/loopscope --help >"$work/help-window" || fail "loopscope --help failed"
grep -q -- '--api-key-env' "$work/help-window" || fail "loopscope --help lists no --api-key-env"
ok "loopscope --help"
# The window's --help names the commands; one added later is checked too.
commands=$(grep -oE 'loopscope [a-z]+' "$work/help-window" | awk '{print $2}' | sort -u)
[[ $(echo $commands) == *run* ]] || fail "loopscope --help names no \"loopscope run\""
for command in $commands; do
    isolated /usr/bin/loopscope "$command" --help >"$work/help-$command" ||
        fail "loopscope $command --help failed"
    ok "loopscope $command --help"
done

step "the man page describes every command and every option its --help lists"
man_page=$(zcat /usr/share/man/man1/loopscope.1.gz)
man_text=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' <<<"$man_page")
for command in $commands; do
    grep -q "^\.SH loopscope $command\$" <<<"$man_page" ||
        fail "loopscope.1 has no section for \"loopscope $command\""
done
for help in "$work"/help-*; do
    for option in $(grep -E '^ +-' "$help" | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
        grep -qF -- "$option" <<<"$man_text" || fail "loopscope.1 does not mention $option ($(basename "$help"))"
    done
done
ok "loopscope.1 covers the window and $(echo $commands), with all their options"

step "loopscope run answers a turn against an OpenAI-compatible server on 127.0.0.1"
python3 packaging/linux/openai-test-server.py "$work/port" 2>"$work/server.log" &
pids+=($!)
for _ in $(seq 50); do [[ -s $work/port ]] && break || sleep 0.1; done
[[ -s $work/port ]] || fail "the test server did not start: $(cat "$work/server.log")"
base_url="http://127.0.0.1:$(cat "$work/port")/v1"
for stream in "" --no-stream; do
    answer=$(isolated LOOPSCOPE_TEST_KEY=test-key /usr/bin/loopscope run --base-url "$base_url" \
        --model test-model --api-key-env LOOPSCOPE_TEST_KEY --tools calculator $stream \
        --trace-out "$work/trace.json" "What is 17% of 2340?") || fail "loopscope run $stream exited with $?"
    [[ $answer == *"397.8"* ]] || fail "loopscope run $stream answered \"$answer\""
    grep -q '"calculator"' "$work/trace.json" || fail "the trace has no calculator call"
    ok "loopscope run ${stream:-(streamed)}: \"$answer\", via the calculator tool"
done

step "the installed example sessions replay"
for example in /usr/share/loopscope/examples/*.loopscope.json; do
    isolated /usr/bin/loopscope replay "$example" >/dev/null || fail "loopscope replay $example"
    ok "loopscope replay $(basename "$example")"
done

step "xdg-mime maps a session file to $mime_type, opened with Loopscope"
cp /usr/share/loopscope/examples/example-error-recovery.loopscope.json "$work/notes.loopscope.json"
filetype=$(isolated xdg-mime query filetype "$work/notes.loopscope.json")
[[ $filetype == "$mime_type" ]] || fail "xdg-mime query filetype: $filetype"
ok "xdg-mime query filetype: $filetype"
default=$(isolated xdg-mime query default "$mime_type")
[[ $default == "$app_id.desktop" ]] || fail "xdg-mime query default $mime_type: \"$default\""
ok "xdg-mime query default $mime_type: $default"

step "the installed window starts and opens an installed example session"
example=/usr/share/loopscope/examples/example-three-iterations.loopscope.json
title=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["title"])' "$example")
# Xvfb picks a display number no other X server uses and writes it to the file.
# -noreset: by default the server resets when its last client leaves, and the
# window connecting just after xdpyinfo left was refused ("could not connect").
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -noreset 3>"$work/display" >"$work/xvfb.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [[ -s $work/display ]] && break || sleep 0.1; done
display=:$(cat "$work/display")
for _ in $(seq 50); do isolated DISPLAY="$display" xdpyinfo >/dev/null 2>&1 && break || sleep 0.1; done
isolated DISPLAY="$display" xdpyinfo >/dev/null 2>&1 || fail "Xvfb did not start: $(cat "$work/xvfb.log")"
# No icon theme to fall back on: the window icon must be the one built in.
mkdir -p "$work/no-data-dirs"
isolated DISPLAY="$display" XDG_DATA_DIRS="$work/no-data-dirs" /usr/bin/loopscope "$example" \
    >"$work/window.log" 2>&1 &
pids+=($!)
window=""
for _ in $(seq 100); do
    window=$(isolated DISPLAY="$display" xwininfo -root -tree | grep -F "$title" | head -n 1 || true)
    [[ -n $window ]] && break
    sleep 0.1
done
[[ -n $window ]] || fail "no window titled \"$title\" appeared; the app said: $(cat "$work/window.log")"
ok "window:$(sed 's/ *[0-9]* children.*//; s/: ("loopscope".*//' <<<"$window")"
window_id=$(awk '{print $1}' <<<"$window")
# The title and the icon are two properties the window sets one after the other.
# xprop's output is read whole before it is searched: with pipefail, grep -q
# leaving early would end xprop with SIGPIPE and fail a window that has the icon.
has_icon() {
    local icons
    icons=$(isolated DISPLAY="$display" xprop -id "$window_id" _NET_WM_ICON 2>&1) || return 1
    grep -aqF 'Icon (128 x 128)' <<<"$icons"
}
for _ in $(seq 50); do has_icon && break || sleep 0.1; done
has_icon || fail "the window has no icon (no 128x128 _NET_WM_ICON): $(isolated DISPLAY="$display" \
    xprop -id "$window_id" WM_NAME WM_CLASS _NET_WM_ICON 2>&1 | cut -c1-200)"
ok "the window has its built-in icon (_NET_WM_ICON, 16 to 128 px)"
for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
pids=()

step "apt-get purge removes it, and nothing of it is left under /usr"
dpkg-query -L loopscope | sort >"$work/installed-files"
apt-get purge -y loopscope >/dev/null
find /usr -xdev | sort >"$work/usr-after"
# Files that were not there before and still are: only files of packages
# apt installed as dependencies, or caches the dpkg triggers rebuilt.
comm -13 "$work/usr-before" "$work/usr-after" >"$work/usr-new"
: >"$work/dependency-files"
for package in $new_packages; do dpkg-query -L "$package" >>"$work/dependency-files" 2>/dev/null || true; done
leftovers=$(grep -vxF -f <(sort -u "$work/dependency-files") "$work/usr-new" |
    grep -vE "$cache_paths" || true)
[[ -z $leftovers ]] || fail "left behind under /usr: $leftovers"
if grep -i loopscope "$work/usr-after"; then fail "a path named loopscope is left under /usr"; fi
if grep -rl "$mime_type\|$app_id" /usr/share/applications/mimeinfo.cache /usr/share/mime/ 2>/dev/null; then
    fail "the MIME or desktop caches still name Loopscope"
fi
while read -r path; do
    [[ ! -e $path || -d $path ]] || fail "$path is still there"
done <"$work/installed-files"
ok "no file of the package, no cache entry naming it, nothing new under /usr but dependencies"
printf '\ncheck-packages: every check passed\n'
