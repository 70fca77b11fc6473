#!/usr/bin/env bash
# Renders docs/waveform.png: what GTKWave shows when it opens the waveform of
# an all-to-all by hop groups on a 4x4 torus (collnet run --vcd), in a
# virtual X server. Needs gtkwave, xvfb, xauth and imagemagick
# (scripts/setup.sh).
#   scripts/waveform_screenshot.sh [BUILD_DIR] [OUT.png]
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
out="${2:-$root/docs/waveform.png}"
for tool in gtkwave xvfb-run import; do
  command -v "$tool" > /dev/null || { echo "waveform_screenshot: $tool not installed (scripts/setup.sh)" >&2; exit 2; }
done
[ -x "$build/collnet" ] || { echo "waveform_screenshot: no $build/collnet (build it first)" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$build/collnet" run --set algorithm=a2a-hopgroup --set topology=torus:4x4 --set compare= \
  --vcd "$work/hop.vcd" > /dev/null

# GTKWave in the background, a screenshot of the whole virtual screen once
# it has drawn, then GTKWave is stopped.
cat > "$work/shot.sh" <<'SHOT'
gtkwave "$1/hop.vcd" "$1/hop.vcd.gtkw" > "$1/gtkwave.log" 2>&1 &
pid=$!
sleep 4
import -window root -crop 1400x900+0+0 +repage "$2"
kill "$pid"
wait "$pid" 2> /dev/null || true
SHOT
timeout 120 xvfb-run -a -s "-screen 0 1400x900x24" bash "$work/shot.sh" "$work" "$out"
echo "waveform_screenshot: wrote $out"
