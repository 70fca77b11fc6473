#!/usr/bin/env bash
# Formal proofs of the RTL blocks with Yosys's SMT flow (Debian yosys,
# yosys-smtbmc and z3): every block is read with `read_verilog -sv -formal
# -DSYNTHESIS` (FORMAL on; SYNTHESIS, which -formal no longer implies, hides
# the simulation-only concurrent assertions Yosys 0.23 cannot read), flattened,
# written as SMT-LIB 2 and proven with yosys-smtbmc: bounded model checking
# from reset (the base case) and temporal induction, both to depth K.
# The properties are the `ifdef FORMAL blocks of rtl/*.sv, rtl/common/*.sv and
# rtl/schedule_engine_formal.svh; rtl/README.md ("Formal proofs") lists them.
# Every assertion is labelled with its property group's tag (`P1_gap: assert
# (...)`), every cover statement `cover_<tag>_...`; the label is the name
# yosys-smtbmc reports.
#
# Usage: scripts/formal.sh [--mutations] [RTL_DIR [REGS_PKG]]
#   (default)    for every block: check that each property group listed
#                below labels at least one assertion of the model and that
#                every assertion and cover carries a listed tag; prove the
#                block (all its groups together: one induction); check that
#                every cover statement is reached from reset within the
#                block's cover depth (yosys-smtbmc -c). One line per group:
#                block, tag, description, assertions, covers reached,
#                PASS/FAIL; then one line per block.
#   --mutations  plant one bug per line of the mutation table (a sed-patched
#                copy of the RTL in a temporary directory); each names the
#                property group it breaks, and counts as caught only when
#                bounded model checking from reset, with that group's
#                assertions alone, finds a trace that violates one of them
#                within the mutation's depth. Otherwise it is a FAIL, naming
#                where the block's full proof fails instead, if it does.
# REGS_PKG as in scripts/lint_rtl.sh (the build's rendering of
# hls/engine_registers.yaml, or rendered here). Exit status: 0 when every
# check passes (every mutation is caught at its group), 1 otherwise, 2 on bad
# usage or a missing tool.
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

# The proofs: block | file (under RTL_DIR) | Yosys commands before prep | depth
# K of the induction | cover depth C (steps from reset within which every
# cover statement must be reached) | property groups (tag=description,
# ';'-separated; the tag labels the group's assertions and covers).
# Reduced parameters: the pacer runs with PacketFlitsWidth = 3 (packets of up
# to 7 flits) and FlitWidth = 8; z3 does not finish the induction over the
# 8 x 12-bit multiplication of the gap monitor at the RTL's default widths
# (PacketFlitsWidth = 12) within minutes. The programmable engine's
# descriptor memory has 4 words (Depth = 4) instead of 4096: its properties
# do not depend on the depth, and the memory only widens the state. Every
# other block is proven as it is synthesized, but the switch aggregator: 2
# slots, packets of up to 2 words, 2 children, 4-bit words (halves of 2
# bits), 2-bit keys; its properties do not depend on the widths (the monitor
# is chosen freely among the keys and words), and the widths are what z3
# proves within seconds.
skeleton_groups="K1=descriptor held until out_ready, stable;K2=offered only after a load, in the order loaded (two entries);K3=taken and nothing following: port empty;K4=configuration write taken only while not busy;K5=registers follow regs_d / regs_reset"
proofs=(
  "packet_pacer|packet_pacer.sv|chparam -set PacketFlitsWidth 3 -set FlitWidth 8 packet_pacer|2|8|P1=gap between packets >= gap x P + slack, and no longer;P2=no flit lost, created or reordered (flits in - out = 0);P3=out_valid held until out_ready, data stable;P0=monitor invariants (hold_q against the monitor)"
  "tree_bcast_rule|tree_bcast_rule.sv||2|6|R1=mask never holds the arrival port;R2=physical root: every child but the sender, no parent;R3=from the parent: exactly the children;R4=from a child: parent and the other children;R5=logical root: parent and every child;R6=leaf: nothing from the parent, only the parent as logical root;H=answer held until out_ready, stable, none without a request"
  "schedule_engine_skeleton|common/schedule_engine_skeleton.sv||2|8|$skeleton_groups;K6=full only with a head, can_load = not full"
  "switch_aggregator|switch_aggregator.sv|chparam -set Slots 2 -set WordsWidth 1 -set Children 2 -set DataWidth 4 -set KeyWidth 2 switch_aggregator|2|16|U1=a block goes up only when every child has contributed;U2=an up word is the reduction of the children's words (sum, max, min);U3=one up packet a block, W words, the last flagged;N1=no word lost or created: completing packet's words in - up words out = words in flight;N2=the up packet has gone exactly when its W words are taken;D1=a slot holds its block from the first packet to the last down word;D2=a down word is offered to the children unchanged, in the next cycle;F1=a head looked up, table unchanged: a new block refused (pipeline permitting) only by a full table;F2=a head looked up, table unchanged: a held block not complete refused only by the pipeline;F3=a complete block takes no more packets;R1=a word is read only when no stage still has to write it;H=up and down words held until taken, stable;E=configuration changes only by a write while idle;I=invariants: slot table, probe, packet in progress, stages, halves and accumulator against the monitor"
)
# Cover depths of the engines: a2at 16, hd and programmable 12 (they cover a
# program's events, FormalCoverProgram: the last by step 12, 7 and 5), the
# others 8 (their covers by step 4). A block's cover run stops when its last
# cover is reached; the depth bounds only the search for one that is not.
for e in a2a a2at hd hopgroup twotree programmable; do
  pre=""; cdepth=8; e5="configuration writes ignored while busy"
  case "$e" in
    a2at) cdepth=16 ;;
    hd) cdepth=12 ;;
    programmable) cdepth=12; pre="chparam -set Depth 4 schedule_engine_programmable"
      e5="configuration writes (registers and descriptor memory) ignored while busy" ;;
  esac
  extra=""  # the engines with the shared strides module (common/schedule_engine_strides.sv)
  case "$e" in a2a|hopgroup) extra=";S1=strides: current n_d, c_d and the flags t = c_d, t = n_d, t + 1 = n_d" ;; esac
  [ "$e" = a2a ] && extra="$extra;A1=odometer carries = ANDs of the slots' off_last flags"
  proofs+=("schedule_engine_$e|schedule_engine_$e.sv|$pre|2|$cdepth|E1=descriptor held until out_ready, stable;E2=nothing before start;E3=nothing after END until the next start;E4=load only while the output buffer has room, writes only while not busy;E5=$e5;$skeleton_groups;K6=full only with a head, can_load = not full, END last, loads only while not full$extra")
