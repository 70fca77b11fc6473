#!/usr/bin/env bash
# Formal proofs of the RTL blocks with Yosys's SMT flow (Debian yosys,
# yosys-smtbmc and z3): every block is read with `read_verilog -sv -formal
# -DSYNTHESIS` (FORMAL on; SYNTHESIS, which -formal no longer implies, hides
# the simulation-only concurrent assertions Yosys 0.23 cannot read), flattened,
# written as SMT-LIB 2 and proven with yosys-smtbmc: bounded model checking
# from reset (the base case) and temporal induction, both to depth K.
# The properties are the `ifdef FORMAL blocks of rtl/*.sv, rtl/common/*.sv and
# rtl/schedule_engine_formal.svh; rtl/README.md ("Formal proofs") lists them.
#
# Usage: scripts/formal.sh [--mutations] [RTL_DIR [REGS_PKG]]
#   (default)    prove every block; one line per property group:
#                block, property, method, PASS/FAIL
#   --mutations  plant one bug per block (a sed-patched copy of the RTL in a
#                temporary directory) and require its proof to FAIL
# REGS_PKG as in scripts/lint_rtl.sh (the build's rendering of
# hls/engine_registers.yaml, or rendered here). Exit status: 0 when every
# proof passes (every mutation fails), 1 otherwise, 2 on bad usage or a
# missing tool.
set -uo pipefail

usage() { echo "usage: scripts/formal.sh [--mutations] [RTL_DIR [REGS_PKG]]" >&2; exit 2; }
mode=prove
args=()
for a in "$@"; do
  case "$a" in
    --mutations) mode=mutations ;;
    -h|--help) usage ;;
    -*) echo "formal.sh: unknown option '$a' (accepted: --mutations)" >&2; exit 2 ;;
    *) args+=("$a") ;;
  esac
