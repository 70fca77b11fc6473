#!/usr/bin/env bash
# Synthesis of every RTL block (or of the blocks named as arguments):
#   iCE40:   yosys synth_ice40, then nextpnr-ice40 --hx8k (ct256) for Fmax
#            (the block inside the register ring of scripts/synth_wrapper.py,
#            so Fmax is the block's own register-to-register figure), placed
#            and routed with seeds 1..N (--seeds N, default 5, one after the
#            other): Fmax is the median, with the lowest and highest beside it;
#   Xilinx 7-series: yosys synth_xilinx -family xc7 -abc9 -flatten (LUTs, FFs, BRAM;
#            no open-source timing for 7-series, so no Fmax).
# LUT and FF counts are those of the bare block (no ring). Prints one table;
# `--markdown` prints it as a Markdown table (docs/synthesis.md). A block
# named BLOCK:PARAM=VALUE is synthesized with that parameter (chparam); the
# programmable engine is synthesized with Depth=256 besides its default
# 4096-descriptor memory, which exceeds an HX8K's block RAM.
# Work files go to $SYNTH_OUT (default build-synth/ in the repository); the
# critical path of every seed is in $SYNTH_OUT/<work>.seed<S>.nextpnr.log,
# and every endpoint that misses 100 MHz, grouped by start and end register
# (scripts/timing_endpoints.py), in $SYNTH_OUT/<work>.seed<S>.endpoints.txt.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${SYNTH_OUT:-$root/build-synth}"
markdown=0
seeds=5
blocks=()
while [ $# -gt 0 ]; do
  case "$1" in
    --markdown) markdown=1 ;;
    --seeds)
      [ $# -ge 2 ] || { echo "synth.sh: --seeds needs a value (a number of seeds, 1 to 99)" >&2; exit 2; }
      seeds="$2"; shift
      [[ "$seeds" =~ ^[1-9][0-9]?$ ]] ||
        { echo "synth.sh: --seeds '$seeds': accepted values are 1 to 99" >&2; exit 2; } ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    -*) echo "synth.sh: unknown option '$1' (accepted: --markdown, --seeds N, -h)" >&2; exit 2 ;;
    *) blocks+=("$1") ;;
  esac
  shift
