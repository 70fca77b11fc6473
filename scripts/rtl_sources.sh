# Sourced by scripts/lint_rtl.sh and scripts/synth.sh: what every RTL block is
# read with. `rtl_support RTL_DIR REGS` fills the array `support`: the
# descriptor's package first, then the engines' register packages, then the
# shared modules (RTL_DIR/common/). REGS is the register packages' file, the
# build's rendering of hls/engine_registers.yaml (ctest passes
# build/generated/rtl/schedule_engine_regs_pkg.sv), or a directory into which
# scripts/engine_registers.py renders them first.
rtl_support() {
  local rtl="$1" regs="$2" python=/usr/bin/python3 f
  [ -x "$python" ] || python=python3
  if [ -d "$regs" ] || [ ! -e "$regs" ]; then
    "$python" "$rtl/../scripts/engine_registers.py" "$rtl/../hls/engine_registers.yaml" "$regs" || return 1
    regs="$regs/rtl/schedule_engine_regs_pkg.sv"
  fi
  support=("$rtl/collnet_descriptor_pkg.sv" "$regs")
  for f in "$rtl"/*_pkg.sv "$rtl"/common/*.sv; do
    [ "$f" = "$rtl/collnet_descriptor_pkg.sv" ] || support+=("$f")
  done
}