done

# Mutations: block | file | sed expression | the property group it must
# break (its tag) | BMC depth | what the bug is
mutations=(
  "packet_pacer|packet_pacer.sv|s/hold_d = hold_q + HoldWidth'(gap_q);/hold_d = hold_q;/|P1|10|a packet's gap counts its head flit only"
  "tree_bcast_rule|tree_bcast_rule.sv|s/) \& ~from_bit;/);/|R1|6|the arrival port is not removed"
  "schedule_engine_skeleton|common/schedule_engine_skeleton.sv|s/assign cfg_write_o = cfg_we_i \&\& !busy_o;/assign cfg_write_o = cfg_we_i;/|K4|6|writes taken while busy"
  "schedule_engine_skeleton|common/schedule_engine_skeleton.sv|s/if (!(rd_q ? out_valid_q : full_q)) ent1_q <= load_word_i;/if (!rd_q \&\& !full_q) ent1_q <= load_word_i;/|K2|6|entry 1 misses a load into an empty buffer"
  "schedule_engine_a2a|common/schedule_engine_strides.sv|s/r_d.size_m2 = size_m2_next;/r_d.size_m2 = size_m2_next - SizeWidth'(1);/|S1|8|the next dimension's n_d - 2 taken wrong"
  "schedule_engine_a2a|schedule_engine_a2a.sv|s/    if (cfg_write) begin/    if (cfg_we_i) begin/|E5|8|the engine ignores the configuration gate"
  "schedule_engine_a2at|schedule_engine_a2at.sv|s/KindEnd: r_d.state = StateIdle;/KindEnd: ;/|E3|16|the engine runs on after END"
  "schedule_engine_hd|schedule_engine_hd.sv|s/r_q.state\\[SEnd\\]: if (can_load) begin/r_q.state[SEnd]: begin/|E4|12|END loaded into a full output buffer"
  "schedule_engine_hopgroup|schedule_engine_hopgroup.sv|s/regs_reset.state = StateIdle;/regs_reset.state = StateInit;/|E2|8|the engine starts by itself after reset"
  "schedule_engine_twotree|schedule_engine_twotree.sv|s/    if (cfg_write) begin/    if (cfg_we_i) begin/|E5|8|the engine ignores the configuration gate (registers and tables written while busy)"
  "schedule_engine_programmable|schedule_engine_programmable.sv|s/    if (cfg_write) begin/    if (cfg_we_i) begin/|E5|8|the memory and registers written while busy"
  "schedule_engine_programmable|schedule_engine_programmable.sv|s/        if (can_load) begin/        begin/|E4|12|a word loaded into a full output buffer"
  "switch_aggregator|switch_aggregator.sv|s/assign in_ready_o = t_accept \&\& !t_hazard \&\& advance/assign in_ready_o = t_accept \&\& advance/|U2|14|a short packet's word read before a stage has written it (no wait at the head)"
  "switch_aggregator|switch_aggregator.sv|s/assign in_ready_o = t_accept \&\& !t_hazard \&\& advance/assign in_ready_o = t_accept \&\& advance/|R1|14|the same bug, caught where the read happens"
  "switch_aggregator|switch_aggregator.sv|s/t_child_bit) == child_mask_q;/t_child_bit) != '0;/|U1|12|a block sent up after its first packet"
  "switch_aggregator|switch_aggregator.sv|s/: t_free_found);/: t_free_found \&\& slot_valid_q == '0);/|F1|12|a new block admitted only into an empty table"
  "switch_aggregator|switch_aggregator.sv|s/ freed .. cfg_write;/ freed;/|I|10|a head taken on a lookup made before a CHILD_MASK write"
  "switch_aggregator|switch_aggregator.sv|s/assign advance = !(s4_valid \&\& s4_emit \&\& !up_ready_i);/assign advance = 1'b1;/|N1|12|the pipeline moves on while the parent does not take the up word"
)

