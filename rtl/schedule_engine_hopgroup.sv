// Schedule engine for the all-to-all of document 000: a2a-hopgroup and
// a2a-hopgroup-direct (spec a2a-hopgroup). RTL of
// hls/schedule_engine_hopgroup.hpp, register for register (same names); that
// header documents the programs, the register map, the plan of phase groups
// and the timing. bench/verilator/schedule_engine_hopgroup_bench.cpp
// checks that this module, the HLS class and the software reference emit the
// same words.
//
// Coordinate tables: id_mem[{d, t}] = t * stride_d, m_mem[{d, t}] = t *
// stride_d * m (4 x 64 entries each), one write port and one synchronous
// read port (block RAM), read only by the run setup. The plan registers
// (plan_*) hold, per phase slot of the current group, what the run setup
// needs of the phase, written in the group's two planning cycles
// (StateGroup, StatePlan); a run candidate takes two cycles (StateSelect,
// StateSetup) and a run one more (StateFetch: the tables' entries into its
// dest and first source), each from registers (iCE40 critical paths; the
// HLS header gives the timing). Arrays of registers are flat vectors
// (element j at [j*W +: W]): Yosys 0.23 reads no packed multi-dimensional
// arrays.
//
// Register map: package schedule_engine_hopgroup_regs_pkg (schedule_engine_regs_pkg.sv,
// generated from hls/engine_registers.yaml into build/generated/rtl/);
// ports: schedule_engine_ports.svh; registers and output register: common/schedule_engine_skeleton.sv
// (instance and the shared formal properties: schedule_engine_skeleton.svh).
// The state register is one-hot, so the engine writes its own closing states
// (the END and idle states of schedule_engine_states.svh, with a bit test).

