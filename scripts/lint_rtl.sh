#!/usr/bin/env bash
# Lints every RTL block with Verilator (-Wall, warnings are errors) and checks
# that Yosys reads it (the SystemVerilog subset both tools accept) and turns
# its processes into logic (`proc`: a latch in an always_comb is an error
# there, as in synthesis, e.g. for a struct-typed function result). Run by
# ctest (test `rtl_lint`); usage: scripts/lint_rtl.sh [RTL_DIR [REGS_PKG]]
# Every block is read with the packages (the descriptor's first, then the
# engines' register packages: REGS_PKG, or rendered from
# hls/engine_registers.yaml; scripts/rtl_sources.sh) and the shared modules
# (rtl/common/*.sv); `include files are found in RTL_DIR.
set -euo pipefail
rtl="${1:-$(dirname "$0")/../rtl}"
source "$(dirname "$0")/rtl_sources.sh"
if [ $# -ge 2 ]; then
  rtl_support "$rtl" "$2"
else
  scratch="$(mktemp -d)"
  trap 'rm -rf "$scratch"' EXIT
  rtl_support "$rtl" "$scratch"
fi
status=0
for file in "$rtl"/*.sv; do
  case "$file" in *_pkg.sv) continue ;; esac
  block="$(basename "$file" .sv)"
  if verilator --lint-only -Wall -I"$rtl" --top-module "$block" "${support[@]}" "$file"; then
    echo "verilator lint: $block clean"
  else
    echo "verilator lint: $block FAILED"; status=1
  fi
  if yosys -q -p "read_verilog -sv -I$rtl ${support[*]} $file; hierarchy -check -top $block; proc" >/dev/null; then
    echo "yosys read: $block ok"
  else
    echo "yosys read: $block FAILED"; status=1
  fi
done
exit $status
