#!/bin/sh
# Runs a test against a real Secret Service: a private session bus with
# gnome-keyring unlocked in a throw-away home, so no user keyring is touched.
set -eu
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export HOME="$home" XDG_DATA_HOME="$home/data" XDG_RUNTIME_DIR="$home/run"
mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
dbus-run-session -- sh -c 'printf loopscope | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec "$@"' sh "$@"