done
[ ${#args[@]} -le 2 ] || usage
for tool in yosys yosys-smtbmc z3; do
  command -v "$tool" >/dev/null || { echo "formal.sh: '$tool' not found (scripts/setup.sh installs it)" >&2; exit 2; }
done

rtl="$(cd "${args[0]:-$(dirname "$0")/../rtl}" 2>/dev/null && pwd)" || { echo "formal.sh: no RTL directory '${args[0]}'" >&2; exit 2; }
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
source "$(dirname "$0")/rtl_sources.sh"
rtl_support "$rtl" "${args[1]:-$scratch/regs}" || { echo "formal.sh: cannot render the register packages" >&2; exit 2; }
regs_pkg="${support[1]}"

# The proofs: block | file (under RTL_DIR) | Yosys commands before prep | depth K
# | property groups (tag=description, ';'-separated; the tag marks the
# assertions in the source).
# Reduced parameters: the pacer runs with PacketFlitsWidth = 3 (packets of up
# to 7 flits) and FlitWidth = 8; z3 does not finish the induction over the
# 8 x 12-bit multiplication of the gap monitor at the RTL's default widths
# (PacketFlitsWidth = 12) within minutes. The programmable engine's
# descriptor memory has 4 words (Depth = 4) instead of 4096: its properties
# do not depend on the depth, and the memory only widens the state. Every
# other block is proven as it is synthesized.
proofs=(
  "packet_pacer|packet_pacer.sv|chparam -set PacketFlitsWidth 3 -set FlitWidth 8 packet_pacer|2|P1=gap between packets >= gap x P + slack, and no longer;P2=no flit lost, created or reordered (flits in - out = 0);P3=out_valid held until out_ready, data stable;P0=monitor invariants (hold_q against the monitor)"
  "tree_bcast_rule|tree_bcast_rule.sv||2|R1=mask never holds the arrival port;R2=physical root: every child but the sender, no parent;R3=from the parent: exactly the children;R4=from a child: parent and the other children;R5=logical root: parent and every child;R6=leaf: nothing from the parent, only the parent as logical root;H=answer held until out_ready, stable, none without a request"
  "schedule_engine_skeleton|common/schedule_engine_skeleton.sv||2|K1=descriptor held until out_ready, stable;K2=offered only after a load, in the order loaded (two entries);K3=taken and nothing following: port empty;K4=configuration write taken only while not busy;K5=registers follow regs_d / regs_reset;K6=full only with a head, can_load = not full"
)
for e in a2a a2at hd hopgroup twotree; do
  strides=""  # the engines with the shared strides module (common/schedule_engine_strides.sv)
  case "$e" in a2a|hopgroup) strides=";S1=strides: current n_d, c_d and the flags t = c_d, t = n_d, t + 1 = n_d" ;; esac
  [ "$e" = a2a ] && strides="$strides;A1=odometer carries = ANDs of the slots' off_last flags"
  proofs+=("schedule_engine_$e|schedule_engine_$e.sv||2|E1=descriptor held until out_ready, stable;E2=nothing before start;E3=nothing after END until the next start;E4=load only while the output buffer has room, writes only while not busy;E5=configuration writes ignored while busy;K1=skeleton properties inside the engine (K1..K6, K6 with END last in the buffer)$strides")
done
proofs+=("schedule_engine_programmable|schedule_engine_programmable.sv|chparam -set Depth 4 schedule_engine_programmable|2|E1=descriptor held until out_ready, stable;E2=nothing before start;E3=nothing after END until the next start;E4=load only while the output buffer has room, writes only while not busy;E5=configuration writes (registers and descriptor memory) ignored while busy;K1=skeleton properties inside the engine (K1..K6, K6 with END last in the buffer)")

# Mutations: block | file | sed expression | the property it breaks
mutations=(
  "packet_pacer|packet_pacer.sv|s/hold_d = hold_q + HoldWidth'(gap_q);/hold_d = hold_q;/|P1 (a packet's gap counts its head flit only)"
  "tree_bcast_rule|tree_bcast_rule.sv|s/) \& ~from_bit;/);/|R1 (the arrival port is not removed)"
  "schedule_engine_skeleton|common/schedule_engine_skeleton.sv|s/assign cfg_write_o = cfg_we_i \&\& !busy_o;/assign cfg_write_o = cfg_we_i;/|K4 (writes taken while busy)"
  "schedule_engine_skeleton|common/schedule_engine_skeleton.sv|s/if (!(rd_q ? out_valid_q : full_q)) ent1_q <= load_word_i;/if (!rd_q \&\& !full_q) ent1_q <= load_word_i;/|K2 (entry 1 misses a load into an empty buffer)"
  "schedule_engine_a2a|common/schedule_engine_strides.sv|s/r_d.size_m2 = size_m2_next;/r_d.size_m2 = size_m2_next - SizeWidth'(1);/|S1 (the next dimension's n_d - 2 taken wrong)"
  "schedule_engine_a2a|schedule_engine_a2a.sv|s/    if (cfg_write) begin/    if (cfg_we_i) begin/|E5 (the engine ignores the configuration gate)"
  "schedule_engine_a2at|schedule_engine_a2at.sv|s/KindEnd: r_d.state = StateIdle;/KindEnd: ;/|E3 (the engine runs on after END)"
  "schedule_engine_hd|schedule_engine_hd.sv|s/r_q.state\\[SEnd\\]: if (can_load) begin/r_q.state[SEnd]: begin/|E1/E4 (END loaded into a full output buffer)"
  "schedule_engine_hopgroup|schedule_engine_hopgroup.sv|s/regs_reset.state = StateIdle;/regs_reset.state = StateInit;/|E2 (the engine starts by itself after reset)"
  "schedule_engine_twotree|schedule_engine_twotree.sv|s/r_q.state\\[SPhaseRecv\\]: if (can_load) begin/r_q.state[SPhaseRecv]: begin/|E1/E4 (a WAIT loaded into a full output buffer)"
  "schedule_engine_programmable|schedule_engine_programmable.sv|s/    if (cfg_write) begin/    if (cfg_we_i) begin/|E5 (the memory and registers written while busy)"
  "schedule_engine_programmable|schedule_engine_programmable.sv|s/        if (can_load) begin/        begin/|E1/E4 (a word loaded into a full output buffer)"
)

# prove DIR BLOCK FILE PRE K LOG: BMC from reset to depth K, then induction
# of depth K. Prints "pass", "fail-bmc", "fail-induction" or "error".
prove() {
  local dir="$1" block="$2" file="$3" pre="$4" k="$5" log="$6" defs="" sources
  [ "$block" = schedule_engine_skeleton ] && defs="-DFORMAL_SKELETON_ALONE"
  sources="$dir/collnet_descriptor_pkg.sv $regs_pkg"
  case "$block" in
    schedule_engine_skeleton|packet_pacer|tree_bcast_rule) sources="$sources $dir/$file" ;;
    *) sources="$sources $(echo "$dir"/common/*.sv) $dir/$file" ;;  # an engine and the shared modules
  esac
  if ! yosys -q -l "$log.yosys" -p "read_verilog -sv -formal -DSYNTHESIS $defs -I$dir $sources; ${pre:+$pre;} prep -top $block;
        flatten; opt -fast; dffunmap; write_smt2 -wires $log.smt2" >/dev/null 2>&1; then
    echo error; return
  fi
  # --unroll: z3 stalls on the engines' models as uninterpreted functions
  if ! yosys-smtbmc -s z3 --unroll -t "$k" "$log.smt2" >"$log.bmc" 2>/dev/null; then
    grep -q "Status: FAILED" "$log.bmc" && echo fail-bmc || echo error; return
  fi
  if ! yosys-smtbmc -s z3 --unroll -i -t "$k" "$log.smt2" >"$log.ind" 2>/dev/null; then
    grep -q "Status: FAILED" "$log.ind" && echo fail-induction || echo error; return
  fi
  echo pass
}

