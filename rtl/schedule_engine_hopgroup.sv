// Schedule engine for the all-to-all of document 000: a2a-hopgroup and
// a2a-hopgroup-direct (spec a2a-hopgroup). RTL of
// hls/schedule_engine_hopgroup.hpp, register for register (same names); that
// header documents the programs, the register map, the plan of phase groups
// and the timing. testbench/verilator/schedule_engine_hopgroup_bench.cpp
// checks that this module, the HLS class and the software reference emit the
// same words.
//
// Register map (write-only, cfg_addr_i; writes are ignored while busy_o):
//   0x0 CONTROL bit 0 = start | 0x1 ALGORITHM (0 hopgroup, 1 direct)
//   0x2 MESSAGE_WORDS [19:0]  | 0x3 OPTIONS [0] torus [1] pacing
//   [2] descending [3] directions both [4] mode3d concurrent [5] barriers
//   0x4 GAP_SLACK [7:0] | 0x5 DIMS [2:0] | 0x6..0x9 SIZE0..3 [6:0] (1..64)
//   0xA..0xD COORD0..3 [5:0]
//
// Handshake contract (descriptor side, valid/ready): out_valid_o is a
// register output and does not depend on out_ready_i; a descriptor offered
// and not taken stays offered and unchanged.
//
// Coordinate tables: id_mem[{d, t}] = t * stride_d, m_mem[{d, t}] = t *
// stride_d * m (4 x 64 entries each), one write port and one synchronous
// read port (block RAM), read only by the run setup. The plan registers
// (plan_*) hold, per phase slot of the current group, what the run setup
// needs of the phase, written in the group's planning cycle: the run setup
// starts from registers instead of recomputing the plan (iCE40 critical
// path). Arrays of registers are flat vectors
// (element j at [j*W +: W]): Yosys 0.23 reads no packed multi-dimensional
// arrays.
module schedule_engine_hopgroup (
  /// Clock; every register samples on its rising edge.
  input  logic                                clk_i,
  /// Reset, active low, synchronous to clk_i.
  input  logic                                rst_ni,
  /// Configuration port: write enable (one register per cycle).
  input  logic                                cfg_we_i,
  /// Configuration port: register address (map above).
  input  logic [3:0]                          cfg_addr_i,
  /// Configuration port: write data.
  input  logic [31:0]                         cfg_wdata_i,
  /// Descriptor side: a descriptor is offered.
  output logic                                out_valid_o,
  /// Descriptor side: the consumer takes the descriptor in this cycle.
  input  logic                                out_ready_i,
  /// Descriptor side: the descriptor (collectives/descriptor.hpp layout).
  output collnet_descriptor_pkg::descriptor_t out_desc_o,
  /// From start until END has been taken; configuration writes are ignored.
  output logic                                busy_o
);

  localparam int unsigned Dims = 4;
  localparam int unsigned SizeWidth = 7;    // n_d up to 64, digits, targets
  localparam int unsigned CoordWidth = 6;
  localparam int unsigned CountWidth = 17;  // node counts and strides
  localparam int unsigned IdWidth = 16;
  localparam int unsigned AddrWidth = 20;
  localparam int unsigned TagWidth = collnet_descriptor_pkg::TagWidth;

  localparam logic [3:0] RegControl = 4'h0;
  localparam logic [3:0] RegAlgorithm = 4'h1;
  localparam logic [3:0] RegMessageWords = 4'h2;
  localparam logic [3:0] RegOptions = 4'h3;
  localparam logic [3:0] RegGapSlack = 4'h4;
  localparam logic [3:0] RegDims = 4'h5;
  localparam logic [3:0] RegSize0 = 4'h6;
  localparam logic [3:0] RegCoord0 = 4'hA;
  localparam logic AlgorithmDirect = 1'b1;
  localparam int unsigned OptTorus = 0;
  localparam int unsigned OptPacing = 1;
  localparam int unsigned OptDescending = 2;
  localparam int unsigned OptBoth = 3;
  localparam int unsigned OptConcurrent = 4;
  localparam int unsigned OptBarriers = 5;

  typedef enum logic [3:0] {
    StateIdle     = 4'd0,
    StateInit     = 4'd1,   // coordinate tables
    StateDivide   = 4'd2,   // m / 3
    StateGroup    = 4'd3,   // hopgroup: plan group gi
    StateBarrier  = 4'd4,   // hopgroup: BARRIER tag-1 before step tag > 0
    StateSelect   = 4'd5,   // hopgroup: set up the next run of the step
    StateRun      = 4'd6,   // hopgroup: one SEND per label of the run
    StateDCopy    = 4'd7,   // direct: local copy
    StateDSend    = 4'd8,   // direct: SEND of one offset
    StateDBarrier = 4'd9,   // direct: BARRIER after it
    StateEnd      = 4'd10
  } state_e;

  // configuration
  logic                       algorithm_d, algorithm_q;
  logic [AddrWidth-1:0]       message_words_d, message_words_q;
  logic [5:0]                 options_d, options_q;
  logic [7:0]                 gap_slack_d, gap_slack_q;
  logic [2:0]                 dims_d, dims_q;
  logic [Dims*SizeWidth-1:0]  size_d, size_q;
  logic [Dims*CoordWidth-1:0] coord_d, coord_q;
  state_e                     state_d, state_q;
  // table fill and division
  logic [1:0]                 dim_d, dim_q;
  logic [SizeWidth-1:0]       t_d, t_q;
  logic [CountWidth-1:0]      acc_d, acc_q;
  logic [AddrWidth-1:0]       acc_m_d, acc_m_q;
  logic [CountWidth-1:0]      stride_cur_d, stride_cur_q;
  logic [AddrWidth-1:0]       mstride_cur_d, mstride_cur_q;
  logic [Dims*AddrWidth-1:0]  mstride_d, mstride_q;   // stride_d * m
  logic [Dims*IdWidth-1:0]    stride_id_d, stride_id_q;  // stride_d
  logic [Dims*IdWidth-1:0]    own_id_d, own_id_q;        // c_d * stride_d
  logic [Dims*AddrWidth-1:0]  own_m_d, own_m_q;          // c_d * stride_d * m
  logic [Dims*IdWidth-1:0]    last_id_d, last_id_q;      // (n_d - 1) * stride_d
  logic [Dims*AddrWidth-1:0]  last_m_d, last_m_q;        // (n_d - 1) * stride_d * m
  logic [IdWidth-1:0]         self_id_d, self_id_q;
  logic [AddrWidth-1:0]       self_m_d, self_m_q;
  logic [CountWidth-1:0]      node_count_d, node_count_q;
  logic [AddrWidth-1:0]       bank_words_d, bank_words_q;
  logic [1:0]                 rem_d, rem_q;
  logic [AddrWidth-1:0]       quot_d, quot_q;
  // hopgroup sequencing
  logic [3:0]                 group_d, group_q;
  logic [7:0]                 group_steps_d, group_steps_q;
  logic [7:0]                 step_d, step_q;
  logic [TagWidth-1:0]        tag_d, tag_q;
  logic [2:0]                 bank_d, bank_q;
  logic [1:0]                 slot_d, slot_q;
  logic [1:0]                 sub_d, sub_q;
  // plan of the current group, per phase slot s at [s*W +: W] (StateGroup)
  logic [2:0]                 plan_valid_d, plan_valid_q;
  logic [3*2-1:0]             plan_dim_d, plan_dim_q;
  logic [3*2-1:0]             plan_piece_d, plan_piece_q;
  logic [3*SizeWidth-1:0]     plan_n_d, plan_n_q;        // n_d
  logic [3*CoordWidth-1:0]    plan_c_d, plan_c_q;        // c_d
  logic [3*8-1:0]             plan_steps_d, plan_steps_q; // steps of the phase, 0 if none
  logic [3*AddrWidth-1:0]     plan_words_d, plan_words_q; // piece words
  logic [3*AddrWidth-1:0]     plan_poff_d, plan_poff_q;   // piece offset
  // current run
  logic [1:0]                 run_dim_d, run_dim_q;
  logic [IdWidth-1:0]         run_dest_d, run_dest_q;
  logic [AddrWidth-1:0]       run_src_d, run_src_q;
  logic [AddrWidth-1:0]       run_dst_d, run_dst_q;
  logic [AddrWidth-1:0]       run_words_d, run_words_q;
  logic [7:0]                 run_hint_d, run_hint_q;
  logic [7:0]                 run_gap_d, run_gap_q;
  logic [7:0]                 run_slack_d, run_slack_q;
  // odometers
  logic [Dims*SizeWidth-1:0]  digit_d, digit_q;
  logic [Dims*AddrWidth-1:0]  part_d, part_q;
  logic [Dims*SizeWidth-1:0]  target_d, target_q;
  logic [Dims*IdWidth-1:0]    part_id_d, part_id_q;  // direct: target * stride
  logic [IdWidth-1:0]         rd_id_q;               // table read port (run setup)
  logic [AddrWidth-1:0]       rd_m_q;
  logic [CountWidth-1:0]      remaining_d, remaining_q;
  // output register
  logic                       out_valid_d, out_valid_q;
  collnet_descriptor_pkg::descriptor_t out_d, out_q;

  // coordinate tables
  logic [IdWidth-1:0]         id_mem [Dims*64];
  logic [AddrWidth-1:0]       m_mem [Dims*64];
  logic                       table_we;
  logic                       table_re;

  assign out_valid_o = out_valid_q;
  assign out_desc_o  = out_q;
  assign busy_o      = (state_q != StateIdle) || out_valid_q;

  logic unused_cfg_wdata;
  assign unused_cfg_wdata = ^cfg_wdata_i[31:AddrWidth];

  logic torus, pacing, three_d;
  assign torus = options_q[OptTorus];
  assign pacing = options_q[OptPacing];
  assign three_d = dims_q == 3'd3;

  function automatic logic [SizeWidth-1:0] size_of(input logic [Dims*SizeWidth-1:0] sizes, input logic [1:0] e);
    size_of = sizes[e*SizeWidth +: SizeWidth];
  endfunction

  // ---- plan (hls: phase_of, phase_steps, piece_words, piece_offset) ----
  logic [3:0] group_count;
  assign group_count = !three_d ? {1'b0, dims_q} : (options_q[OptConcurrent] ? 4'd3 : 4'd9);

  /// Phase `slot` of group `gi`: {valid, dim[1:0], piece[1:0]}.
  function automatic logic [4:0] phase_of(input logic [3:0] gi, input logic [1:0] slot);
    logic       valid;
    logic [1:0] dim, piece, round, j;
    logic [2:0] sum;
    round = gi >= 4'd6 ? 2'd2 : (gi >= 4'd3 ? 2'd1 : 2'd0);
    j = 2'(gi - {round, 1'b0} - {2'b00, round});
    if (!three_d) begin
      valid = slot == 2'd0;
      dim = gi[1:0];
      piece = 2'd0;
    end else if (options_q[OptConcurrent]) begin
      valid = 1'b1;
      dim = slot;
      sum = {1'b0, gi[1:0]} + {1'b0, slot};
      piece = sum >= 3'd3 ? 2'(sum - 3'd3) : sum[1:0];
    end else begin
      valid = slot == 2'd0;
      dim = j == 2'd0 ? 2'd0 : (j == 2'd1 ? 2'd2 : 2'd1);
      sum = {1'b0, round} + {1'b0, dim};
      piece = sum >= 3'd3 ? 2'(sum - 3'd3) : sum[1:0];
    end
    if (size_of(size_q, dim) == SizeWidth'(1)) valid = 1'b0;  // nothing to cross
    phase_of = {valid, dim, piece};
  endfunction

  function automatic logic [7:0] phase_steps(input logic [SizeWidth-1:0] n);
    if (!options_q[OptTorus]) phase_steps = {n, 1'b0} - 8'd2;
    else if (options_q[OptBoth]) phase_steps = {2'b00, n[SizeWidth-1:1]};
    else phase_steps = {1'b0, n} - 8'd1;
  endfunction

  function automatic logic [AddrWidth-1:0] piece_words(input logic [1:0] piece);
    if (!three_d) piece_words = message_words_q;
    else piece_words = quot_q + AddrWidth'(piece < rem_q);  // the first m mod 3 pieces one word longer
  endfunction

  // ---- group planning: steps of the group (max over its phases) ----
  logic [7:0] plan_steps;
  always_comb begin
    /* verilator lint_off UNUSEDSIGNAL */
    logic [4:0] p;  // the piece is not needed here
    /* verilator lint_on UNUSEDSIGNAL */
    plan_steps = '0;
    for (int s = 0; s < 3; s++) begin
      p = phase_of(group_q, 2'(s));
      if (p[4] && phase_steps(size_of(size_q, p[3:2])) > plan_steps) plan_steps = phase_steps(size_of(size_q, p[3:2]));
    end
  end

  // bank bits flipped at the end of the group
  logic [2:0] group_flip;
  always_comb begin
    group_flip = '0;
    for (int s = 0; s < 3; s++)
      if (plan_valid_q[s]) group_flip[plan_piece_q[s*2 +: 2]] = 1'b1;
  end

  // ---- run setup (hls: select_step) ----
  logic                  sel_valid;
  logic [1:0]            sel_dim, sel_piece;
  logic [SizeWidth-1:0]  sel_n;
  logic [CoordWidth-1:0] sel_c;
  logic [7:0]            sel_steps, sel_i, sel_hops;
  logic [7:0]            sel_rest, sel_flows;  // flows on a link: the pacing gap is sel_flows - 1
  logic [AddrWidth-1:0]  sel_words, sel_poff;
  logic                  sel_active, sel_exists, sel_negative;
  logic signed [9:0]     sel_v;
  logic [5:0]            sel_vu;
  always_comb begin
    // the phase of the slot, from the plan registers (slot 3 is not read)
    sel_valid = plan_valid_q[0];
    sel_dim = plan_dim_q[0 +: 2];
    sel_piece = plan_piece_q[0 +: 2];
    sel_n = plan_n_q[0 +: SizeWidth];
    sel_c = plan_c_q[0 +: CoordWidth];
    sel_steps = plan_steps_q[0 +: 8];
    sel_words = plan_words_q[0 +: AddrWidth];
    sel_poff = plan_poff_q[0 +: AddrWidth];
    for (int s = 1; s < 3; s++) begin
      if (slot_q == 2'(s)) begin
        sel_valid = plan_valid_q[s];
        sel_dim = plan_dim_q[s*2 +: 2];
        sel_piece = plan_piece_q[s*2 +: 2];
        sel_n = plan_n_q[s*SizeWidth +: SizeWidth];
        sel_c = plan_c_q[s*CoordWidth +: CoordWidth];
        sel_steps = plan_steps_q[s*8 +: 8];
        sel_words = plan_words_q[s*AddrWidth +: AddrWidth];
        sel_poff = plan_poff_q[s*AddrWidth +: AddrWidth];
      end
    end
    sel_active = sel_valid && step_q < sel_steps && sel_words != '0;
    sel_i = options_q[OptDescending] ? sel_steps - 8'd1 - step_q : step_q;
    sel_hops = '0;
    sel_negative = 1'b0;
    sel_exists = 1'b1;
    if (sub_q == 2'd0) begin
      sel_exists = step_q == 8'd0;  // the local copy, in the phase's first step
    end else if (!torus) begin
      sel_exists = sub_q == 2'd1;
      sel_hops = {1'b0, sel_i[7:1]} + 8'd1;
      sel_negative = sel_i[0];
    end else if (options_q[OptBoth]) begin
      sel_hops = sel_i + 8'd1;
      sel_negative = sub_q != 2'd1;
      sel_exists = sub_q == 2'd1 || {sel_hops, 1'b0} != {2'b00, sel_n};
    end else begin
      sel_exists = sub_q == 2'd1;
      sel_hops = sel_i + 8'd1;
    end
    // a mesh offset of h loads a link with min(h, n - h) flows (only n - h
    // nodes have a destination); a torus one with h
    sel_rest = {1'b0, sel_n} - sel_hops;
    sel_flows = (!torus && sel_rest < sel_hops) ? sel_rest : sel_hops;
    sel_v = sel_negative ? $signed({4'b0000, sel_c}) - $signed({2'b00, sel_hops})
                         : $signed({4'b0000, sel_c}) + $signed({2'b00, sel_hops});
    if (torus) begin
      if (sel_v < 0) sel_v = sel_v + $signed({3'b000, sel_n});
      else if (sel_v >= $signed({3'b000, sel_n})) sel_v = sel_v - $signed({3'b000, sel_n});
    end else if (sel_v < 0 || sel_v >= $signed({3'b000, sel_n})) begin
      sel_exists = 1'b0;  // mesh: n_d + k does not exist
    end
    sel_vu = sel_v[5:0];
  end

  // ---- run emission: labels of the hyperplane, odometer skipping run_dim ----
  logic [AddrWidth-1:0]      run_part;
  logic [Dims*SizeWidth-1:0] run_digit_next;
  logic [Dims*AddrWidth-1:0] run_part_next;
  logic                      run_done;
  always_comb begin
    logic carry, wraps;
    run_part = '0;
    for (int e = 0; e < Dims; e++) run_part = run_part + part_q[e*AddrWidth +: AddrWidth];
    run_digit_next = digit_q;
    run_part_next = part_q;
    carry = 1'b1;
    wraps = 1'b0;
    for (int e = 0; e < Dims; e++) begin
      if (carry && 2'(e) != run_dim_q) begin
        wraps = digit_q[e*SizeWidth +: SizeWidth] + SizeWidth'(1) == size_q[e*SizeWidth +: SizeWidth];
        run_digit_next[e*SizeWidth +: SizeWidth] = wraps ? '0 : digit_q[e*SizeWidth +: SizeWidth] + SizeWidth'(1);
        run_part_next[e*AddrWidth +: AddrWidth] =
            wraps ? '0 : part_q[e*AddrWidth +: AddrWidth] + mstride_q[e*AddrWidth +: AddrWidth];
        carry = wraps;
      end
    end
    run_done = carry;
  end

  // ---- direct: the SEND of the current offset and the next offset ----
  logic [IdWidth-1:0]        direct_dest;
  logic [AddrWidth-1:0]      direct_src;
  logic [7:0]                direct_hops;
  logic [Dims*SizeWidth-1:0] direct_digit_next, direct_target_next;
  logic [Dims*IdWidth-1:0]   direct_part_id_next;
  logic [Dims*AddrWidth-1:0] direct_part_next;
  always_comb begin
    logic [SizeWidth-1:0] o, n, t, c, h;
    logic borrow;
    direct_dest = '0;
    direct_src = '0;
    direct_hops = '0;
    for (int e = 0; e < Dims; e++) begin
      t = target_q[e*SizeWidth +: SizeWidth];
      o = digit_q[e*SizeWidth +: SizeWidth];
      n = size_q[e*SizeWidth +: SizeWidth];
      c = {1'b0, coord_q[e*CoordWidth +: CoordWidth]};
      direct_dest = direct_dest + part_id_q[e*IdWidth +: IdWidth];
      direct_src = direct_src + part_q[e*AddrWidth +: AddrWidth];
      // the shorter way round a torus, the distance on a mesh
      if (torus) h = o <= n - o ? o : n - o;
      else h = t >= c ? t - c : c - t;
      direct_hops = direct_hops + {1'b0, h};
    end
    direct_digit_next = digit_q;
    direct_target_next = target_q;
    direct_part_id_next = part_id_q;
    direct_part_next = part_q;
    borrow = 1'b1;
    for (int j = 0; j < Dims; j++) begin
      if (borrow) begin
        o = digit_q[(Dims-1-j)*SizeWidth +: SizeWidth];
        t = target_q[(Dims-1-j)*SizeWidth +: SizeWidth];
        n = size_q[(Dims-1-j)*SizeWidth +: SizeWidth];
        direct_digit_next[(Dims-1-j)*SizeWidth +: SizeWidth] = o == '0 ? n - SizeWidth'(1) : o - SizeWidth'(1);
        direct_target_next[(Dims-1-j)*SizeWidth +: SizeWidth] = t == '0 ? n - SizeWidth'(1) : t - SizeWidth'(1);
        // the target's share of dest and src: one stride less, or the last entry on a wrap
        direct_part_id_next[(Dims-1-j)*IdWidth +: IdWidth] = t == '0 ? last_id_q[(Dims-1-j)*IdWidth +: IdWidth]
            : part_id_q[(Dims-1-j)*IdWidth +: IdWidth] - stride_id_q[(Dims-1-j)*IdWidth +: IdWidth];
        direct_part_next[(Dims-1-j)*AddrWidth +: AddrWidth] = t == '0 ? last_m_q[(Dims-1-j)*AddrWidth +: AddrWidth]
            : part_q[(Dims-1-j)*AddrWidth +: AddrWidth] - mstride_q[(Dims-1-j)*AddrWidth +: AddrWidth];
        borrow = o == '0;
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
    algorithm_d = algorithm_q;
    message_words_d = message_words_q;
    options_d = options_q;
    gap_slack_d = gap_slack_q;
    dims_d = dims_q;
    size_d = size_q;
    coord_d = coord_q;
    state_d = state_q;
    dim_d = dim_q;
    t_d = t_q;
    acc_d = acc_q;
    acc_m_d = acc_m_q;
    stride_cur_d = stride_cur_q;
    mstride_cur_d = mstride_cur_q;
    mstride_d = mstride_q;
    stride_id_d = stride_id_q;
    own_id_d = own_id_q;
    own_m_d = own_m_q;
    last_id_d = last_id_q;
    last_m_d = last_m_q;
    part_id_d = part_id_q;
    self_id_d = self_id_q;
    self_m_d = self_m_q;
    node_count_d = node_count_q;
    bank_words_d = bank_words_q;
    rem_d = rem_q;
    quot_d = quot_q;
    group_d = group_q;
    group_steps_d = group_steps_q;
    step_d = step_q;
    tag_d = tag_q;
    bank_d = bank_q;
    slot_d = slot_q;
    sub_d = sub_q;
    plan_valid_d = plan_valid_q;
    plan_dim_d = plan_dim_q;
    plan_piece_d = plan_piece_q;
    plan_n_d = plan_n_q;
    plan_c_d = plan_c_q;
    plan_steps_d = plan_steps_q;
    plan_words_d = plan_words_q;
    plan_poff_d = plan_poff_q;
    plan_p = '0;
    run_dim_d = run_dim_q;
    run_dest_d = run_dest_q;
    run_src_d = run_src_q;
    run_dst_d = run_dst_q;
    run_words_d = run_words_q;
    run_hint_d = run_hint_q;
    run_gap_d = run_gap_q;
    run_slack_d = run_slack_q;
    digit_d = digit_q;
    part_d = part_q;
    target_d = target_q;
    remaining_d = remaining_q;
    load = 1'b0;
    load_word = '0;
    table_we = 1'b0;
    table_re = 1'b0;
    can_load = !out_valid_q || out_ready_i;
    div_index = 5'(AddrWidth - 1) - t_q[4:0];
    div_bit = message_words_q[div_index];
    div_rem = {rem_q, div_bit};

    // configuration port
    if (cfg_we_i && !busy_o) begin
      unique case (cfg_addr_i)
        RegControl: begin
          if (cfg_wdata_i[0]) begin
            state_d = StateInit;
            dim_d = '0;
            t_d = '0;
            acc_d = '0;
            acc_m_d = '0;
            stride_cur_d = CountWidth'(1);
            mstride_cur_d = message_words_q;
            self_id_d = '0;
            self_m_d = '0;
            rem_d = '0;
            quot_d = '0;
            group_d = '0;
            tag_d = '0;
            bank_d = '0;
          end
        end
        RegAlgorithm: algorithm_d = cfg_wdata_i[0];
        RegMessageWords: message_words_d = cfg_wdata_i[AddrWidth-1:0];
        RegOptions: options_d = cfg_wdata_i[5:0];
        RegGapSlack: gap_slack_d = cfg_wdata_i[7:0];
        RegDims: dims_d = cfg_wdata_i[2:0];
        default: begin
          for (int e = 0; e < Dims; e++) begin
            if (cfg_addr_i == RegSize0 + 4'(e)) size_d[e*SizeWidth +: SizeWidth] = cfg_wdata_i[SizeWidth-1:0];
            if (cfg_addr_i == RegCoord0 + 4'(e)) coord_d[e*CoordWidth +: CoordWidth] = cfg_wdata_i[CoordWidth-1:0];
          end
        end
      endcase
    end

    unique case (state_q)
      StateIdle: ;
      StateInit: begin
        // t*stride_d, t*stride_d*m for t < n_d; own share at t = c_d; next stride at t = n_d
        table_we = t_q < size_of(size_q, dim_q);
        if (t_q == {1'b0, coord_q[dim_q*CoordWidth +: CoordWidth]}) begin
          self_id_d = self_id_q + acc_q[IdWidth-1:0];
          self_m_d = self_m_q + acc_m_q;
          own_id_d[dim_q*IdWidth +: IdWidth] = acc_q[IdWidth-1:0];
          own_m_d[dim_q*AddrWidth +: AddrWidth] = acc_m_q;
        end
        if (t_q + SizeWidth'(1) == size_of(size_q, dim_q)) begin
          last_id_d[dim_q*IdWidth +: IdWidth] = acc_q[IdWidth-1:0];
          last_m_d[dim_q*AddrWidth +: AddrWidth] = acc_m_q;
        end
        if (t_q == size_of(size_q, dim_q)) begin
          stride_id_d[dim_q*IdWidth +: IdWidth] = stride_cur_q[IdWidth-1:0];
          mstride_d[dim_q*AddrWidth +: AddrWidth] = mstride_cur_q;
          stride_cur_d = acc_q;
          mstride_cur_d = acc_m_q;
          t_d = '0;
          acc_d = '0;
          acc_m_d = '0;
          if (dim_q == 2'd3) begin
            node_count_d = acc_q;
            bank_words_d = acc_m_q;
            state_d = StateDivide;
          end else begin
            dim_d = dim_q + 2'd1;
          end
        end else begin
          t_d = t_q + SizeWidth'(1);
          acc_d = acc_q + stride_cur_q;
          acc_m_d = acc_m_q + mstride_cur_q;
        end
      end
      StateDivide: begin
        // restoring division of m by 3, most significant bit first
        rem_d = div_rem >= 3'd3 ? 2'(div_rem - 3'd3) : div_rem[1:0];
        quot_d = {quot_q[AddrWidth-2:0], div_rem >= 3'd3};
        t_d = t_q + SizeWidth'(1);
        if (t_q == SizeWidth'(AddrWidth - 1)) begin
          if (algorithm_q == AlgorithmDirect) begin
            state_d = StateDCopy;
            for (int e = 0; e < Dims; e++) begin
              digit_d[e*SizeWidth +: SizeWidth] = size_q[e*SizeWidth +: SizeWidth] - SizeWidth'(1);
              target_d[e*SizeWidth +: SizeWidth] = coord_q[e*CoordWidth +: CoordWidth] == '0
                  ? size_q[e*SizeWidth +: SizeWidth] - SizeWidth'(1)
                  : {1'b0, coord_q[e*CoordWidth +: CoordWidth]} - SizeWidth'(1);
              part_id_d[e*IdWidth +: IdWidth] = coord_q[e*CoordWidth +: CoordWidth] == '0
                  ? last_id_q[e*IdWidth +: IdWidth] : own_id_q[e*IdWidth +: IdWidth] - stride_id_q[e*IdWidth +: IdWidth];
              part_d[e*AddrWidth +: AddrWidth] = coord_q[e*CoordWidth +: CoordWidth] == '0
                  ? last_m_q[e*AddrWidth +: AddrWidth] : own_m_q[e*AddrWidth +: AddrWidth] - mstride_q[e*AddrWidth +: AddrWidth];
            end
            remaining_d = node_count_q - CountWidth'(1);
          end else begin
            state_d = StateGroup;
          end
        end
      end
      StateGroup: begin
        if (group_q == group_count) begin
          state_d = StateEnd;
        end else if (plan_steps == 8'd0) begin
          group_d = group_q + 4'd1;  // no phase: no step
        end else begin
          group_steps_d = plan_steps;
          for (int s = 0; s < 3; s++) begin
            plan_p = phase_of(group_q, 2'(s));
            plan_valid_d[s] = plan_p[4];
            plan_dim_d[s*2 +: 2] = plan_p[3:2];
            plan_piece_d[s*2 +: 2] = plan_p[1:0];
            plan_n_d[s*SizeWidth +: SizeWidth] = size_of(size_q, plan_p[3:2]);
            plan_c_d[s*CoordWidth +: CoordWidth] = coord_q[plan_p[3:2]*CoordWidth +: CoordWidth];
            plan_steps_d[s*8 +: 8] = plan_p[4] ? phase_steps(size_of(size_q, plan_p[3:2])) : 8'd0;
            plan_words_d[s*AddrWidth +: AddrWidth] = piece_words(plan_p[1:0]);
            plan_poff_d[s*AddrWidth +: AddrWidth] = (plan_p[1:0] >= 2'd1 ? piece_words(2'd0) : '0) +
                                                    (plan_p[1:0] >= 2'd2 ? piece_words(2'd1) : '0);
          end
          step_d = '0;
          slot_d = '0;
          sub_d = '0;
          state_d = tag_q != '0 ? StateBarrier : StateSelect;
        end
      end
      StateBarrier: begin
        if (can_load) begin
          load = 1'b1;
          load_word.opcode = collnet_descriptor_pkg::OpcodeBarrier;
          load_word.tag = tag_q - 1'b1;
          state_d = StateSelect;
        end
      end
      StateSelect: begin
        if (slot_q == 2'd3) begin
          // step done
          tag_d = tag_q + 1'b1;
          slot_d = '0;
          sub_d = '0;
          if (step_q + 8'd1 == group_steps_q) begin
            bank_d = bank_q ^ group_flip;
            group_d = group_q + 4'd1;
            state_d = StateGroup;
          end else begin
            step_d = step_q + 8'd1;
            state_d = StateBarrier;
          end
        end else if (!sel_active || sub_q == 2'd3) begin
          slot_d = slot_q + 2'd1;
          sub_d = '0;
        end else if (!sel_exists) begin
          sub_d = sub_q + 2'd1;
        end else begin
          run_dim_d = sel_dim;
          run_words_d = sel_words;
          // one synchronous read of each table (entry v); the entry c_d is a register
          table_re = 1'b1;
          run_dest_d = self_id_q - own_id_q[sel_dim*IdWidth +: IdWidth];
          run_src_d = (bank_q[sel_piece] ? bank_words_q : '0) + sel_poff;
          run_dst_d = (bank_q[sel_piece] ? '0 : bank_words_q) + own_m_q[sel_dim*AddrWidth +: AddrWidth] + sel_poff;
          if (sub_q == 2'd0) begin
            run_hint_d = '0;
            run_gap_d = '0;
            run_slack_d = '0;
          end else begin
            run_hint_d = (sel_negative ? 8'd2 : 8'd1) << {sel_dim, 1'b0};
            run_gap_d = pacing ? sel_flows - 8'd1 : 8'd0;
            run_slack_d = pacing ? gap_slack_q : 8'd0;
          end
          digit_d = '0;
          part_d = '0;
          state_d = StateRun;
        end
      end
      StateRun: begin
        if (can_load) begin
          load = 1'b1;
          load_word.opcode = collnet_descriptor_pkg::OpcodeSend;
          load_word.controller = {1'b0, run_dim_q};
          load_word.route_hint = run_hint_q;
          load_word.gap = run_gap_q;
          load_word.slack = run_slack_q;
          load_word.dest = run_dest_q + rd_id_q;
          load_word.src_offset = run_src_q + rd_m_q + run_part;
          load_word.dst_offset = run_dst_q + run_part;
          load_word.length = run_words_q;
          load_word.tag = tag_q;
          digit_d = run_digit_next;
          part_d = run_part_next;
          if (run_done) begin
            state_d = StateSelect;
            sub_d = sub_q + 2'd1;
          end
        end
      end
      StateDCopy: begin
        if (can_load) begin
          load = 1'b1;
          load_word.opcode = collnet_descriptor_pkg::OpcodeSend;
          load_word.dest = self_id_q;
          load_word.src_offset = self_m_q;
          load_word.dst_offset = bank_words_q + self_m_q;
          load_word.length = message_words_q;
          tag_d = '0;
          state_d = remaining_q == '0 ? StateEnd : StateDSend;
        end
      end
      StateDSend: begin
        if (can_load) begin
          load = 1'b1;
          load_word.opcode = collnet_descriptor_pkg::OpcodeSend;
          load_word.gap = pacing ? direct_hops - 8'd1 : 8'd0;
          load_word.slack = pacing ? gap_slack_q : 8'd0;
          load_word.dest = direct_dest;
          load_word.src_offset = direct_src;
          load_word.dst_offset = bank_words_q + self_m_q;
          load_word.length = message_words_q;
          load_word.tag = tag_q;
          digit_d = direct_digit_next;
          target_d = direct_target_next;
          part_id_d = direct_part_id_next;
          part_d = direct_part_next;
          remaining_d = remaining_q - CountWidth'(1);
          if (options_q[OptBarriers]) begin
            state_d = StateDBarrier;
          end else begin
            tag_d = tag_q + 1'b1;
            state_d = remaining_q == CountWidth'(1) ? StateEnd : StateDSend;
          end
        end
      end
      StateDBarrier: begin
        if (can_load) begin
          load = 1'b1;
          load_word.opcode = collnet_descriptor_pkg::OpcodeBarrier;
          load_word.tag = tag_q;
          tag_d = tag_q + 1'b1;
          state_d = remaining_q == '0 ? StateEnd : StateDSend;
        end
      end
      StateEnd: begin
        if (can_load) begin
          load = 1'b1;  // END is the zero word
          state_d = StateIdle;
        end
      end
      default: state_d = StateIdle;
    endcase

    out_valid_d = out_valid_q;
    out_d = out_q;
    if (load) begin
      out_valid_d = 1'b1;
      out_d = load_word;
    end else if (out_ready_i) begin
      out_valid_d = 1'b0;
    end
  end

  // ---- coordinate tables: one write port, one synchronous read port ----
  always_ff @(posedge clk_i) begin
    if (table_we) id_mem[{dim_q, t_q[5:0]}] <= acc_q[IdWidth-1:0];
    if (table_re) rd_id_q <= id_mem[{sel_dim, sel_vu}];
  end
  always_ff @(posedge clk_i) begin
    if (table_we) m_mem[{dim_q, t_q[5:0]}] <= acc_m_q;
    if (table_re) rd_m_q <= m_mem[{sel_dim, sel_vu}];
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      algorithm_q     <= 1'b0;
      message_words_q <= AddrWidth'(1);
      options_q       <= '0;
      gap_slack_q     <= '0;
      dims_q          <= 3'd1;
      size_q          <= {Dims{SizeWidth'(1)}};
      coord_q         <= '0;
      state_q         <= StateIdle;
      dim_q           <= '0;
      t_q             <= '0;
      acc_q           <= '0;
      acc_m_q         <= '0;
      stride_cur_q    <= CountWidth'(1);
      mstride_cur_q   <= '0;
      mstride_q       <= '0;
      stride_id_q     <= '0;
      own_id_q        <= '0;
      own_m_q         <= '0;
      last_id_q       <= '0;
      last_m_q        <= '0;
      part_id_q       <= '0;
      self_id_q       <= '0;
      self_m_q        <= '0;
      node_count_q    <= '0;
      bank_words_q    <= '0;
      rem_q           <= '0;
      quot_q          <= '0;
      group_q         <= '0;
      group_steps_q   <= '0;
      step_q          <= '0;
      tag_q           <= '0;
      bank_q          <= '0;
      slot_q          <= '0;
      sub_q           <= '0;
      plan_valid_q    <= '0;
      plan_dim_q      <= '0;
      plan_piece_q    <= '0;
      plan_n_q        <= '0;
      plan_c_q        <= '0;
      plan_steps_q    <= '0;
      plan_words_q    <= '0;
      plan_poff_q     <= '0;
      run_dim_q       <= '0;
      run_dest_q      <= '0;
      run_src_q       <= '0;
      run_dst_q       <= '0;
      run_words_q     <= '0;
      run_hint_q      <= '0;
      run_gap_q       <= '0;
      run_slack_q     <= '0;
      digit_q         <= '0;
      part_q          <= '0;
      target_q        <= '0;
      remaining_q     <= '0;
      out_valid_q     <= 1'b0;
      out_q           <= '0;
    end else begin
      algorithm_q     <= algorithm_d;
      message_words_q <= message_words_d;
      options_q       <= options_d;
      gap_slack_q     <= gap_slack_d;
      dims_q          <= dims_d;
      size_q          <= size_d;
      coord_q         <= coord_d;
      state_q         <= state_d;
      dim_q           <= dim_d;
      t_q             <= t_d;
      acc_q           <= acc_d;
      acc_m_q         <= acc_m_d;
      stride_cur_q    <= stride_cur_d;
      mstride_cur_q   <= mstride_cur_d;
      mstride_q       <= mstride_d;
      stride_id_q     <= stride_id_d;
      own_id_q        <= own_id_d;
      own_m_q         <= own_m_d;
      last_id_q       <= last_id_d;
      last_m_q        <= last_m_d;
      part_id_q       <= part_id_d;
      self_id_q       <= self_id_d;
      self_m_q        <= self_m_d;
      node_count_q    <= node_count_d;
      bank_words_q    <= bank_words_d;
      rem_q           <= rem_d;
      quot_q          <= quot_d;
      group_q         <= group_d;
      group_steps_q   <= group_steps_d;
      step_q          <= step_d;
      tag_q           <= tag_d;
      bank_q          <= bank_d;
      slot_q          <= slot_d;
      sub_q           <= sub_d;
      plan_valid_q    <= plan_valid_d;
      plan_dim_q      <= plan_dim_d;
      plan_piece_q    <= plan_piece_d;
      plan_n_q        <= plan_n_d;
      plan_c_q        <= plan_c_d;
      plan_steps_q    <= plan_steps_d;
      plan_words_q    <= plan_words_d;
      plan_poff_q     <= plan_poff_d;
      run_dim_q       <= run_dim_d;
      run_dest_q      <= run_dest_d;
      run_src_q       <= run_src_d;
      run_dst_q       <= run_dst_d;
      run_words_q     <= run_words_d;
      run_hint_q      <= run_hint_d;
      run_gap_q       <= run_gap_d;
      run_slack_q     <= run_slack_d;
      digit_q         <= digit_d;
      part_q          <= part_d;
      target_q        <= target_d;
      remaining_q     <= remaining_d;
      out_valid_q     <= out_valid_d;
      out_q           <= out_d;
    end
  end

`ifndef SYNTHESIS
  // Output contract: an offered descriptor stays offered and unchanged until taken.
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      (out_valid_o && !out_ready_i) |=> (out_valid_o && $stable(out_desc_o)))
    else $error("schedule_engine_hopgroup: descriptor withdrawn or changed before out_ready_i");

  // Register map contract: sizes 1..64 with coordinates below them; DIMS 1..3
  // for a2a-hopgroup, 1..4 for the direct program.
  for (genvar e = 0; e < Dims; e++) begin : g_size_check
    assert property (@(posedge clk_i) disable iff (!rst_ni)
        (state_q == StateInit) |->
          (size_q[e*SizeWidth +: SizeWidth] >= SizeWidth'(1) && size_q[e*SizeWidth +: SizeWidth] <= SizeWidth'(64) &&
           {1'b0, coord_q[e*CoordWidth +: CoordWidth]} < size_q[e*SizeWidth +: SizeWidth]))
      else $error("schedule_engine_hopgroup: SIZE%0d must be 1..64 and COORD%0d below it", e, e);
  end
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      (state_q == StateInit) |-> (dims_q >= 3'd1 && dims_q <= (algorithm_q == AlgorithmDirect ? 3'd4 : 3'd3)))
    else $error("schedule_engine_hopgroup: DIMS must be 1..3 (hopgroup) or 1..4 (direct)");
`endif

endmodule
