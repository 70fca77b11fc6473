#!/usr/bin/env bash
# Test of the endpoint report of scripts/synth.sh against nextpnr's own
# timing analysis: one block (default tree_bcast_rule) synthesized, placed
# and routed by synth.sh on seed 1; the worst arrival its report gives must
# be nextpnr's critical path (1000 / Fmax, to 0.02 ns), and exactly the
# endpoints beyond a period must be reported as failing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
block="${1:-tree_bcast_rule}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
SYNTH_OUT="$work" bash "$root/scripts/synth.sh" --seeds 1 "$block" >/dev/null
fmax=$(grep 'Max frequency for clock' "$work/$block.seed1.nextpnr.log" | tail -1 | sed -E 's/.*: ([0-9.]+) MHz.*/\1/')
worst=$(sed -nE 's/^worst arrival ([0-9.]+) ns.*/\1/p' "$work/$block.seed1.endpoints.txt")
[ -n "$fmax" ] && [ -n "$worst" ] ||
  { echo "FAIL: no Fmax in the nextpnr log or no worst arrival in $block.seed1.endpoints.txt:" >&2
    cat "$work/$block.seed1.endpoints.txt" >&2; exit 1; }
echo "$block: nextpnr $fmax MHz ($(awk -v f="$fmax" 'BEGIN {printf "%.3f", 1000 / f}') ns), report $worst ns"
awk -v f="$fmax" -v w="$worst" 'BEGIN {d = 1000 / f - w; if (d < -0.02 || d > 0.02) exit 1}' ||
  { echo "FAIL: worst arrival $worst ns is not nextpnr's critical path ($fmax MHz)" >&2; exit 1; }
count_over() {  # count_over PERIOD: endpoints the report gives as failing
  python3 "$root/scripts/timing_endpoints.py" "$work/$block.seed1.delays.json" --period "$1" |
    sed -nE 's/.*; ([0-9]+) of .*/\1/p'
}
below=$(awk -v w="$worst" 'BEGIN {printf "%.3f", w - 0.01}')
above=$(awk -v w="$worst" 'BEGIN {printf "%.3f", w + 0.01}')
n_below=$(count_over "$below")
n_above=$(count_over "$above")
[ "$n_below" -ge 1 ] && [ "$n_above" -eq 0 ] ||
  { echo "FAIL: $n_below endpoints over $below ns (expected 1 or more), $n_above over $above ns (expected 0)" >&2; exit 1; }
echo "PASS: $n_below endpoint(s) over $below ns, none over $above ns"
