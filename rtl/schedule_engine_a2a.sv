// Schedule engine for the all-to-all baselines of document 001 (a2a-spread,
// a2a-nd): expands one node's program into its descriptor stream, at most one
// descriptor per cycle. RTL of hls/schedule_engine_a2a.hpp, register for
// register (same names); that header documents the stream, the register map
// and the timing. bench/verilator/schedule_engine_a2a_bench.cpp checks that
// this module, the HLS class and the software reference emit the same words.
//
// Arrays are flat vectors (slot j at [j*W +: W]): Yosys 0.23 reads no packed
// multi-dimensional arrays. Slot j holds dimension 3 - j (slot 0 is the
// fastest digit of the offset odometer).
//
// Register map: package schedule_engine_a2a_regs_pkg (schedule_engine_regs_pkg.sv,
// generated from hls/engine_registers.yaml into build/generated/rtl/);
// ports: schedule_engine_ports.svh; registers and output buffer: common/schedule_engine_skeleton.sv
// (instance and the shared formal properties: schedule_engine_skeleton.svh);
// closing states: schedule_engine_states.svh.
`include "schedule_engine_states.svh"

module schedule_engine_a2a (
`include "schedule_engine_ports.svh"
);

  localparam int unsigned Dims = 4;
  localparam int unsigned SizeWidth = 16;   // n_d, c_d
  localparam int unsigned CountWidth = 17;  // node counts and strides, up to 65536
  localparam int unsigned AddrWidth = 20;   // word addresses
  localparam int unsigned GroupWidth = collnet_descriptor_pkg::TagWidth;

  localparam logic AlgorithmSpread = 1'b0;

  typedef enum logic [2:0] {StateIdle, StateInit, StateFirst, StateSend, StateCopy, StateEnd, StateBarrier} state_e;

  /// Every register of the engine (_d the next value, _q the current one).
  typedef struct packed {
    // configuration
    logic                          algorithm;
    logic [2:0]                    nct;
    logic [AddrWidth-1:0]          message_words;
    state_e                        state;
    logic [AddrWidth-1:0]          result_base;  // N x m
    // odometer slots
    // a slot's size n as n - 2 (an offset or target there is followed by
    // the last one) and n = 1: the compares of its next flags
    logic [Dims*CountWidth-1:0]    slot_nm2;
    logic [Dims-1:0]               slot_one;
    logic [Dims*CountWidth-1:0]    slot_stride;
    logic [Dims*AddrWidth-1:0]     slot_mstride;
    logic [Dims*CountWidth-1:0]    slot_offset;
    logic [Dims*CountWidth-1:0]    slot_target;
    logic [Dims*CountWidth-1:0]    slot_part;
    logic [Dims*AddrWidth-1:0]     slot_mpart;
    // kept with the slots: offset + 1 == n and target + 1 == n (the slot
    // wraps at its next step), part + stride and mpart + mstride (its next
    // part), and the sums of the parts (the SEND's destination and source)
    logic [Dims-1:0]               off_last, tgt_last;
    // the odometer's carry into slot j (slot 0 always steps): the AND of
    // off_last of slots 0..j-1, kept beside the flags
    logic [Dims-1:1]               carry_in;
    logic [Dims*CountWidth-1:0]    slot_pinc;
    logic [Dims*AddrWidth-1:0]     slot_mpinc;
    logic [CountWidth-1:0]         dest_sum;
    logic [AddrWidth-1:0]          src_sum;
    // the start-up's view of the flags: in the previous cycle t was c_d
    // (prev_coord) and t was 0 (prev_first), so at t = n_d the slot's
    // target is its last (c_d + 1 = n_d) and its size is 1; all_last and
    // all_one: so far in every dimension (the spread program's single slot)
    logic                          prev_coord, prev_first, all_last, all_one;
    // grouping
    logic [1:0]                    controller;
    logic [GroupWidth-1:0]         group;
    logic                          group_barriers;
    logic [GroupWidth-1:0]         barrier_tag;       // the group whose BARRIER is next
    logic                          barrier_then_copy;  // it follows the last send
  } regs_t;
  regs_t r_d, r_q, regs_reset;
  logic  cfg_write;  // the configuration write of this cycle is taken

  // SIZE d and COORD d: n_d and c_d, dimension d at [d*SizeWidth +: SizeWidth]
  logic [Dims*SizeWidth-1:0] size_q, coord_q;
  schedule_engine_dimensions #(.SizeWidth(SizeWidth), .CoordWidth(SizeWidth),
      .Size0Addr(schedule_engine_a2a_regs_pkg::RegSize0), .Coord0Addr(schedule_engine_a2a_regs_pkg::RegCoord0))
    u_dimensions (.clk_i, .rst_ni, .cfg_write_i(cfg_write), .cfg_addr_i, .cfg_wdata_i, .size_o(size_q),
      .coord_o(coord_q));

  // strides, rank and rank x m, in StateInit (hls: init_step())
  logic [1:0]            dim;
  logic [SizeWidth-1:0]  dim_size, dim_coord;
  logic [CountWidth-1:0] acc, stride, self_id;
  logic [AddrWidth-1:0]  acc_m, mstride, self_m;
  logic                  at_coord, at_size, strides_done;
  logic                  unused_at_last;  // hopgroup's flag
  logic [SizeWidth-1:0]  t_cur;
  schedule_engine_strides #(.SizeWidth(SizeWidth), .CoordWidth(SizeWidth), .CountWidth(CountWidth),
      .AddrWidth(AddrWidth))
    u_strides (.clk_i, .rst_ni, .words_i(r_q.message_words), .step_i(r_q.state == StateInit),
      .size_i(size_q), .coord_i(coord_q), .dim_o(dim), .t_o(t_cur), .size_o(dim_size), .coord_o(dim_coord), .acc_o(acc),
      .acc_m_o(acc_m), .stride_o(stride), .mstride_o(mstride), .at_coord_o(at_coord), .at_size_o(at_size),
      .at_last_o(unused_at_last), .done_o(strides_done),
      .self_id_o(self_id), .self_m_o(self_m));

  // The register map uses the low 20 bits of a write at most.
  logic unused_cfg_wdata;
  assign unused_cfg_wdata = ^cfg_wdata_i[31:AddrWidth];

  // ---- the odometer's next offset, from the registers (hls: advance()) ----
  // The carry into a slot is a register (carry_in, the AND of the off_last
  // flags of the slots before it); every slot's next values (and next
  // flags) are computed beside it from its own registers.
  logic                          adv_done;   // carry out of the last slot
  logic [Dims*CountWidth-1:0]    adv_offset, adv_target, adv_part, adv_pinc;
  logic [Dims*AddrWidth-1:0]     adv_mpart, adv_mpinc;
  logic [Dims-1:0]               adv_off_last, adv_tgt_last;
  logic [CountWidth-1:0]         adv_dest;   // the sums of the next parts
  logic [AddrWidth-1:0]          adv_src;

  always_comb begin
    logic carry;  // into slot j
    logic [CountWidth-1:0] s_nm2, s_offset, s_target, s_stride;
    adv_offset = r_q.slot_offset;
    adv_target = r_q.slot_target;
    adv_part = r_q.slot_part;
    adv_mpart = r_q.slot_mpart;
    adv_pinc = r_q.slot_pinc;
    adv_mpinc = r_q.slot_mpinc;
    adv_off_last = r_q.off_last;
    adv_tgt_last = r_q.tgt_last;
    for (int j = 0; j < Dims; j++) begin
      carry = j == 0 || r_q.carry_in[j];
      s_nm2 = r_q.slot_nm2[j*CountWidth +: CountWidth];
      s_offset = r_q.slot_offset[j*CountWidth +: CountWidth];
      s_target = r_q.slot_target[j*CountWidth +: CountWidth];
      s_stride = r_q.slot_stride[j*CountWidth +: CountWidth];
      // slot j steps when the carry reaches it; a slot at its last value wraps to 0
      if (carry) begin
        adv_offset[j*CountWidth +: CountWidth] = r_q.off_last[j] ? '0 : s_offset + 1'b1;
        adv_off_last[j] = r_q.off_last[j] ? r_q.slot_one[j] : s_offset == s_nm2;  // offset + 2 == n
        adv_target[j*CountWidth +: CountWidth] = r_q.tgt_last[j] ? '0 : s_target + 1'b1;
        adv_tgt_last[j] = r_q.tgt_last[j] ? r_q.slot_one[j] : s_target == s_nm2;
        adv_part[j*CountWidth +: CountWidth] = r_q.tgt_last[j] ? '0 : r_q.slot_pinc[j*CountWidth +: CountWidth];
        adv_pinc[j*CountWidth +: CountWidth] = r_q.tgt_last[j] ? s_stride :
            r_q.slot_pinc[j*CountWidth +: CountWidth] + s_stride;
        adv_mpart[j*AddrWidth +: AddrWidth] = r_q.tgt_last[j] ? '0 : r_q.slot_mpinc[j*AddrWidth +: AddrWidth];
        adv_mpinc[j*AddrWidth +: AddrWidth] = r_q.tgt_last[j] ? r_q.slot_mstride[j*AddrWidth +: AddrWidth] :
            r_q.slot_mpinc[j*AddrWidth +: AddrWidth] + r_q.slot_mstride[j*AddrWidth +: AddrWidth];
      end
    end
    adv_done = r_q.carry_in[Dims-1] && r_q.off_last[Dims-1];
    // the next SEND's destination and source: sums of the next parts, as a tree
    adv_dest = (adv_part[0 +: CountWidth] + adv_part[CountWidth +: CountWidth]) +
               (adv_part[2*CountWidth +: CountWidth] + adv_part[3*CountWidth +: CountWidth]);
    adv_src = (adv_mpart[0 +: AddrWidth] + adv_mpart[AddrWidth +: AddrWidth]) +
              (adv_mpart[2*AddrWidth +: AddrWidth] + adv_mpart[3*AddrWidth +: AddrWidth]);
  end

  logic [AddrWidth-1:0]  own_area;  // N*m + rank*m: where every receiver stores our data
  assign own_area = r_q.result_base + self_m;

  // ---- next state ----
  logic       can_load;
  logic       load;
  collnet_descriptor_pkg::descriptor_t load_word;
  logic [1:0] slot;

  always_comb begin
    // every _d starts as its _q
    r_d = r_q;
    regs_reset = '0;  // but for the HLS class's register defaults:
    regs_reset.nct = 3'd1; regs_reset.message_words = AddrWidth'(1);
    load = 1'b0;
    load_word = '0;
    slot = 2'd3 - dim;

    // configuration port
    if (cfg_write) begin
      unique case (cfg_addr_i)
        schedule_engine_a2a_regs_pkg::RegControl: begin
          if (cfg_wdata_i[0]) begin
            r_d.state = StateInit;  // u_strides stands at dimension 0
            {r_d.controller, r_d.group} = '0;
            {r_d.all_last, r_d.all_one} = 2'b11;
          end
        end
        schedule_engine_a2a_regs_pkg::RegAlgorithm: r_d.algorithm = cfg_wdata_i[0];
        schedule_engine_a2a_regs_pkg::RegNct: r_d.nct = cfg_wdata_i[2:0];
        schedule_engine_a2a_regs_pkg::RegMessageWords: r_d.message_words = cfg_wdata_i[AddrWidth-1:0];
        schedule_engine_a2a_regs_pkg::RegGroupBarriers: r_d.group_barriers = cfg_wdata_i[0];
        default: ;  // SIZE d, COORD d: u_dimensions
      endcase
    end

    unique case (r_q.state)
      StateInit: begin
        // u_strides runs t = 0..n_d in dimension d; slot 3 - d keeps n_d,
        // stride_d, c_d and the node's share c_d x stride_d (and x m)
        for (int j = 0; j < Dims; j++) begin
          if (2'(j) == slot && at_size) begin
            r_d.slot_nm2[j*CountWidth +: CountWidth] = CountWidth'(dim_size) - CountWidth'(2);
            r_d.slot_one[j] = r_q.prev_first;  // n_d = 1
            r_d.slot_stride[j*CountWidth +: CountWidth] = stride;
            r_d.slot_mstride[j*AddrWidth +: AddrWidth] = mstride;
            r_d.slot_offset[j*CountWidth +: CountWidth] = '0;
            r_d.slot_target[j*CountWidth +: CountWidth] = CountWidth'(dim_coord);
            r_d.off_last[j] = r_q.prev_first;  // t = n_d and t - 1 = 0
            r_d.tgt_last[j] = r_q.prev_coord;  // t - 1 = n_d - 1 = c_d
          end
          if (2'(j) == slot && !at_size && at_coord) begin
            r_d.slot_part[j*CountWidth +: CountWidth] = acc;
            r_d.slot_mpart[j*AddrWidth +: AddrWidth] = acc_m;
            r_d.slot_pinc[j*CountWidth +: CountWidth] = acc + stride;
            r_d.slot_mpinc[j*AddrWidth +: AddrWidth] = acc_m + mstride;
          end
        end
        r_d.prev_coord = at_coord;
        r_d.prev_first = t_cur == '0;
        if (at_size) {r_d.all_last, r_d.all_one} = {r_q.all_last && r_q.prev_coord, r_q.all_one && r_q.prev_first};
        if (strides_done) begin
          r_d.result_base = acc_m;  // N x m
          r_d.state = StateFirst;
          if (r_q.algorithm == AlgorithmSpread) begin
            // one dimension of size N at coordinate rank
            r_d.slot_nm2 = {{(Dims-1)*CountWidth{1'b1}}, acc - CountWidth'(2)};  // N - 2, and 1 - 2 in the others
            r_d.slot_one = {3'b111, r_q.all_one && r_q.prev_first};
            r_d.slot_stride = {{(Dims-1)*CountWidth{1'b0}}, CountWidth'(1)};
            r_d.slot_mstride = {{(Dims-1)*AddrWidth{1'b0}}, r_q.message_words};
            r_d.slot_offset = '0;
            r_d.slot_target = {{(Dims-1)*CountWidth{1'b0}}, self_id};
            r_d.slot_part = {{(Dims-1)*CountWidth{1'b0}}, self_id};
            r_d.slot_mpart = {{(Dims-1)*AddrWidth{1'b0}}, self_m};
            r_d.slot_pinc = {{(Dims-1)*CountWidth{1'b0}}, self_id + CountWidth'(1)};
            r_d.slot_mpinc = {{(Dims-1)*AddrWidth{1'b0}}, self_m + r_q.message_words};
            // N = 1: every n_d = 1; rank = N - 1: every c_d = n_d - 1
            r_d.off_last = {3'b111, r_q.all_one && r_q.prev_first};
            r_d.tgt_last = {3'b111, r_q.all_last && r_q.prev_coord};
          end
        end
      end
      StateFirst: begin
        // the zero offset is this node itself: step past it without a send
        {r_d.slot_offset, r_d.slot_target, r_d.slot_part, r_d.slot_mpart} = {adv_offset, adv_target, adv_part, adv_mpart};
        {r_d.slot_pinc, r_d.slot_mpinc, r_d.off_last, r_d.tgt_last} = {adv_pinc, adv_mpinc, adv_off_last, adv_tgt_last};
        {r_d.dest_sum, r_d.src_sum} = {adv_dest, adv_src};
        r_d.state = adv_done ? StateCopy : StateSend;
      end
      StateSend: if (can_load) begin
        load = 1'b1;
        load_word = collnet_descriptor_pkg::send_descriptor(r_q.dest_sum[collnet_descriptor_pkg::DestWidth-1:0],
                                                            r_q.src_sum, own_area, r_q.message_words, r_q.group);
        load_word.controller = collnet_descriptor_pkg::ControllerWidth'(r_q.controller);
        if (({1'b0, r_q.controller} + 3'd1) == r_q.nct) begin
          r_d.controller = '0;
          r_d.group = r_q.group + 1'b1;
        end else begin
          r_d.controller = r_q.controller + 2'd1;
        end
        {r_d.slot_offset, r_d.slot_target, r_d.slot_part, r_d.slot_mpart} = {adv_offset, adv_target, adv_part, adv_mpart};
        {r_d.slot_pinc, r_d.slot_mpinc, r_d.off_last, r_d.tgt_last} = {adv_pinc, adv_mpinc, adv_off_last, adv_tgt_last};
        {r_d.dest_sum, r_d.src_sum} = {adv_dest, adv_src};
        // what a BARRIER after this send would carry, written with every send
        // (so that the odometer's carry reaches the state only, not the enables)
        r_d.barrier_tag = r_q.group;
        r_d.barrier_then_copy = adv_done;
        if (r_q.group_barriers && (({1'b0, r_q.controller} + 3'd1) == r_q.nct || adv_done)) begin
          r_d.state = StateBarrier;  // the group's BARRIER, then on
        end else if (adv_done) begin
          r_d.state = StateCopy;
        end
      end
      StateBarrier: if (can_load) begin
        load = 1'b1;
        load_word = collnet_descriptor_pkg::barrier_descriptor(r_q.barrier_tag);
        r_d.state = r_q.barrier_then_copy ? StateCopy : StateSend;
      end
      StateCopy: if (can_load) begin
        // the local copy D(self->self), tagged with the number of groups
        load = 1'b1;
        load_word = collnet_descriptor_pkg::send_descriptor(self_id[collnet_descriptor_pkg::DestWidth-1:0], self_m,
            own_area, r_q.message_words, r_q.group + GroupWidth'(r_q.controller != 2'd0));
        r_d.state = StateEnd;
      end
      `SCHEDULE_ENGINE_END_STATES
    endcase
    // the carries follow the flags written above
    r_d.carry_in = {&r_d.off_last[2:0], &r_d.off_last[1:0], r_d.off_last[0]};
  end

`ifndef SYNTHESIS
  // Register map contracts, checked in every cycle of the start-up (immediate
  // assertions on the registers: Verilator 5.006 mis-generates the sampled
  // copy of a register struct this wide for a concurrent one): NCT is 1..4,
  // every coordinate is below its size.
  always_ff @(posedge clk_i) if (rst_ni && r_q.state == StateInit) begin
    assert (r_q.nct >= 3'd1 && r_q.nct <= 3'd4) else $error("schedule_engine_a2a: NCT must be 1..4");
    for (int d = 0; d < Dims; d++)
      assert (coord_q[d*SizeWidth +: SizeWidth] < size_q[d*SizeWidth +: SizeWidth])
        else $error("schedule_engine_a2a: COORD%0d must be below SIZE%0d", d, d);
  end
`endif

`ifdef FORMAL
  // A1 (formal): the odometer's carries are the ANDs of the flags they stand for.
  always @(posedge clk_i) begin
    if (rst_ni)
      A1_carries: assert (r_q.carry_in == {&r_q.off_last[2:0], &r_q.off_last[1:0], r_q.off_last[0]});
  end
`endif

  // The skeleton instance (running: the state is not idle) and the formal
  // properties every engine shares (E5 on the registers the configuration
  // port writes; no covers of a program's events: its first descriptor
  // leaves 13 steps after reset, which z3 takes minutes to reach).
`define SCHEDULE_ENGINE_RUNNING r_q.state != StateIdle
`define SCHEDULE_ENGINE_REGS_PKG schedule_engine_a2a_regs_pkg
`define SCHEDULE_ENGINE_CONFIG_REGS {r_q.algorithm, r_q.nct, r_q.message_words, r_q.group_barriers, size_q, coord_q}
`define SCHEDULE_ENGINE_COVER_PROGRAM 1'b0
`include "schedule_engine_skeleton.svh"

endmodule
