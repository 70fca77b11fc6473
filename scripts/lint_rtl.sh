#!/usr/bin/env bash
# Lints every RTL block with Verilator (-Wall, warnings are errors) and checks
# that Yosys reads it (the SystemVerilog subset both tools accept). Run by
# ctest (test `rtl_lint`); usage: scripts/lint_rtl.sh [RTL_DIR]
set -euo pipefail
rtl="${1:-$(dirname "$0")/../rtl}"
package="$rtl/collnet_descriptor_pkg.sv"
status=0
for file in "$rtl"/*.sv; do
  [ "$file" = "$package" ] && continue
  block="$(basename "$file" .sv)"
  if verilator --lint-only -Wall --top-module "$block" "$package" "$file"; then
    echo "verilator lint: $block clean"
  else
    echo "verilator lint: $block FAILED"; status=1
  fi
  if yosys -q -p "read_verilog -sv $package $file; hierarchy -check -top $block" >/dev/null; then
    echo "yosys read: $block ok"
  else
    echo "yosys read: $block FAILED"; status=1
  fi
done
exit $status