# model DIR BLOCK FILE PRE OUT [YOSYS_CMDS]: the block's SMT-LIB 2 model in
# OUT.smt2 (YOSYS_CMDS run after flatten, e.g. a chformal); status 1 on a
# Yosys error (its log in OUT.yosys).
model() {
  local dir="$1" block="$2" file="$3" pre="$4" out="$5" cmds="${6:-}" defs="" sources
  [ "$block" = schedule_engine_skeleton ] && defs="-DFORMAL_SKELETON_ALONE"
  sources="$dir/collnet_descriptor_pkg.sv $regs_pkg"
  case "$block" in
    schedule_engine_skeleton|packet_pacer|tree_bcast_rule|switch_aggregator) sources="$sources $dir/$file" ;;
    *) sources="$sources $(echo "$dir"/common/*.sv) $dir/$file" ;;  # an engine and the shared modules
  esac
  yosys -q -l "$out.yosys" -p "read_verilog -sv -formal -DSYNTHESIS $defs -I$dir $sources; ${pre:+$pre;} prep -top $block;
      flatten; opt -fast; ${cmds:+$cmds;} dffunmap; write_smt2 -wires $out.smt2" >/dev/null 2>&1
}

# prove OUT K: BMC from reset to depth K, then induction of depth K, on
# OUT.smt2. Prints "pass", "fail-bmc", "fail-induction" or "error".
prove() {
  local out="$1" k="$2"
  # --unroll: z3 stalls on the engines' models as uninterpreted functions
  if ! yosys-smtbmc -s z3 --unroll -t "$k" "$out.smt2" >"$out.bmc" 2>/dev/null; then
    grep -q "Status: FAILED" "$out.bmc" && echo fail-bmc || echo error; return
  fi
  if ! yosys-smtbmc -s z3 --unroll -i -t "$k" "$out.smt2" >"$out.ind" 2>/dev/null; then
    grep -q "Status: FAILED" "$out.ind" && echo fail-induction || echo error; return
  fi
  echo pass
}

# labels OUT KIND: the names of the model's assertions (KIND assert) or covers
# (KIND cover), one a line, without the instance path (u_skeleton.K1_held is
# K1_held); an unlabelled one as '$' and its source location.
labels() {
  sed -n "s/^; yosys-smt2-$2 [0-9]* //p" "$1.smt2" | while read -r name src; do
    case "$name" in
      \$*) echo "\$ ${src:-$name}" ;;
      *) echo "${name##*.}" ;;
    esac
  done
}

# tag_of LABEL: the property group's tag of an assertion's label (P1_gap: P1)
# or of a cover's (cover_P1_gap: P1); empty when the label carries none.
tag_of() {
  local l="${1#cover_}"
  l="${l%%_*}"
  [[ "$l" =~ ^[A-Z][0-9]*$ ]] && echo "$l"
}