module schedule_engine_hopgroup (
`include "schedule_engine_ports.svh"
);

  localparam int unsigned Dims = 4;
  localparam int unsigned SizeWidth = 7;    // n_d up to 64, digits, targets
  localparam int unsigned CoordWidth = 6;
  localparam int unsigned CountWidth = 17;  // node counts and strides
  localparam int unsigned IdWidth = 16;
  localparam int unsigned AddrWidth = 20;
  localparam int unsigned TagWidth = collnet_descriptor_pkg::TagWidth;

  localparam logic AlgorithmDirect = 1'b1;
  localparam int unsigned OptTorus = 0;
  localparam int unsigned OptPacing = 1;
  localparam int unsigned OptDescending = 2;
  localparam int unsigned OptBoth = 3;
  localparam int unsigned OptConcurrent = 4;
  localparam int unsigned OptBarriers = 5;

  // The state is one-hot (idle too: busy is its inverse), so that a state's
  // decode is its own flip-flop; S<name> is the bit of State<name>.
  localparam int unsigned SIdle = 0, SInit = 1, SDivide = 2, SGroup = 3, SBarrier = 4, SSelect = 5, SRun = 6,
    SDCopy = 7, SDSend = 8, SDBarrier = 9, SEnd = 10, SPlan = 11, SSetup = 12, SFetch = 13;
  typedef enum logic [13:0] {StateIdle = 14'd1 << SIdle, StateInit = 14'd1 << SInit,
    StateDivide = 14'd1 << SDivide, StateGroup = 14'd1 << SGroup, StateBarrier = 14'd1 << SBarrier,
    StateSelect = 14'd1 << SSelect, StateRun = 14'd1 << SRun, StateDCopy = 14'd1 << SDCopy,
    StateDSend = 14'd1 << SDSend, StateDBarrier = 14'd1 << SDBarrier, StateEnd = 14'd1 << SEnd,
    StatePlan = 14'd1 << SPlan, StateSetup = 14'd1 << SSetup, StateFetch = 14'd1 << SFetch} state_e;

  /// Every register of the engine (_d the next value, _q the current one).
  typedef struct packed {
    // configuration
    logic                       algorithm;
    logic [AddrWidth-1:0]       message_words;
    logic [5:0]                 options;
    logic [7:0]                 gap_slack;
    logic [2:0]                 dims;
    state_e                     state;
    logic                       idle;          // !busy_o, the gate of cfg_write_idle (the HLS class reads its busy)
    logic                       in_init;       // state is StateInit (u_strides steps)
    // per dimension, from the strides (u_strides), and the division
    logic [Dims*AddrWidth-1:0]  mstride;   // stride_d * m
    logic [Dims*IdWidth-1:0]    stride_id;  // stride_d
    logic [Dims*IdWidth-1:0]    own_id;        // c_d * stride_d
    logic [Dims*AddrWidth-1:0]  own_m;          // c_d * stride_d * m
    logic [Dims*IdWidth-1:0]    last_id;      // (n_d - 1) * stride_d
    logic [Dims*AddrWidth-1:0]  last_m;        // (n_d - 1) * stride_d * m
    logic [Dims*8-1:0]          dim_steps;     // steps of a phase in dimension d (follows SIZE, OPTIONS)
    logic [Dims-1:0]            dim_one;       // n_d = 1 (follows SIZE)
    logic [Dims-1:0]            coord_zero;    // c_d = 0 (follows COORD)
    logic                       is_3d;         // DIMS = 3 (follows DIMS)
    logic [3:0]                 groups;        // the program's phase groups (follows DIMS, OPTIONS)
    logic [CountWidth-1:0]      node_count;
    logic [AddrWidth-1:0]       bank_words;
    logic [4:0]                 div_step;  // the division's bit AddrWidth - 1 - div_step
    logic                       div_last;  // div_step = AddrWidth - 1 in StateDivide (its last cycle)
    logic                       dir_init;  // div_last of the direct program: its odometer takes the first offset
    logic [AddrWidth-1:0]       piece_off1, piece_off2;  // words before pieces 1 and 2 (StateGroup, from quot, rem)
    logic [2:0]                 piece_live;  // piece p has words (StateGroup)
    logic [AddrWidth-1:0]       quot_inc;    // m / 3 + 1 (StateGroup)
    logic                       m_live;      // m > 0 (follows MESSAGE_WORDS)
    logic [1:0]                 rem;
    logic [AddrWidth-1:0]       quot;
    // hopgroup sequencing
    logic [3:0]                 group;
    logic [1:0]                 group_round, group_j;  // group / 3 and group mod 3
    logic [1:0]                 group_dim, group_piece; // 3-D literal: the group's phase
    logic [3*2-1:0]             phase_dim;  // the group's slots' dimensions (set with group)
    logic [7:0]                 group_steps;
    logic [7:0]                 step;
    logic [7:0]                 step_next;  // step + 1 (set with step)
    logic                       step_last;  // step + 1 = group_steps (set with step)
    logic [TagWidth-1:0]        tag;
    logic [2:0]                 bank;
    logic [1:0]                 slot;
    logic [1:0]                 sub;
    // plan of the current group, per phase slot s at [s*W +: W] (StateGroup;
    // what follows the piece in StatePlan)
    logic [2:0]                 plan_valid;
    logic [2:0]                 plan_live;  // valid and a piece of words (StatePlan)
    logic [2:0]                 plan_act;   // live and step < its steps (set with step)
    logic [3*2-1:0]             plan_dim;
    logic [3*2-1:0]             plan_piece;
    logic [2:0]                 plan_from;  // the piece's current bank (its bank bit)
    logic [3*SizeWidth-1:0]     plan_n;        // n_d
    logic [3*CoordWidth-1:0]    plan_c;        // c_d
    logic [3*8-1:0]             plan_steps; // steps of the phase, 0 if none
    logic [3*AddrWidth-1:0]     plan_words; // piece words (StatePlan)
    logic [3*SizeWidth-1:0]     plan_nc, plan_cn;  // n_d - c_d, c_d + n_d (StatePlan)
    logic [3*AddrWidth-1:0]     plan_src;    // source bank base + piece offset (StatePlan)
    logic [3*AddrWidth-1:0]     plan_dst;    // the other bank's base + piece offset (StatePlan)
    // current run (the candidate's registers: StateSelect; the rest: StateSetup)
    logic [1:0]                 run_dim;
    logic [SizeWidth-1:0]       run_n, run_nc, run_cn;  // n_d, n_d - c_d, c_d + n_d
    logic [CoordWidth-1:0]      run_c;                  // c_d
    logic [7:0]                 run_hops;
    logic [Dims-1:0]            run_skip;               // one-hot run_dim: the odometer skips it
    logic                       run_neg;                // offset -hops
    logic [IdWidth-1:0]         run_dest;
    logic [AddrWidth-1:0]       run_src, run_dst, run_words;
    logic [7:0]                 run_hint, run_gap, run_slack;
    logic [AddrWidth-1:0]       run_jump;  // m + (n_d - 1) x stride_d x m of run_dim
    logic [AddrWidth-1:0]       run_own_m, run_last_m;  // c_d x stride_d x m, (n_d - 1) x stride_d x m of run_dim
    logic [IdWidth-1:0]         run_own_id;             // c_d x stride_d of run_dim (StateSelect)
    // odometers (hopgroup labels: digit, counting down; direct offsets: offset, target, part_id, part)
    logic [Dims*SizeWidth-1:0]  digit;
    logic [Dims-1:0]            digit_zero;  // hopgroup: digit e is 0 (it wraps next)
    logic [Dims*SizeWidth-1:0]  offset;      // direct: the odometer's offset digits (counting down)
    logic [Dims-1:0]            offset_zero; // direct: offset digit e is 0
    logic [Dims-1:0]            target_zero; // direct: target e is 0
    logic [Dims*SizeWidth-1:0]  hop;         // direct: the hops of dimension e of the odometer's offset
    // direct, per dimension, following SIZE, COORD and OPTIONS: what the
    // odometer's step of dimension e needs for the hops of the next offset
    logic [Dims*SizeWidth-1:0]  hop_thr;   // torus: n_d / 2 + 1; mesh: c_d
    logic [Dims*SizeWidth-1:0]  hop_base;  // torus: n_d + 1; mesh: c_d + 1
    logic [Dims*SizeWidth-1:0]  hop_inv;   // torus: ~0; mesh: ~c_d
    logic [Dims*SizeWidth-1:0]  hop_wrap;  // the hops where the digit wraps: torus h(n_d - 1); mesh n_d - 1 - c_d
    logic [Dims*AddrWidth-1:0]  part;
    logic [Dims*SizeWidth-1:0]  target;
    logic [Dims*IdWidth-1:0]    part_id;  // direct: target * stride
    logic [CountWidth-1:0]      remaining;
    // direct: the next SEND's dest, src and hops, per pair of dimensions (0 + 1, 2 + 3)
    logic [2*IdWidth-1:0]       dir_dest;
    logic [2*AddrWidth-1:0]     dir_src;
    logic [2*8-1:0]             dir_hops;
  } regs_t;
  regs_t r_d, r_q, regs_reset;
  // The configuration write of this cycle is taken: the skeleton's gate
  // (cfg_write, cfg_write_o = cfg_we_i && !busy_o), taken here from a
  // flip-flop of the engine's own that holds !busy_o (idle: cfg_write_idle),
  // so that the configuration registers' enables are a decode of the port
  // and one flip-flop, not of the output buffer's state through busy_o
  // (iCE40 critical path); the formal proofs check that the two gates agree.
  /* verilator lint_off UNUSEDSIGNAL */  // read by the formal proofs only
  logic  cfg_write;
  /* verilator lint_on UNUSEDSIGNAL */
  logic  cfg_write_idle;
  assign cfg_write_idle = cfg_we_i && r_q.idle;
  // The address decode of the engine's own configuration registers, in two
  // LUT levels from the port: the upper and the lower four address bits'
  // matches are nets of their own, each register's enable one LUT of
  // cfg_we_i, idle and the two (Yosys otherwise chains the shared decode
  // over four levels; iCE40 critical path). The registers share the upper
  // bits (checked below).
  (* keep *) logic cfg_hi;
  (* keep *) logic cfg_lo_control, cfg_lo_algorithm, cfg_lo_message_words, cfg_lo_options, cfg_lo_gap_slack,
                   cfg_lo_dims;
  assign cfg_hi = cfg_addr_i[7:4] == schedule_engine_hopgroup_regs_pkg::RegControl[7:4];
  assign cfg_lo_control = cfg_addr_i[3:0] == schedule_engine_hopgroup_regs_pkg::RegControl[3:0];
  assign cfg_lo_algorithm = cfg_addr_i[3:0] == schedule_engine_hopgroup_regs_pkg::RegAlgorithm[3:0];
  assign cfg_lo_message_words = cfg_addr_i[3:0] == schedule_engine_hopgroup_regs_pkg::RegMessageWords[3:0];
  assign cfg_lo_options = cfg_addr_i[3:0] == schedule_engine_hopgroup_regs_pkg::RegOptions[3:0];
  assign cfg_lo_gap_slack = cfg_addr_i[3:0] == schedule_engine_hopgroup_regs_pkg::RegGapSlack[3:0];
  assign cfg_lo_dims = cfg_addr_i[3:0] == schedule_engine_hopgroup_regs_pkg::RegDims[3:0];
`ifndef SYNTHESIS
  initial assert ({schedule_engine_hopgroup_regs_pkg::RegAlgorithm[7:4], schedule_engine_hopgroup_regs_pkg::RegMessageWords[7:4],
                   schedule_engine_hopgroup_regs_pkg::RegOptions[7:4], schedule_engine_hopgroup_regs_pkg::RegGapSlack[7:4],
                   schedule_engine_hopgroup_regs_pkg::RegDims[7:4]} == {5{schedule_engine_hopgroup_regs_pkg::RegControl[7:4]}})
    else $error("schedule_engine_hopgroup: the configuration registers must share the upper address bits");
`endif
  logic [IdWidth-1:0]         rd_id_q;               // table read port (run setup)
  logic [AddrWidth-1:0]       rd_m_q;

  // coordinate tables
  logic [IdWidth-1:0]         id_mem [Dims*64];
  logic [AddrWidth-1:0]       m_mem [Dims*64];
  logic                       table_we;
  logic                       table_re;

  logic unused_cfg_wdata;
  assign unused_cfg_wdata = ^cfg_wdata_i[31:AddrWidth];

  // Fields read at a variable index, as plain vectors: Yosys 0.23 makes a
  // variable part-select of a packed-struct member a shifter over the whole
  // struct (docs/synthesis.md, "Notes for RTL writers").
  // Fields written at a variable index are written in a loop over
  // constant ones (StateInit) for the same reason.
  logic [Dims*IdWidth-1:0]    own_id_q;
  logic [Dims*AddrWidth-1:0]  own_m_q, last_m_q;
  logic [2:0]                 bank_q;
  logic [AddrWidth-1:0]       message_words_q;
  logic [Dims*8-1:0]          dim_steps_q;
  assign {own_id_q, own_m_q, last_m_q, bank_q, message_words_q, dim_steps_q} =
      {r_q.own_id, r_q.own_m, r_q.last_m, r_q.bank, r_q.message_words, r_q.dim_steps};

  // SIZE e and COORD e: n_e and c_e, dimension e at [e*W +: W]
  logic [Dims*SizeWidth-1:0]  size_q;
  logic [Dims*CoordWidth-1:0] coord_q;
  schedule_engine_dimensions #(.SizeWidth(SizeWidth), .CoordWidth(CoordWidth),
      .Size0Addr(schedule_engine_hopgroup_regs_pkg::RegSize0),
      .Coord0Addr(schedule_engine_hopgroup_regs_pkg::RegCoord0))
    u_dimensions (.clk_i, .rst_ni, .cfg_write_i(cfg_write_idle), .cfg_addr_i, .cfg_wdata_i, .size_o(size_q),
      .coord_o(coord_q));

  logic torus, pacing, three_d;
  assign torus = r_q.options[OptTorus];
  assign pacing = r_q.options[OptPacing];
  assign three_d = r_q.is_3d;

  // strides, rank and rank x m, in StateInit; t x stride_d and t x stride_d x m
  // also fill the coordinate tables
  logic [1:0]            init_dim;
  /* verilator lint_off UNUSEDSIGNAL */  // bit 6: t < n_d <= 64 addresses the tables
  logic [SizeWidth-1:0]  init_t;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [SizeWidth-1:0]  unused_size;   // n_d and c_d: the flags below compare them
  logic [CoordWidth-1:0] unused_coord;
  logic [CountWidth-1:0] acc;
  /* verilator lint_off UNUSEDSIGNAL */  // bit 16: node ids are 16 bits (N <= 65536)
  logic [CountWidth-1:0] stride, rank;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [AddrWidth-1:0]  acc_m, mstride, self_m;
  logic                  at_coord, at_size, at_last, strides_done;  // t = c_d, t = n_d, t + 1 = n_d
  logic [IdWidth-1:0]    self_id;
  schedule_engine_strides #(.SizeWidth(SizeWidth), .CoordWidth(CoordWidth), .CountWidth(CountWidth),
      .AddrWidth(AddrWidth))
    u_strides (.clk_i, .rst_ni, .words_i(r_q.message_words), .step_i(r_q.in_init),
      .size_i(size_q), .coord_i(coord_q), .dim_o(init_dim), .t_o(init_t), .size_o(unused_size),
      .coord_o(unused_coord), .acc_o(acc), .acc_m_o(acc_m), .stride_o(stride), .mstride_o(mstride),
      .at_coord_o(at_coord), .at_size_o(at_size), .at_last_o(at_last), .done_o(strides_done),
      .self_id_o(rank), .self_m_o(self_m));
  assign self_id = rank[IdWidth-1:0];  // node ids are 16 bits; N <= 65536

  function automatic logic [SizeWidth-1:0] size_of(input logic [Dims*SizeWidth-1:0] sizes, input logic [1:0] e);
    size_of = sizes[e*SizeWidth +: SizeWidth];
  endfunction

  // ---- plan (hls: phase_of, phase_steps, piece_words, piece_offset) ----
  logic [3:0] group_count;
  assign group_count = r_q.groups;

  /// Phase `slot` of group `gi`: {valid, dim[1:0], piece[1:0]}.
  function automatic logic [4:0] phase_of(input logic [1:0] gi, input logic [1:0] slot);  // gi mod 4
    logic       valid;
    logic [1:0] dim, piece;
    logic [2:0] sum;
    dim = r_q.phase_dim[slot*2 +: 2];  // gi, the slot or the literal group's, set with the group
    if (!three_d) begin
      valid = slot == 2'd0;
      piece = 2'd0;
    end else if (r_q.options[OptConcurrent]) begin
      valid = 1'b1;
      sum = {1'b0, gi} + {1'b0, slot};
      piece = sum >= 3'd3 ? 2'(sum - 3'd3) : sum[1:0];
    end else begin
      valid = slot == 2'd0;
      piece = r_q.group_piece;  // registers beside the group
    end
    if (r_q.dim_one[dim]) valid = 1'b0;  // nothing to cross
    phase_of = {valid, dim, piece};
  endfunction

  function automatic logic [7:0] phase_steps(input logic [SizeWidth-1:0] n);
    if (!r_q.options[OptTorus]) phase_steps = {n, 1'b0} - 8'd2;
    else if (r_q.options[OptBoth]) phase_steps = {2'b00, n[SizeWidth-1:1]};
    else phase_steps = {1'b0, n} - 8'd1;
  endfunction

  function automatic logic [AddrWidth-1:0] piece_words(input logic [1:0] piece);
    if (!three_d) piece_words = r_q.message_words;
    else piece_words = piece < r_q.rem ? r_q.quot_inc : r_q.quot;  // the first m mod 3 pieces one word longer
  endfunction

  // words before the piece: 0, m/3 + (rem > 0), 2 m/3 + rem (rem <= 2),
  // the sums registered in StateGroup
  function automatic logic [AddrWidth-1:0] piece_offset(input logic [1:0] piece);
    if (piece == 2'd0) piece_offset = '0;
    else if (piece == 2'd1) piece_offset = r_q.piece_off1;
    else piece_offset = r_q.piece_off2;
  endfunction

  // ---- group planning (StatePlan): steps of the group, the maximum over the
  // slots' step counts registered in StateGroup (0 for a slot without phase) ----
  logic [7:0] plan_max;
  logic       plan_none;
  logic       plan_one;
  always_comb begin
    plan_max = r_q.plan_steps[0 +: 8];
    for (int s = 1; s < 3; s++)
      if (r_q.plan_steps[s*8 +: 8] > plan_max) plan_max = r_q.plan_steps[s*8 +: 8];
    plan_none = r_q.plan_steps == '0;
    // the maximum is 1: every slot's step count is 0 or 1, one is 1 (beside the maximum, not behind it)
    plan_one = r_q.plan_steps[7:1] == '0 && r_q.plan_steps[15:9] == '0 && r_q.plan_steps[23:17] == '0 &&
               (r_q.plan_steps[0] || r_q.plan_steps[8] || r_q.plan_steps[16]);
  end

  // group / 3 and group mod 3 of the next group
  // and the 3-D literal group's phase: j = 0 -> (0, r), 1 -> (2, r+2), 2 -> (1, r+1)
  logic [7:0] group_next_rj;
  always_comb begin
    logic [1:0] r, j, dim;
    logic [2:0] sum;
    {r, j} = r_q.group_j == 2'd2 ? {r_q.group_round + 2'd1, 2'd0} : {r_q.group_round, r_q.group_j + 2'd1};
    dim = j == 2'd0 ? 2'd0 : (j == 2'd1 ? 2'd2 : 2'd1);
    sum = {1'b0, r} + {1'b0, dim};
    group_next_rj = {r, j, dim, sum >= 3'd3 ? 2'(sum - 3'd3) : sum[1:0]};
  end

  // the slots' dimensions of group gi (its group_dim in the 3-D literal program)
  function automatic logic [5:0] phase_dims(input logic [1:0] gi, input logic [1:0] group_dim);
    for (int s = 0; s < 3; s++)
      phase_dims[s*2 +: 2] = !three_d ? gi : (r_q.options[OptConcurrent] ? 2'(s) : group_dim);
  endfunction

  // bank bits flipped at the end of the group
  logic [2:0] group_flip;
  always_comb begin
    group_flip = '0;
    for (int s = 0; s < 3; s++)
      if (r_q.plan_valid[s]) group_flip[r_q.plan_piece[s*2 +: 2]] = 1'b1;
  end

  // ---- candidate of the run setup (hls: select_step): the slot's phase from
  // the plan registers, the existence tests that need no coordinate, the hop
  // count and direction ----
  logic                  sel_act;
  logic [1:0]            sel_dim;
  logic [SizeWidth-1:0]  sel_n, sel_nc, sel_cn;
  logic [CoordWidth-1:0] sel_c;
  logic [7:0]            sel_steps, sel_hops;
  logic [AddrWidth-1:0]  sel_words, sel_src, sel_dst;
  logic                  sel_active, sel_exists, sel_negative;
  always_comb begin
    // the phase of the slot, from the plan registers (slot 3 reads slot 0's)
    sel_act = r_q.plan_act[0];
    sel_dim = r_q.plan_dim[0 +: 2];
    sel_n = r_q.plan_n[0 +: SizeWidth];
    sel_c = r_q.plan_c[0 +: CoordWidth];
    sel_steps = r_q.plan_steps[0 +: 8];
    sel_words = r_q.plan_words[0 +: AddrWidth];
    sel_nc = r_q.plan_nc[0 +: SizeWidth];
    sel_cn = r_q.plan_cn[0 +: SizeWidth];
    sel_src = r_q.plan_src[0 +: AddrWidth];
    sel_dst = r_q.plan_dst[0 +: AddrWidth];
    for (int s = 1; s < 3; s++) begin
      if (r_q.slot == 2'(s)) begin
        sel_act = r_q.plan_act[s];
        sel_dim = r_q.plan_dim[s*2 +: 2];
        sel_n = r_q.plan_n[s*SizeWidth +: SizeWidth];
        sel_c = r_q.plan_c[s*CoordWidth +: CoordWidth];
        sel_steps = r_q.plan_steps[s*8 +: 8];
        sel_words = r_q.plan_words[s*AddrWidth +: AddrWidth];
        sel_nc = r_q.plan_nc[s*SizeWidth +: SizeWidth];
        sel_cn = r_q.plan_cn[s*SizeWidth +: SizeWidth];
        sel_src = r_q.plan_src[s*AddrWidth +: AddrWidth];
        sel_dst = r_q.plan_dst[s*AddrWidth +: AddrWidth];
      end
    end
    sel_active = sel_act;  // the slot's phase is live and has a step `step`
    // hops of index i = step (ascending) or steps - 1 - step (descending):
    // i + 1 on a torus, i / 2 + 1 on a mesh (steps = 2 (n - 1) is even there)
    sel_hops = '0;
    sel_negative = 1'b0;
    sel_exists = 1'b1;
    if (r_q.sub == 2'd0) begin
      sel_exists = r_q.step == 8'd0;  // the local copy, in the phase's first step
    end else if (!torus) begin
      sel_exists = r_q.sub == 2'd1;
      sel_hops = r_q.options[OptDescending] ? {1'b0, sel_steps[7:1]} - {1'b0, r_q.step[7:1]}
                                            : {1'b0, r_q.step[7:1]} + 8'd1;
      sel_negative = r_q.step[0] ^ r_q.options[OptDescending];
    end else begin
      sel_exists = r_q.options[OptBoth] || r_q.sub == 2'd1;  // both: -h unless 2h = n (StateSetup)
      sel_hops = r_q.options[OptDescending] ? sel_steps - r_q.step : r_q.step_next;
      sel_negative = r_q.options[OptBoth] && r_q.sub != 2'd1;
    end
  end

  // ---- run setup (StateSetup): the target coordinate c_d +- hops, wrapped
  // on a torus, tested on a mesh, from the candidate's registers ----
  logic                  set_short;  // a mesh offset with n - h < h flows on a link
  logic [7:0]            set_gap;    // the pacing gap: flows on a link - 1
  /* verilator lint_off UNUSEDSIGNAL */  // bits 7:6: v < n_d <= 64 addresses the tables
  logic [7:0]            set_v;
  /* verilator lint_on UNUSEDSIGNAL */
  logic                  set_over, set_under, set_exists;
  logic [5:0]            set_vu;
  always_comb begin
    // c + h >= n and c - h < 0, compared beside the sums
    set_over = r_q.run_hops >= {1'b0, r_q.run_nc};
    set_under = r_q.run_hops > {2'b00, r_q.run_c};
    if (r_q.run_neg) set_v = set_under ? {1'b0, r_q.run_cn} - r_q.run_hops : {2'b00, r_q.run_c} - r_q.run_hops;
    else set_v = set_over ? r_q.run_hops - {1'b0, r_q.run_nc} : {2'b00, r_q.run_c} + r_q.run_hops;
    if (r_q.sub == 2'd0) set_exists = 1'b1;
    else if (torus) set_exists = r_q.sub == 2'd1 || {r_q.run_hops, 1'b0} != {2'b00, r_q.run_n};
    else set_exists = r_q.run_neg ? !set_under : !set_over;  // mesh: n_d + k does not exist
    // a mesh offset of h loads a link with min(h, n - h) flows (only n - h
    // nodes have a destination); a torus one with h. The gap is flows - 1:
    // n - h - 1 = n + ~h where h <= n < 2h, else h - 1, both sums and the
    // compares side by side (no subtraction before the compare)
    set_short = !torus && r_q.run_hops <= {1'b0, r_q.run_n} && {2'b00, r_q.run_n} < {r_q.run_hops, 1'b0};
    set_gap = set_short ? {1'b0, r_q.run_n} + ~r_q.run_hops : r_q.run_hops - 8'd1;
    set_vu = set_v[5:0];
  end

  // ---- run emission: labels of the hyperplane, odometer skipping run_dim ----
  // The digits count down (n_e - 1 - the label's digit e), so that a digit
  // wraps at 0. The next label is the next in increasing order: its
  // addresses are m further, or m + (n_d - 1) x stride_d x m further
  // (run_jump) where the digits below run_dim all wrap (the carry reaches
  // run_dim); both sums are formed, the carry chooses.
  logic [Dims*SizeWidth-1:0] run_digit_next;
  logic [Dims-1:0]           run_digit_zero_next;
  logic                      run_done, run_carry_dim;
  logic [AddrWidth-1:0]      run_src_m, run_src_jump, run_dst_m, run_dst_jump;
  always_comb begin
    logic carry, wraps;
    run_digit_next = r_q.digit;
    carry = 1'b1;
    wraps = 1'b0;
    run_carry_dim = 1'b0;
    run_digit_zero_next = r_q.digit_zero;
    for (int e = 0; e < Dims; e++) begin
      if (r_q.run_skip[e]) run_carry_dim = carry;
      if (carry && !r_q.run_skip[e]) begin
        wraps = r_q.digit_zero[e];
        run_digit_next[e*SizeWidth +: SizeWidth] = wraps ? size_q[e*SizeWidth +: SizeWidth] - SizeWidth'(1)
                                                         : r_q.digit[e*SizeWidth +: SizeWidth] - SizeWidth'(1);
        run_digit_zero_next[e] = wraps ? size_q[e*SizeWidth +: SizeWidth] == SizeWidth'(1)
                                       : r_q.digit[e*SizeWidth +: SizeWidth] == SizeWidth'(1);
        carry = wraps;
      end
    end
    run_done = carry;
    run_src_m = r_q.run_src + r_q.message_words;
    run_src_jump = r_q.run_src + r_q.run_jump;
    run_dst_m = r_q.run_dst + r_q.message_words;
    run_dst_jump = r_q.run_dst + r_q.run_jump;
  end

  // ---- direct: the SEND of the current offset and the next offset ----
  // The odometer runs an offset ahead of the SEND: each load takes the pair
  // sums of the odometer's offset into dir_* (the next SEND adds the pairs)
  // and moves the odometer on. Its digits and targets carry flags of being 0
  // (the borrow and the wraps are flag tests) and the hops of each dimension
  // (hop: the shorter way round a torus from the digit, the distance on a
  // mesh from the target), each stepped with its digit from the registers
  // of the current offset (hop_thr, hop_base, hop_inv, hop_wrap).
  logic [2*IdWidth-1:0]      direct_dest;  // dimensions 0 + 1, 2 + 3
  logic [2*AddrWidth-1:0]    direct_src;
  logic [2*8-1:0]            direct_hops;
  logic [Dims*SizeWidth-1:0] direct_offset_next, direct_target_next, direct_hop_next;
  logic [Dims-1:0]           direct_offset_zero_next, direct_target_zero_next;
  logic [Dims*IdWidth-1:0]   direct_part_id_next;
  logic [Dims*AddrWidth-1:0] direct_part_next;
  always_comb begin
    logic [SizeWidth-1:0] o, n, t, thr, base, inv, hop_torus, hop_mesh;
    logic borrow, share_wraps;
    logic [IdWidth-1:0] id_base;
    logic [AddrWidth-1:0] m_base;
    direct_dest = '0;
    direct_src = '0;
    direct_hops = '0;
    for (int e = 0; e < Dims; e++) begin
      direct_dest[(e/2)*IdWidth +: IdWidth] = direct_dest[(e/2)*IdWidth +: IdWidth] + r_q.part_id[e*IdWidth +: IdWidth];
      direct_src[(e/2)*AddrWidth +: AddrWidth] = direct_src[(e/2)*AddrWidth +: AddrWidth] + r_q.part[e*AddrWidth +: AddrWidth];
      direct_hops[(e/2)*8 +: 8] = direct_hops[(e/2)*8 +: 8] + {1'b0, r_q.hop[e*SizeWidth +: SizeWidth]};
    end
    direct_offset_next = r_q.offset;
    direct_target_next = r_q.target;
    direct_hop_next = r_q.hop;
    direct_offset_zero_next = r_q.offset_zero;
    direct_target_zero_next = r_q.target_zero;
    direct_part_id_next = r_q.part_id;
    direct_part_next = r_q.part;
    borrow = 1'b1;
    for (int j = 0; j < Dims; j++) begin
      // the target's share of dest and src: one stride less, or the last
      // entry on a wrap; the first offset's (dir_init: every dimension) the
      // same step from this node's share (target c_d)
      share_wraps = r_q.dir_init ? r_q.coord_zero[Dims-1-j] : r_q.target_zero[Dims-1-j];
      id_base = r_q.dir_init ? r_q.own_id[(Dims-1-j)*IdWidth +: IdWidth] : r_q.part_id[(Dims-1-j)*IdWidth +: IdWidth];
      m_base = r_q.dir_init ? r_q.own_m[(Dims-1-j)*AddrWidth +: AddrWidth] : r_q.part[(Dims-1-j)*AddrWidth +: AddrWidth];
      if (borrow || r_q.dir_init) begin
        direct_part_id_next[(Dims-1-j)*IdWidth +: IdWidth] = share_wraps ? r_q.last_id[(Dims-1-j)*IdWidth +: IdWidth]
            : id_base - r_q.stride_id[(Dims-1-j)*IdWidth +: IdWidth];
        direct_part_next[(Dims-1-j)*AddrWidth +: AddrWidth] = share_wraps ? r_q.last_m[(Dims-1-j)*AddrWidth +: AddrWidth]
            : m_base - r_q.mstride[(Dims-1-j)*AddrWidth +: AddrWidth];
      end
      if (borrow) begin
        o = r_q.offset[(Dims-1-j)*SizeWidth +: SizeWidth];
        t = r_q.target[(Dims-1-j)*SizeWidth +: SizeWidth];
        n = size_q[(Dims-1-j)*SizeWidth +: SizeWidth];
        thr = r_q.hop_thr[(Dims-1-j)*SizeWidth +: SizeWidth];
        base = r_q.hop_base[(Dims-1-j)*SizeWidth +: SizeWidth];
        inv = r_q.hop_inv[(Dims-1-j)*SizeWidth +: SizeWidth];
        direct_offset_next[(Dims-1-j)*SizeWidth +: SizeWidth] = r_q.offset_zero[Dims-1-j] ? n - SizeWidth'(1) : o - SizeWidth'(1);
        direct_offset_zero_next[Dims-1-j] = r_q.offset_zero[Dims-1-j] ? r_q.dim_one[Dims-1-j] : o == SizeWidth'(1);
        direct_target_next[(Dims-1-j)*SizeWidth +: SizeWidth] = r_q.target_zero[Dims-1-j] ? n - SizeWidth'(1) : t - SizeWidth'(1);
        direct_target_zero_next[Dims-1-j] = r_q.target_zero[Dims-1-j] ? r_q.dim_one[Dims-1-j] : t == SizeWidth'(1);
        // the next offset's hops: torus, digit o - 1: o - 1 where o <= n / 2 + 1,
        // else n + 1 - o; mesh, target t - 1: t - 1 - c = t + ~c where t > c, else c + 1 - t
        // (each from its own register, the torus one from the offset, the mesh one from the target)
        hop_torus = r_q.offset_zero[Dims-1-j] ? r_q.hop_wrap[(Dims-1-j)*SizeWidth +: SizeWidth]
            : (o > thr ? base - o : o + inv);
        hop_mesh = r_q.target_zero[Dims-1-j] ? r_q.hop_wrap[(Dims-1-j)*SizeWidth +: SizeWidth]
            : (t > thr ? t + inv : base - t);
        direct_hop_next[(Dims-1-j)*SizeWidth +: SizeWidth] = torus ? hop_torus : hop_mesh;
        borrow = r_q.offset_zero[Dims-1-j];
      end
    end
  end

  // ---- next state ----
  logic                 can_load;
  logic                 load;
  collnet_descriptor_pkg::descriptor_t load_word;
  logic [2:0]           div_rem;
  logic                 div_bit;
  logic [4:0]           div_index;
  logic [4:0]           plan_p;  // phase_of(group, s) while planning

  always_comb begin
    r_d = r_q;
    regs_reset = '0;  // but for the HLS class's register defaults:
    regs_reset.message_words = AddrWidth'(1); regs_reset.dims = 3'd1; regs_reset.state = StateIdle;
    regs_reset.groups = 4'd1;  // follows DIMS = 1
    regs_reset.m_live = 1'b1;  // follows MESSAGE_WORDS = 1
    regs_reset.idle = 1'b1;
    plan_p = '0;
    load = 1'b0;
    load_word = '0;
    table_we = 1'b0;
    table_re = 1'b0;
    div_index = 5'(AddrWidth - 1) - r_q.div_step;
    div_bit = message_words_q[div_index];
    div_rem = {r_q.rem, div_bit};
    // every dimension's phase step count follows SIZE and OPTIONS (written
    // before CONTROL; first read in the first StateGroup, after the division)
    for (int e = 0; e < Dims; e++) begin
      r_d.dim_steps[e*8 +: 8] = phase_steps(size_q[e*SizeWidth +: SizeWidth]);
      r_d.dim_one[e] = size_q[e*SizeWidth +: SizeWidth] == SizeWidth'(1);
      r_d.coord_zero[e] = coord_q[e*CoordWidth +: CoordWidth] == '0;
      r_d.hop_thr[e*SizeWidth +: SizeWidth] = torus ? {1'b0, size_q[e*SizeWidth + 1 +: SizeWidth - 1]} + SizeWidth'(1)
                                                    : {1'b0, coord_q[e*CoordWidth +: CoordWidth]};
      r_d.hop_base[e*SizeWidth +: SizeWidth] = torus ? size_q[e*SizeWidth +: SizeWidth] + SizeWidth'(1)
                                                     : {1'b0, coord_q[e*CoordWidth +: CoordWidth]} + SizeWidth'(1);
      r_d.hop_inv[e*SizeWidth +: SizeWidth] = torus ? '1 : ~{1'b0, coord_q[e*CoordWidth +: CoordWidth]};
      // h(n - 1) on a torus: n - 1 where n <= 2, else 1
      r_d.hop_wrap[e*SizeWidth +: SizeWidth] = torus ? (size_q[e*SizeWidth +: SizeWidth] <= SizeWidth'(2)
                                                        ? size_q[e*SizeWidth +: SizeWidth] - SizeWidth'(1) : SizeWidth'(1))
          : size_q[e*SizeWidth +: SizeWidth] - SizeWidth'(1) - {1'b0, coord_q[e*CoordWidth +: CoordWidth]};
    end
    r_d.is_3d = r_q.dims == 3'd3;
    r_d.m_live = r_q.message_words != '0;
    r_d.groups = r_q.dims != 3'd3 ? {1'b0, r_q.dims} : (r_q.options[OptConcurrent] ? 4'd3 : 4'd9);

    // configuration port (SIZE e, COORD e: u_dimensions). u_strides stands
    // at dimension 0; the division's and the program's registers are
    // cleared where they start (the fill, the end of StateDivide), so that
    // no run-time register's enable holds the configuration port's decode
    if (cfg_write_idle && cfg_hi && cfg_lo_control && cfg_wdata_i[0]) r_d.state = StateInit;
    if (cfg_write_idle && cfg_hi && cfg_lo_algorithm) r_d.algorithm = cfg_wdata_i[0];
    if (cfg_write_idle && cfg_hi && cfg_lo_message_words) r_d.message_words = cfg_wdata_i[AddrWidth-1:0];
    if (cfg_write_idle && cfg_hi && cfg_lo_options) r_d.options = cfg_wdata_i[5:0];
    if (cfg_write_idle && cfg_hi && cfg_lo_gap_slack) r_d.gap_slack = cfg_wdata_i[7:0];
    if (cfg_write_idle && cfg_hi && cfg_lo_dims) r_d.dims = cfg_wdata_i[2:0];

    unique case (1'b1)
      r_q.state[SInit]: begin
        // u_strides runs t = 0..n_d in dimension d: the tables take t x stride_d
        // for t < n_d, the registers c_d x stride_d, (n_d - 1) x stride_d and stride_d
        // t < n_d: t runs 0..n_d. Not in StateSetup, which reads the tables:
        // one-hot, the two states' bits are separate flip-flops, and Yosys
        // builds read-during-write bypass logic for enables it cannot prove
        // exclusive (80 flip-flops more)
        table_we = !at_size && !r_q.state[SSetup];
        for (int e = 0; e < Dims; e++) begin
          if (2'(e) == init_dim && at_coord) begin
            r_d.own_id[e*IdWidth +: IdWidth] = acc[IdWidth-1:0];
            r_d.own_m[e*AddrWidth +: AddrWidth] = acc_m;
          end
          if (2'(e) == init_dim && at_last) begin
            r_d.last_id[e*IdWidth +: IdWidth] = acc[IdWidth-1:0];
            r_d.last_m[e*AddrWidth +: AddrWidth] = acc_m;
          end
          if (2'(e) == init_dim && at_size) begin
            r_d.stride_id[e*IdWidth +: IdWidth] = stride[IdWidth-1:0];
            r_d.mstride[e*AddrWidth +: AddrWidth] = mstride;
          end
        end
        // the division's registers cleared in every cycle of the fill (read
        // from StateDivide on), so that their enables are the two states' bits
        {r_d.div_step, r_d.div_last, r_d.dir_init, r_d.rem, r_d.quot} = '0;
        if (strides_done) begin
          r_d.node_count = acc;
          r_d.bank_words = acc_m;
          r_d.state = StateDivide;
        end
      end
      r_q.state[SDivide]: begin
        // restoring division of m by 3, most significant bit first
        r_d.rem = div_rem >= 3'd3 ? 2'(div_rem - 3'd3) : div_rem[1:0];
        r_d.quot = {r_q.quot[AddrWidth-2:0], div_rem >= 3'd3};
        r_d.div_step = r_q.div_step + 5'd1;
        r_d.div_last = r_q.div_step == 5'(AddrWidth - 2);
        r_d.dir_init = r_d.div_last && r_q.algorithm == AlgorithmDirect;
        if (r_q.div_last) begin
          // (the direct program's odometer takes its first offset below, on dir_init)
          {r_d.group, r_d.group_round, r_d.group_j, r_d.group_dim, r_d.group_piece, r_d.tag, r_d.bank} = '0;
          r_d.phase_dim = phase_dims(2'd0, 2'd0);
          r_d.state = r_q.algorithm == AlgorithmDirect ? StateDCopy : StateGroup;
        end
      end
      r_q.state[SGroup]: begin
        // the phases of the group's slots and their step counts; the group's
        // steps (their maximum) in StatePlan
        r_d.piece_off1 = r_q.quot + AddrWidth'(r_q.rem != 2'd0);
        r_d.piece_off2 = {r_q.quot[AddrWidth-2:0], 1'b0} + AddrWidth'(r_q.rem);
        r_d.quot_inc = r_q.quot + AddrWidth'(1);
        // which pieces have words: m > 0, or in 3-D m / 3 > 0 or one of the
        // m mod 3 longer pieces (StatePlan reads them by the slots' pieces)
        for (int p = 0; p < 3; p++)
          r_d.piece_live[p] = !three_d ? r_q.m_live : r_q.quot != '0 || 2'(p) < r_q.rem;
        // the plan registers in every cycle of this state, the group end
        // test deciding the state only (after the last group they are not read)
        for (int s = 0; s < 3; s++) begin
          plan_p = phase_of(r_q.group[1:0], 2'(s));
          r_d.plan_valid[s] = plan_p[4];
          r_d.plan_dim[s*2 +: 2] = plan_p[3:2];
          r_d.plan_piece[s*2 +: 2] = plan_p[1:0];
          r_d.plan_from[s] = bank_q[plan_p[1:0]];
          r_d.plan_n[s*SizeWidth +: SizeWidth] = size_of(size_q, plan_p[3:2]);
          r_d.plan_c[s*CoordWidth +: CoordWidth] = coord_q[plan_p[3:2]*CoordWidth +: CoordWidth];
          r_d.plan_steps[s*8 +: 8] = plan_p[4] ? dim_steps_q[plan_p[3:2]*8 +: 8] : 8'd0;
        end
        r_d.state = r_q.group == group_count ? StateEnd : StatePlan;
      end
      r_q.state[SPlan]: begin
        for (int s = 0; s < 3; s++) begin
          r_d.plan_words[s*AddrWidth +: AddrWidth] = piece_words(r_q.plan_piece[s*2 +: 2]);
          // the piece has words: m > 0, or in 3-D m / 3 > 0 or one of the m mod 3 longer pieces
          r_d.plan_live[s] = r_q.plan_valid[s] && r_q.piece_live[r_q.plan_piece[s*2 +: 2]];
          r_d.plan_act[s] = r_d.plan_live[s] && r_q.plan_steps[s*8 +: 8] != 8'd0;  // step 0
          r_d.plan_src[s*AddrWidth +: AddrWidth] = (r_q.plan_from[s] ? r_q.bank_words : '0) +
                                                   piece_offset(r_q.plan_piece[s*2 +: 2]);
          r_d.plan_dst[s*AddrWidth +: AddrWidth] = (r_q.plan_from[s] ? '0 : r_q.bank_words) +
                                                   piece_offset(r_q.plan_piece[s*2 +: 2]);
          r_d.plan_nc[s*SizeWidth +: SizeWidth] = r_q.plan_n[s*SizeWidth +: SizeWidth] - {1'b0, r_q.plan_c[s*CoordWidth +: CoordWidth]};
          r_d.plan_cn[s*SizeWidth +: SizeWidth] = r_q.plan_n[s*SizeWidth +: SizeWidth] + {1'b0, r_q.plan_c[s*CoordWidth +: CoordWidth]};
        end
        // the next group's number, here in every case (only StateGroup reads it)
        r_d.group = r_q.group + 4'd1;
        {r_d.group_round, r_d.group_j, r_d.group_dim, r_d.group_piece} = group_next_rj;
        r_d.phase_dim = phase_dims(r_d.group[1:0], r_d.group_dim);
        if (plan_none) begin
          r_d.state = StateGroup;  // no phase: no step
        end else begin
          r_d.group_steps = plan_max;
          r_d.step_last = plan_one;  // group_steps = 1
          {r_d.step, r_d.slot, r_d.sub} = '0;
          r_d.step_next = 8'd1;
          r_d.state = r_q.tag != '0 ? StateBarrier : StateSelect;
        end
      end
      r_q.state[SBarrier]: if (can_load) begin
        load = 1'b1;
        load_word = collnet_descriptor_pkg::barrier_descriptor(r_q.tag - 1'b1);
        r_d.state = StateSelect;
      end
      r_q.state[SSelect]: begin
        // the candidate's registers, in every cycle of this state (StateSetup reads them)
        r_d.run_dim = sel_dim;
        r_d.run_words = sel_words;
        r_d.run_n = sel_n;
        r_d.run_c = sel_c;
        r_d.run_nc = sel_nc;
        r_d.run_cn = sel_cn;
        r_d.run_hops = sel_hops;
        r_d.run_skip = Dims'(1) << sel_dim;
        r_d.run_neg = sel_negative;
        r_d.run_src = sel_src;
        r_d.run_dst = sel_dst;  // + c_d x stride_d x m: StateSetup
        r_d.run_own_m = own_m_q[sel_dim*AddrWidth +: AddrWidth];
        r_d.run_last_m = last_m_q[sel_dim*AddrWidth +: AddrWidth];
        r_d.run_own_id = own_id_q[sel_dim*IdWidth +: IdWidth];
        if (r_q.slot == 2'd3) begin
          // step done
          r_d.tag = r_q.tag + 1'b1;
          {r_d.slot, r_d.sub} = '0;
          if (r_q.step_last) begin
            r_d.bank = r_q.bank ^ group_flip;
            r_d.state = StateGroup;  // the next group's number: StatePlan
          end else begin
            r_d.step = r_q.step_next;
            r_d.step_next = r_q.step_next + 8'd1;
            r_d.step_last = r_q.step_next + 8'd1 == r_q.group_steps;
            for (int s = 0; s < 3; s++)
              r_d.plan_act[s] = r_q.plan_live[s] && r_q.step_next < r_q.plan_steps[s*8 +: 8];
            r_d.state = StateBarrier;
          end
        end else if (!sel_active || r_q.sub == 2'd3) begin
          r_d.slot = r_q.slot + 2'd1;
          r_d.sub = '0;
        end else if (!sel_exists) begin
          r_d.sub = r_q.sub + 2'd1;
        end else begin
          r_d.state = StateSetup;
        end
      end
      r_q.state[SSetup]: begin
        // the run's registers in every cycle of this state (StateRun reads them;
        // a dropped candidate goes back to StateSelect, which sets them again)
        table_re = 1'b1;  // one synchronous read of each table (entry v); the entry c_d is a register
        r_d.run_dst = r_q.run_dst + r_q.run_own_m;
        r_d.run_dest = self_id - r_q.run_own_id;
        r_d.run_jump = r_q.message_words + r_q.run_last_m;
        // sub moves on in every cycle of this state: a dropped candidate goes
        // back to StateSelect, a run keeps it to its end (StateRun does not
        // read it), so the existence test decides the state only
        r_d.sub = r_q.sub + 2'd1;
        if (r_q.sub == 2'd0) begin
          {r_d.run_hint, r_d.run_gap, r_d.run_slack} = '0;
        end else begin
          r_d.run_hint = (r_q.run_neg ? 8'd2 : 8'd1) << {r_q.run_dim, 1'b0};
          r_d.run_gap = pacing ? set_gap : 8'd0;
          r_d.run_slack = pacing ? r_q.gap_slack : 8'd0;
        end
        for (int e = 0; e < Dims; e++) begin
          r_d.digit[e*SizeWidth +: SizeWidth] = size_q[e*SizeWidth +: SizeWidth] - SizeWidth'(1);
          r_d.digit_zero[e] = size_q[e*SizeWidth +: SizeWidth] == SizeWidth'(1);
        end
        r_d.state = set_exists ? StateFetch : StateSelect;
      end
      r_q.state[SFetch]: begin
        // the tables' entries into the run's dest and first source, so that
        // the SENDs take both from registers (no adder behind the table's read)
        r_d.run_dest = r_q.run_dest + rd_id_q;
        r_d.run_src = r_q.run_src + rd_m_q;
        r_d.state = StateRun;
      end
      r_q.state[SRun]: if (can_load) begin
        load = 1'b1;
        load_word = collnet_descriptor_pkg::send_descriptor(r_q.run_dest, r_q.run_src, r_q.run_dst, r_q.run_words,
                                                            r_q.tag);
        load_word.controller = {1'b0, r_q.run_dim};
        load_word.route_hint = r_q.run_hint;
        load_word.gap = r_q.run_gap;
        load_word.slack = r_q.run_slack;
        r_d.digit = run_digit_next;
        r_d.digit_zero = run_digit_zero_next;
        r_d.run_src = run_carry_dim ? run_src_jump : run_src_m;
        r_d.run_dst = run_carry_dim ? run_dst_jump : run_dst_m;
        if (run_done) r_d.state = StateSelect;  // sub moved on in StateSetup
      end
      r_q.state[SDCopy]: if (can_load) begin
        load = 1'b1;
        load_word = collnet_descriptor_pkg::send_descriptor(self_id, self_m, r_q.bank_words + self_m,
                                                            r_q.message_words, '0);
        // (tag: 0 since the division's end, the only way here)
        r_d.state = r_q.remaining == '0 ? StateEnd : StateDSend;
        {r_d.dir_dest, r_d.dir_src, r_d.dir_hops} = {direct_dest, direct_src, direct_hops};
        {r_d.offset, r_d.offset_zero, r_d.target, r_d.target_zero, r_d.hop} =
            {direct_offset_next, direct_offset_zero_next, direct_target_next, direct_target_zero_next, direct_hop_next};
        r_d.part_id = direct_part_id_next;
        r_d.part = direct_part_next;
      end
      r_q.state[SDSend]: if (can_load) begin
        load = 1'b1;
        load_word = collnet_descriptor_pkg::send_descriptor(r_q.dir_dest[0 +: IdWidth] + r_q.dir_dest[IdWidth +: IdWidth],
                                                            r_q.dir_src[0 +: AddrWidth] + r_q.dir_src[AddrWidth +: AddrWidth],
                                                            r_q.bank_words + self_m, r_q.message_words, r_q.tag);
        load_word.gap = pacing ? r_q.dir_hops[0 +: 8] + r_q.dir_hops[8 +: 8] - 8'd1 : 8'd0;
        load_word.slack = pacing ? r_q.gap_slack : 8'd0;
        {r_d.dir_dest, r_d.dir_src, r_d.dir_hops} = {direct_dest, direct_src, direct_hops};
        {r_d.offset, r_d.offset_zero, r_d.target, r_d.target_zero, r_d.hop} =
            {direct_offset_next, direct_offset_zero_next, direct_target_next, direct_target_zero_next, direct_hop_next};
        r_d.part_id = direct_part_id_next;
        r_d.part = direct_part_next;
        r_d.remaining = r_q.remaining - CountWidth'(1);
        if (r_q.options[OptBarriers]) begin
          r_d.state = StateDBarrier;
        end else begin
          r_d.tag = r_q.tag + 1'b1;
          r_d.state = r_q.remaining == CountWidth'(1) ? StateEnd : StateDSend;
        end
      end
      r_q.state[SDBarrier]: if (can_load) begin
        load = 1'b1;
        load_word = collnet_descriptor_pkg::barrier_descriptor(r_q.tag);
        r_d.tag = r_q.tag + 1'b1;
        r_d.state = r_q.remaining == '0 ? StateEnd : StateDSend;
      end
      r_q.state[SEnd]: if (can_load) {load, r_d.state} = {1'b1, StateIdle};
      r_q.state[SIdle]: ;
      default: ;
    endcase
    // the direct program's first offset, in the division's last cycle (a
    // flag of its own, so that the odometer's enables are one LUT)
    if (r_q.dir_init) begin
      for (int e = 0; e < Dims; e++) begin
        r_d.offset[e*SizeWidth +: SizeWidth] = size_q[e*SizeWidth +: SizeWidth] - SizeWidth'(1);
        r_d.offset_zero[e] = r_q.dim_one[e];
        r_d.target[e*SizeWidth +: SizeWidth] = r_q.coord_zero[e]
            ? size_q[e*SizeWidth +: SizeWidth] - SizeWidth'(1)
            : {1'b0, coord_q[e*CoordWidth +: CoordWidth]} - SizeWidth'(1);
        r_d.target_zero[e] = r_q.coord_zero[e] ? r_q.dim_one[e] : coord_q[e*CoordWidth +: CoordWidth] == CoordWidth'(1);
        // the first offset's hops: h(n - 1) on a torus; on a mesh |target - c|:
        // n - 1 where c = 0, else 1
        r_d.hop[e*SizeWidth +: SizeWidth] = torus ? r_q.hop_wrap[e*SizeWidth +: SizeWidth]
            : (r_q.coord_zero[e] ? size_q[e*SizeWidth +: SizeWidth] - SizeWidth'(1) : SizeWidth'(1));
      end
      // the shares: the odometer's step from this node's (direct_*_next)
      r_d.part_id = direct_part_id_next;
      r_d.part = direct_part_next;
      r_d.remaining = r_q.node_count - CountWidth'(1);
    end
    r_d.in_init = r_d.state[SInit];
    // busy_o of the next cycle is 0: idle, and the output buffer empty (the
    // skeleton's out_valid_q: full, a load or a descriptor not taken keep it)
    r_d.idle = r_d.state[SIdle] && can_load && !load && !(out_valid_o && !out_ready_i);
  end

  // ---- coordinate tables: one write port, one synchronous read port ----
  always_ff @(posedge clk_i) begin
    if (table_we) id_mem[{init_dim, init_t[5:0]}] <= acc[IdWidth-1:0];
    if (table_re) rd_id_q <= id_mem[{r_q.run_dim, set_vu}];
  end
  always_ff @(posedge clk_i) begin
    if (table_we) m_mem[{init_dim, init_t[5:0]}] <= acc_m;
    if (table_re) rd_m_q <= m_mem[{r_q.run_dim, set_vu}];
  end

`ifndef SYNTHESIS
  // Register map contract (immediate assertions on the registers, as in
  // schedule_engine_a2a.sv): sizes 1..64 with coordinates below them; DIMS
  // 1..3 for a2a-hopgroup, 1..4 for the direct program.
  always_ff @(posedge clk_i) if (rst_ni && r_q.state[SInit]) begin
    for (int e = 0; e < Dims; e++)
      assert (size_q[e*SizeWidth +: SizeWidth] >= SizeWidth'(1) &&
              size_q[e*SizeWidth +: SizeWidth] <= SizeWidth'(64) &&
              {1'b0, coord_q[e*CoordWidth +: CoordWidth]} < size_q[e*SizeWidth +: SizeWidth])
        else $error("schedule_engine_hopgroup: SIZE%0d must be 1..64 and COORD%0d below it", e, e);
    assert (r_q.dims >= 3'd1 && r_q.dims <= (r_q.algorithm == AlgorithmDirect ? 3'd4 : 3'd3))
      else $error("schedule_engine_hopgroup: DIMS must be 1..3 (hopgroup) or 1..4 (direct)");
  end
`endif

`ifdef FORMAL
  // Formal properties of this engine besides the shared ones (below).
  always @(posedge clk_i) begin
    // Induction strengthening: the state register is one-hot (E2, E3).
    if (rst_ni) E3_onehot: assert ($onehot(r_q.state));
    // The engine's configuration gate is the skeleton's (idle = !busy_o).
    if (rst_ni) E4_idle_gate: assert (r_q.idle == !busy_o && cfg_write_idle == cfg_write);
  end
`endif

  // The skeleton instance (running: the state is not idle) and the formal
  // properties every engine shares (E5 on the registers the
  // configuration port writes; no covers of a program's events: z3 reaches
  // none of its descriptors within 10 minutes).
`define SCHEDULE_ENGINE_RUNNING !r_q.state[SIdle]
`define SCHEDULE_ENGINE_REGS_PKG schedule_engine_hopgroup_regs_pkg
`define SCHEDULE_ENGINE_CONFIG_REGS {r_q.algorithm, r_q.message_words, r_q.options, r_q.gap_slack, r_q.dims, size_q, \
                                     coord_q}
`define SCHEDULE_ENGINE_COVER_PROGRAM 1'b0
`include "schedule_engine_skeleton.svh"

endmodule
