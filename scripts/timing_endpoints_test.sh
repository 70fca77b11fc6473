#!/usr/bin/env bash
# Test of scripts/timing_endpoints.py against nextpnr's own timing analysis:
# one block (default tree_bcast_rule) in the register ring of synth.sh,
# placed and routed with the route-delay hook; the worst arrival the script
# computes must be nextpnr's critical path (1000 / Fmax, to 0.02 ns), and
# exactly the endpoints beyond a period must be reported as failing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
block="${1:-tree_bcast_rule}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
source "$root/scripts/rtl_sources.sh"
rtl_support "$root/rtl" "$work/generated"
package="-I$root/rtl ${support[*]}"
src="$root/rtl/$block.sv"
yosys -q -p "read_verilog -sv $package $src; hierarchy -top $block; proc; write_json $work/ports.json" >/dev/null
python3 "$root/scripts/synth_wrapper.py" "$work/ports.json" "$block" >"$work/ring.v"
yosys -q -p "read_verilog -sv $package $src $work/ring.v; synth_ice40 -top synth_wrapper -json $work/ring.json" >/dev/null
COLLNET_ROUTE_DELAYS="$work/delays.json" nextpnr-ice40 --hx8k --package ct256 --seed 1 --freq 100 --timing-allow-fail \
  --pcf-allow-unconstrained --json "$work/ring.json" -l "$work/pnr.log" \
  --post-route "$root/scripts/nextpnr_route_delays.py" >/dev/null 2>&1
fmax=$(grep 'Max frequency for clock' "$work/pnr.log" | tail -1 | sed -E 's/.*: ([0-9.]+) MHz.*/\1/')
report=$(python3 "$root/scripts/timing_endpoints.py" "$work/delays.json" --rtl "$src")
worst=$(sed -nE 's/^worst arrival ([0-9.]+) ns.*/\1/p' <<<"$report")
echo "$block: nextpnr $fmax MHz ($(awk -v f="$fmax" 'BEGIN {printf "%.3f", 1000 / f}') ns), script $worst ns"
awk -v f="$fmax" -v w="$worst" 'BEGIN {d = 1000 / f - w; if (d < -0.02 || d > 0.02) exit 1}' ||
  { echo "FAIL: worst arrival $worst ns is not nextpnr's critical path ($fmax MHz)" >&2; exit 1; }
below=$(awk -v w="$worst" 'BEGIN {printf "%.3f", w - 0.01}')
above=$(awk -v w="$worst" 'BEGIN {printf "%.3f", w + 0.01}')
n_below=$(python3 "$root/scripts/timing_endpoints.py" "$work/delays.json" --period "$below" | sed -nE 's/.*; ([0-9]+) of .*/\1/p')
n_above=$(python3 "$root/scripts/timing_endpoints.py" "$work/delays.json" --period "$above" | sed -nE 's/.*; ([0-9]+) of .*/\1/p')
[ "$n_below" -ge 1 ] && [ "$n_above" -eq 0 ] ||
  { echo "FAIL: $n_below endpoints over $below ns (expected 1 or more), $n_above over $above ns (expected 0)" >&2; exit 1; }
echo "PASS: $n_below endpoint(s) over $below ns, none over $above ns"