# failed_tags LOG...: the tags of the failing assertions smtbmc names in the
# logs ("Assert failed in PATH: LABEL"), space-separated, each once.
failed_tags() {
  grep -ho "Assert failed in [^ ]*: [^ ]*" "$@" 2>/dev/null | sed 's/.*: //; s/.*\.//' |
    while read -r l; do tag_of "$l"; done | sort -u | tr '\n' ' ' | sed 's/ $//'
}

status=0
if [ "$mode" = prove ]; then
  for p in "${proofs[@]}"; do
    IFS='|' read -r block file pre k cdepth groups <<<"$p"
    out="$scratch/$block"
    start=$SECONDS
    IFS=';' read -ra list <<<"$groups"
    if ! model "$rtl" "$block" "$file" "$pre" "$out"; then
      printf '%-28s Yosys cannot read or translate the block: FAIL\n' "$block"
      sed -n '/ERROR/p' "$out.yosys" | head -3 | sed 's/^/#   /'
      status=1; continue
    fi
    asserts="$(labels "$out" assert)"
    covers="$(labels "$out" cover)"
    # every assertion and cover carries a listed tag
    listed=" $(for g in "${list[@]}"; do printf '%s ' "${g%%=*}"; done)"
    while read -r kind l; do
      [ -n "$l" ] || continue
      if [ "$l" = "\$" ] || [[ "$l" == \$\ * ]]; then
        printf '%-28s an %s without a label (%s): FAIL\n' "$block" "$kind" "${l#\$ }"; status=1
      elif [ -z "$(tag_of "$l")" ] || [[ "$listed" != *" $(tag_of "$l") "* ]]; then
        printf '%-28s %s %s: its tag is none of the listed groups (%s): FAIL\n' "$block" "$kind" "$l" "${listed# }"; status=1
      fi
    done < <(sed 's/^/assertion /' <<<"$asserts"; sed 's/^/cover /' <<<"$covers")
    result="$(prove "$out" "$k")"
    failed=""
    [ "$result" = pass ] || { failed="$(failed_tags "$out.bmc" "$out.ind")"; status=1; }
    # the covers, from reset: smtbmc stops when the last one is reached
    reached=""; last_step=0; cover_result=pass
    if [ -n "$covers" ]; then
      yosys-smtbmc -s z3 --unroll -c -t "$cdepth" "$out.smt2" >"$out.cover" 2>/dev/null || cover_result=fail
      grep -q "Status: PASSED" "$out.cover" || cover_result=fail
      reached="$(sed -n 's/.*Reached cover statement at \([^ ]*\) in step.*/\1/p' "$out.cover" | sed 's/.*\.//')"
      last_step="$(sed -n 's/.*Reached cover statement at .* in step \([0-9]*\)\..*/\1/p' "$out.cover" | tail -1)"
    fi
    secs=$((SECONDS - start))
    for g in "${list[@]}"; do
      gtag="${g%%=*}"
      n_assert=0; n_cover=0; n_reached=0; unreached=""
      while read -r l; do [ -n "$l" ] && [ "$(tag_of "$l")" = "$gtag" ] && n_assert=$((n_assert + 1)); done <<<"$asserts"
      while read -r l; do
        [ -n "$l" ] && [ "$(tag_of "$l")" = "$gtag" ] || continue
        n_cover=$((n_cover + 1))
        if grep -qx "$l" <<<"$reached"; then n_reached=$((n_reached + 1)); else unreached="$unreached $l"; fi
      done <<<"$covers"
      if [ "$n_assert" -eq 0 ]; then verdict="FAIL (no assertion labelled ${gtag}_... in the block's sources)"; status=1
      elif [ "$result" = error ]; then verdict="FAIL (tool error, see yosys/smtbmc output)"
      elif [ "$result" != pass ] && [[ " $failed " == *" $gtag "* ]]; then verdict="FAIL ($result at this group)"
      elif [ "$result" != pass ]; then verdict="FAIL (block not proven: $result at ${failed:-?})"
      elif [ -n "$unreached" ]; then verdict="FAIL (cover${unreached} not reached within $cdepth steps)"; status=1
      else verdict="PASS"; fi
      covers_txt="covers $n_reached/$n_cover reached"
      [ "$n_cover" -eq 0 ] && covers_txt="covers none"
      printf '%-28s %-3s %-84s assertions %-2d %-20s %s\n' "$block" "$gtag" "${g#*=}" "$n_assert" "$covers_txt" "$verdict"
    done
    if [ "$cover_result" = fail ] && [ "$result" = pass ]; then
      # a cover run can also fail on an assertion its trace breaks
      status=1
      sed -n '/Unreached\|Assert failed\|ERROR/p' "$out.cover" | head -5 | sed 's/^/#   /'
    fi
    n_covers=$(grep -c . <<<"$covers")
    n_reached_all=$(grep -c . <<<"$reached")
    params="parameters as synthesized"
    [ -n "$pre" ] && params="reduced parameters: $(echo "$pre" | sed 's/chparam //; s/-set //g; s/ [a-z_]*$//')"
    printf '# %s: the %d groups proven together: %s (induction k=%s, BMC base case to depth %s); %d/%d covers reached from reset (the last in step %s, depth %s); %ss; %s\n' \
      "$block" "${#list[@]}" "$(tr a-z A-Z <<<"$result")" "$k" "$k" "$n_reached_all" "$n_covers" "${last_step:-0}" "$cdepth" "$secs" "$params"
    if [ "$result" != pass ]; then
      sed -n '/Assert failed\|ERROR/p' "$out".{yosys,bmc,ind} 2>/dev/null | head -3 | sed 's/^/#   /'
    fi
  done