# failed_tag LOG: the tag of the assertion a failed run names (the nearest
# "// <tag>" comment at or above the last line of its source span).
failed_tag() {
  local where file line
  where="$(grep -ho "Assert failed in [^ ]*: [^ ]*" "$1.bmc" "$1.ind" 2>/dev/null | head -1 | sed 's/.*: //')"
  # an assertion of a module instance: the instance's span, then the assertion's after '|'
  where="${where##*|}"
  # the span's last line: Yosys 0.23 starts an assertion's span where the
  # statement before it ends
  file="${where%%:*}"; line="${where##*-}"; line="${line%%.*}"
  [ -f "$file" ] || { echo "?"; return; }
  head -n "$line" "$file" | grep -o "// [A-Z][0-9]*\b" | tail -1 | sed 's|// ||'
}

status=0
if [ "$mode" = prove ]; then
  for p in "${proofs[@]}"; do
    IFS='|' read -r block file pre k groups <<<"$p"
    start=$SECONDS
    result="$(prove "$rtl" "$block" "$file" "$pre" "$k" "$scratch/$block")"
    secs=$((SECONDS - start))
    tag=""
    [ "$result" = pass ] || { tag="$(failed_tag "$scratch/$block")"; status=1; }
    method="induction k=$k (BMC base case to depth $k)"
    IFS=';' read -ra list <<<"$groups"
    for g in "${list[@]}"; do
      gtag="${g%%=*}"
      if [ "$result" = pass ]; then verdict=PASS
      elif [ "$result" = error ]; then verdict="FAIL (tool error, see yosys/smtbmc output)"
      elif [ "$gtag" = "$tag" ]; then verdict="FAIL ($result)"
      else verdict="FAIL (block not proven: $result at $tag)"; fi
      printf '%-26s %-3s %-72s %s  %s\n' "$block" "$gtag" "${g#*=}" "$method" "$verdict"
    done
    if [ -n "$pre" ]; then
      echo "# $block: ${secs}s; reduced parameters: $(echo "$pre" | sed 's/chparam //; s/-set //g; s/ $block$//')"
    else
      echo "# $block: ${secs}s; parameters as synthesized"
    fi
    if [ "$result" != pass ]; then
      sed -n '/Assert failed\|ERROR/p' "$scratch/$block".{yosys,bmc,ind} 2>/dev/null | head -3 | sed 's/^/#   /'
    fi
  done
else
  for m in "${mutations[@]}"; do
    IFS='|' read -r block file expr breaks <<<"$m"
    mdir="$scratch/mut_$block"
    rm -rf "$mdir"; cp -r "$rtl" "$mdir"
    sed -i "$expr" "$mdir/$file"
    if cmp -s "$rtl/$file" "$mdir/$file"; then
      printf '%-26s mutation of %-46s FAIL (the sed pattern no longer matches %s)\n' "$block" "$breaks" "$file"
      status=1; continue
    fi
    k=""; pre=""; pfile="$file"
    for p in "${proofs[@]}"; do
      IFS='|' read -r pblock ppfile ppre pk _ <<<"$p"
      [ "$pblock" = "$block" ] && { k="$pk"; pre="$ppre"; pfile="$ppfile"; }
    done
    start=$SECONDS
    # (the block's own file: a mutation may be in a shared module it reads)
    result="$(prove "$mdir" "$block" "$pfile" "$pre" "$k" "$scratch/m_$block")"
    secs=$((SECONDS - start))
    case "$result" in
      fail-bmc|fail-induction)
        printf '%-26s mutation breaking %-46s proof fails (%s at %s, %ss): PASS\n' "$block" "$breaks" "$result" \
          "$(failed_tag "$scratch/m_$block")" "$secs" ;;
      pass)
        printf '%-26s mutation breaking %-46s proof still passes: FAIL\n' "$block" "$breaks"; status=1 ;;
      *)
        printf '%-26s mutation breaking %-46s tool error: FAIL\n' "$block" "$breaks"; status=1 ;;
    esac
  done
fi
exit $status
