#!/usr/bin/env bash
# Renders the application icon from its SVG source into every file the
# platforms want, and is run by hand after the SVG changes; the results are
# committed. Committing them keeps the build free of an SVG renderer (and the
# app free of Qt's SVG plugin: the window icon is loaded from these PNGs), and
# lets the Windows and macOS builds use them as they are.
#
# Needs (Debian): librsvg2-bin (rsvg-convert), imagemagick (convert),
# icnsutils (png2icns).
set -euo pipefail
cd "$(dirname "$0")/.."

id=io.github.loopscope.Loopscope
svg=resources/icons/$id.svg
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "render-icons: hicolor PNGs from $svg"
for size in 16 22 24 32 48 64 128 256; do
    dir=resources/icons/hicolor/${size}x${size}/apps
    mkdir -p "$dir"
    rsvg-convert --width "$size" --height "$size" "$svg" --output "$dir/$id.png"
    echo "  $dir/$id.png"
done

echo "render-icons: packaging/windows/loopscope.ico (16-256)"
convert resources/icons/hicolor/{16x16,24x24,32x32,48x48,64x64,256x256}/apps/$id.png \
    packaging/windows/loopscope.ico

echo "render-icons: packaging/macos/loopscope.icns (16-512)"
rsvg-convert --width 512 --height 512 "$svg" --output "$work/512.png"
png2icns packaging/macos/loopscope.icns \
    resources/icons/hicolor/{16x16,32x32,128x128,256x256}/apps/$id.png "$work/512.png" >/dev/null