else
  for m in "${mutations[@]}"; do
    IFS='|' read -r block file expr tag depth what <<<"$m"
    mdir="$scratch/mut_$block"
    rm -rf "$mdir"; cp -r "$rtl" "$mdir"
    sed -i "$expr" "$mdir/$file"
    label="$(printf '%s mutation (%s) breaking %s' "$block" "$what" "$tag")"
    if cmp -s "$rtl/$file" "$mdir/$file"; then
      printf '%s: FAIL (the sed pattern no longer matches %s)\n' "$label" "$file"
      status=1; continue
    fi
    k=""; pre=""; pfile="$file"
    for p in "${proofs[@]}"; do
      IFS='|' read -r pblock ppfile ppre pk _ <<<"$p"
      [ "$pblock" = "$block" ] && { k="$pk"; pre="$ppre"; pfile="$ppfile"; }
    done
    start=$SECONDS
    out="$scratch/m_$block"
    rm -f "$out".*
    # the block's own file (a mutation may be in a shared module it reads),
    # with only the named group's assertions: the others removed, not assumed
    if ! model "$mdir" "$block" "$pfile" "$pre" "$out" \
        "chformal -cover -remove; chformal -assert -remove t:\$assert c:${tag}_* c:*.${tag}_* %u %d"; then
      printf '%s: FAIL (Yosys error)\n' "$label"; status=1; continue
    fi
    if ! grep -q "^; yosys-smt2-assert " "$out.smt2"; then
      printf '%s: FAIL (the block has no assertion labelled %s_...)\n' "$label" "$tag"; status=1; continue
    fi
    yosys-smtbmc -s z3 --unroll -t "$depth" "$out.smt2" >"$out.bmc" 2>/dev/null
    if grep -q "Status: FAILED" "$out.bmc" && [ "$(failed_tags "$out.bmc")" = "$tag" ]; then
      step="$(grep -o "Checking assertions in step [0-9]*" "$out.bmc" | tail -1 | grep -o "[0-9]*$")"
      printf '%s: caught at %s (%s violated in step %s from reset, %ss): PASS\n' "$label" "$tag" \
        "$(grep -ho "Assert failed in [^ ]*: [^ ]*" "$out.bmc" | sed 's/.*: //; s/.*\.//' | sort -u | tr '\n' ' ' | sed 's/ $//')" \
        "$step" "$((SECONDS - start))"
      continue
    fi
    status=1
    if ! grep -q "Status: PASSED" "$out.bmc"; then
      printf '%s: FAIL (tool error in the bounded model check)\n' "$label"; continue
    fi
    # not caught at its group: where does the block's full proof fail?
    model "$mdir" "$block" "$pfile" "$pre" "$out.full" && result="$(prove "$out.full" "$k")" || result=error
    case "$result" in
      fail-*) printf '%s: FAIL (%s holds for %s steps from reset; the proof fails at %s instead: %s)\n' "$label" \
                "$tag" "$depth" "$(failed_tags "$out.full.bmc" "$out.full.ind")" "$result" ;;
      pass) printf '%s: FAIL (%s holds for %s steps from reset, and the whole proof still passes)\n' "$label" "$tag" "$depth" ;;
      *) printf '%s: FAIL (%s holds for %s steps from reset; tool error in the whole proof)\n' "$label" "$tag" "$depth" ;;
    esac
  done
fi
exit $status
