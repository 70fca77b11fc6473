#!/usr/bin/env bash
# Synthesis of every RTL block (or of the blocks named as arguments):
#   iCE40:   yosys synth_ice40, then nextpnr-ice40 --hx8k (ct256) for Fmax
#            (the block inside the register ring of scripts/synth_wrapper.py,
#            so Fmax is the block's own register-to-register figure);
#   Xilinx 7-series: yosys synth_xilinx -family xc7 -abc9 -flatten (LUTs, FFs, BRAM;
#            no open-source timing for 7-series, so no Fmax).
# LUT and FF counts are those of the bare block (no ring). Prints one table;
# `--markdown` prints it as a Markdown table (docs/synthesis.md). A block
# named BLOCK:PARAM=VALUE is synthesized with that parameter (chparam); the
# programmable engine is synthesized with Depth=256 besides its default
# 4096-descriptor memory, which exceeds an HX8K's block RAM.
# Work files go to $SYNTH_OUT (default build-synth/ in the repository).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${SYNTH_OUT:-$root/build-synth}"
markdown=0
blocks=()
for arg in "$@"; do
  case "$arg" in
    --markdown) markdown=1 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) blocks+=("$arg") ;;
  esac
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
  if timeout "${PNR_TIMEOUT:-900}" nextpnr-ice40 --hx8k --package ct256 --seed 1 --freq 100 --timing-allow-fail --pcf-allow-unconstrained \
      --json "$out/$work.ring.json" --asc "$out/$work.ring.asc" -l "$out/$work.nextpnr.log" \
      >/dev/null 2>&1; then
    fmax=$(grep 'Max frequency for clock' "$out/$work.nextpnr.log" | tail -1 |
           sed -E 's/.*: ([0-9.]+) MHz.*/\1 MHz/')
  elif [ $? -eq 124 ]; then
    fmax="pnr timed out"
  else
    fmax="pnr failed"
  fi
  rows+=("$label|iCE40 HX8K|$luts|$ffs|$ram SB_RAM40_4K|$fmax")

  # Xilinx 7-series
  # (Yosys 0.23 aborts in synth_xilinx -abc9 on some netlists: the row says so)
  if yosys -q -l "$out/$work.xc7.log" -p "read_verilog -sv $package $src; $chparam synth_xilinx -family xc7 -abc9 -flatten -top $block;
      tee -q -o $out/$work.xc7.stat stat" >/dev/null 2>&1; then
    luts=$(count 'LUT[1-6]' "$out/$work.xc7.stat")
    lutram=$(count 'RAM[0-9]+X[0-9A-Z]+|RAM[0-9]+M|SRL16E|SRLC32E' "$out/$work.xc7.stat")
    ffs=$(count 'FD[CPRS]E' "$out/$work.xc7.stat")
    bram18=$(count 'RAMB18E1' "$out/$work.xc7.stat")
    bram36=$(count 'RAMB36E1' "$out/$work.xc7.stat")
    rows+=("$label|Xilinx 7-series|$luts|$ffs|$((bram18 + 2 * bram36)) BRAM18, $lutram LUTRAM|-")
  else
    rows+=("$label|Xilinx 7-series|-|-|yosys failed ($work.xc7.log)|-")
  fi
done

if [ $markdown -eq 1 ]; then
  echo "| block | target | LUTs | FFs | RAM | Fmax |"
  echo "|---|---|---:|---:|---|---:|"
  for r in "${rows[@]}"; do echo "| ${r//|/ | } |"; done
else
  printf '%-26s %-16s %6s %6s %-24s %s\n' block target LUTs FFs RAM Fmax
  for r in "${rows[@]}"; do
    IFS='|' read -r b t l f m x <<<"$r"
    printf '%-26s %-16s %6s %6s %-24s %s\n' "$b" "$t" "$l" "$f" "$m" "$x"
  done
fi