done
# Every block is read with the packages (the descriptor's first, then the
# engines' register packages rendered from hls/engine_registers.yaml) and the
# shared modules (rtl/common/); `include files are found in rtl/.
mkdir -p "$out"
source "$root/scripts/rtl_sources.sh"
rtl_support "$root/rtl" "$out/generated"
package="-I$root/rtl ${support[*]}"
if [ ${#blocks[@]} -eq 0 ]; then
  for f in "$root"/rtl/*.sv; do
    case "$f" in *_pkg.sv) ;; *) blocks+=("$(basename "$f" .sv)") ;; esac
  done
  blocks+=("schedule_engine_programmable:Depth=256")
fi
mkdir -p "$out"

count() {  # count CELL_REGEX STAT_FILE: sum of the cell counts matching the regex
  awk -v re="^($1)\$" '$1 ~ re && $2 ~ /^[0-9]+$/ {n += $2} END {print n + 0}' "$2"
}

rows=()
for spec in "${blocks[@]}"; do
  block="${spec%%:*}"
  chparam="" label="$block" work="$block"
  if [ "$spec" != "$block" ]; then
    param="${spec#*:}"
    case "$param" in
      [A-Za-z]*=[0-9]*) ;;
      *) echo "synth.sh: '$spec': expected BLOCK:PARAM=VALUE (a number)" >&2; exit 2 ;;
    esac
    chparam="chparam -set ${param%%=*} ${param#*=} $block;"
    label="$block ($param)"
    work="${block}_${param%%=*}${param#*=}"
  fi
  src="$root/rtl/$block.sv"
  [ -f "$src" ] || { echo "synth.sh: no rtl/$block.sv" >&2; exit 2; }

  # iCE40: bare block for the resource counts
  yosys -q -l "$out/$work.ice40.log" -p "read_verilog -sv $package $src; $chparam synth_ice40 -top $block;
    tee -q -o $out/$work.ice40.stat stat" >/dev/null
  luts=$(count 'SB_LUT4' "$out/$work.ice40.stat")
  ffs=$(count 'SB_DFF[A-Z]*' "$out/$work.ice40.stat")
  ram=$(count 'SB_RAM40_4K' "$out/$work.ice40.stat")

  # iCE40 Fmax: block in a register ring, placed and routed
  yosys -q -p "read_verilog -sv $package $src; $chparam hierarchy -top $block; proc; write_json $out/$work.ports.json" \
    >/dev/null
  python3 "$root/scripts/synth_wrapper.py" "$out/$work.ports.json" "$block" >"$out/${work}_ring.v"
  yosys -q -l "$out/$work.ring.log" -p "read_verilog -sv $package $src $out/${work}_ring.v; $chparam
    synth_ice40 -top synth_wrapper -json $out/$work.ring.json" >/dev/null
  # nextpnr's router can loop on some netlists: bound it (PNR_TIMEOUT seconds)
  fmaxes=()
  failed=0
  for seed in $(seq 1 "$seeds"); do
    log="$out/$work.seed$seed.nextpnr.log"
    if COLLNET_ROUTE_DELAYS="$out/$work.seed$seed.delays.json" timeout "${PNR_TIMEOUT:-900}" nextpnr-ice40 --hx8k \
        --package ct256 --seed "$seed" --freq 100 --timing-allow-fail --pcf-allow-unconstrained \
        --json "$out/$work.ring.json" --asc "$out/$work.ring.asc" -l "$log" \
        --post-route "$root/scripts/nextpnr_route_delays.py" >/dev/null 2>&1; then
      fmaxes+=("$(grep 'Max frequency for clock' "$log" | tail -1 | sed -E 's/.*: ([0-9.]+) MHz.*/\1/')")
      # every endpoint over 10 ns (100 MHz), grouped by start and end register
      python3 "$root/scripts/timing_endpoints.py" "$out/$work.seed$seed.delays.json" --rtl "$src" --paths \
        >"$out/$work.seed$seed.endpoints.txt" 2>&1 || true
    else
      failed=$((failed + 1))
    fi
  done
  if [ ${#fmaxes[@]} -eq 0 ]; then
    fmax="pnr failed"; range="-"
  else
    # median over every seed (a failed seed counts as 0 MHz), lowest and highest routed
    mapfile -t sorted < <(printf '%s\n' "${fmaxes[@]}" $(for _ in $(seq 1 $failed); do echo 0; done) | sort -g)
    n=${#sorted[@]}
    if [ $((n % 2)) -eq 1 ]; then
      fmax="${sorted[$((n / 2))]}"
    else
      fmax=$(awk -v a="${sorted[$((n / 2 - 1))]}" -v b="${sorted[$((n / 2))]}" 'BEGIN {printf "%.2f", (a + b) / 2}')
    fi
    fmax="$fmax MHz"
    mapfile -t routed < <(printf '%s\n' "${fmaxes[@]}" | sort -g)
    range="${routed[0]}-${routed[$((${#routed[@]} - 1))]}"
    [ $failed -eq 0 ] || range="$range, $failed of $seeds failed"
  fi
  rows+=("$label|iCE40 HX8K|$luts|$ffs|$ram SB_RAM40_4K|$fmax|$range")

  # Xilinx 7-series
  # (Yosys 0.23 aborts in synth_xilinx -abc9 on some netlists: the row says so)
  if yosys -q -l "$out/$work.xc7.log" -p "read_verilog -sv $package $src; $chparam synth_xilinx -family xc7 -abc9 -flatten -top $block;
      tee -q -o $out/$work.xc7.stat stat" >/dev/null 2>&1; then
    luts=$(count 'LUT[1-6]' "$out/$work.xc7.stat")
    lutram=$(count 'RAM[0-9]+X[0-9A-Z]+|RAM[0-9]+M|SRL16E|SRLC32E' "$out/$work.xc7.stat")
    ffs=$(count 'FD[CPRS]E' "$out/$work.xc7.stat")
    bram18=$(count 'RAMB18E1' "$out/$work.xc7.stat")
    bram36=$(count 'RAMB36E1' "$out/$work.xc7.stat")
    rows+=("$label|Xilinx 7-series|$luts|$ffs|$((bram18 + 2 * bram36)) BRAM18, $lutram LUTRAM|-|-")
  else
    rows+=("$label|Xilinx 7-series|-|-|yosys failed ($work.xc7.log)|-|-")
  fi
done

if [ $markdown -eq 1 ]; then
  echo "| block | target | LUTs | FFs | RAM | Fmax (median of $seeds seeds) | seeds' range (MHz) |"
  echo "|---|---|---:|---:|---|---:|---:|"
  for r in "${rows[@]}"; do echo "| ${r//|/ | } |"; done
else
  printf '%-26s %-16s %6s %6s %-24s %-12s %s\n' block target LUTs FFs RAM "Fmax(median)" "range(MHz)"
  for r in "${rows[@]}"; do
    IFS='|' read -r b t l f m x g <<<"$r"
    printf '%-26s %-16s %6s %6s %-24s %-12s %s\n' "$b" "$t" "$l" "$f" "$m" "$x" "$g"
  done
fi
