// Schedule engine for the pipelined tree collectives of document 002
// (twotree-hier, twotree-flat, tree-single): expands one rank's program into
// its descriptor stream. RTL of hls/schedule_engine_twotree.hpp, register
// for register (same names); that header documents the stream, the register
// map, the procedure-table entries and the timing.
// testbench/verilator/schedule_engine_twotree_bench.cpp checks that this
// module, the HLS class and the software reference emit the same words.
//
// Register map (write-only, cfg_addr_i; writes are ignored while busy_o):
//   0x00 CONTROL bit 0 = start | 0x01 MODE [0] dtype [3:1] op [4] single tree
//   0x02 SELF [15:0] | 0x03 ELEMENTS [16:0] | 0x04 BLOCKS [10:0] | 0x05 STAGES [2:0]
//   0x08+s STAGE s: [0] broadcast [1] reduce index [31:16] first phase
//   0x10+4s+e ENTRY: [0] valid [1] tree [2] slot [12:3] level [31:16] partner
//   0x30 HINT_ADDR [9:0] | 0x31 HINT_DATA [7:0] (HINT[HINT_ADDR++])
//
// Handshake contract (descriptor side, valid/ready): out_valid_o is a
// register output and does not depend on out_ready_i; a descriptor offered
// and not taken stays offered and unchanged.
//
// Arrays are flat vectors (stream e at [e*W +: W]): Yosys 0.23 reads no
// packed multi-dimensional arrays. The procedure table (STAGE s at 16 + s,
// ENTRY 4s + e at 4s + e) and the hint table are RAMs with one write port
// and one synchronous read port each, so that they map to block RAM: a
// first version kept the 20 table words in flip-flops and loaded the four
// streams of a stage in one cycle through 4:1 multiplexers, and did not route
// on an iCE40 HX8K (docs/synthesis.md). A stage now loads in six cycles.
module schedule_engine_twotree (
  /// Clock; every register samples on its rising edge.
  input  logic                                clk_i,
  /// Reset, active low, synchronous to clk_i.
  input  logic                                rst_ni,
  /// Configuration port: write enable (one register per cycle).
  input  logic                                cfg_we_i,
  /// Configuration port: register address (map above).
  input  logic [7:0]                          cfg_addr_i,
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

  localparam int unsigned HintEntries = 1024;
  localparam int unsigned TableEntries = 32;  // procedure table RAM
  localparam int unsigned LoadCycles = 6;     // per stage: stage word, 4 entries (read latency 1)
  localparam int unsigned CountWidth = 17;  // L, halves, offsets, quotients
  localparam int unsigned BlockWidth = 11;  // B, k, remainders
  localparam int unsigned PhaseWidth = 16;
  localparam int unsigned AddrWidth = 20;
  localparam logic [15:0] LocalTag = 16'h8000;

  localparam logic [7:0] RegControl = 8'h00;
  localparam logic [7:0] RegMode = 8'h01;
  localparam logic [7:0] RegSelf = 8'h02;
  localparam logic [7:0] RegElements = 8'h03;
  localparam logic [7:0] RegBlocks = 8'h04;
  localparam logic [7:0] RegStages = 8'h05;
  localparam logic [7:0] RegStage0 = 8'h08;
  localparam logic [7:0] RegEntry0 = 8'h10;
  localparam logic [7:0] RegHintAddr = 8'h30;
  localparam logic [7:0] RegHintData = 8'h31;

  typedef enum logic [3:0] {
    StateIdle        = 4'd0,
    StateDivide      = 4'd1,
    StateSetup       = 4'd2,
    StateStageLoad   = 4'd3,
    StatePhaseSend   = 4'd4,
    StatePhaseRecv   = 4'd5,
    StateCombine     = 4'd6,
    StateCombineWait = 4'd7,
    StateEnd         = 4'd8
  } state_e;

  // configuration
  logic                       float64_d, float64_q;
  logic [2:0]                 op_d, op_q;
  logic                       single_d, single_q;
  logic [15:0]                self_d, self_q;
  logic [CountWidth-1:0]      elements_d, elements_q;
  logic [BlockWidth-1:0]      blocks_d, blocks_q;
  logic [2:0]                 stages_d, stages_q;
  logic [9:0]                 hint_ptr_d, hint_ptr_q;
  state_e                     state_d, state_q;
  // block division, per tree t at [t*W +: W]
  logic [2*CountWidth-1:0]    half_d, half_q;
  logic [2*CountWidth-1:0]    quot_d, quot_q;
  logic [2*BlockWidth-1:0]    rem_d, rem_q;
  logic [CountWidth-1:0]      tree_base1_d, tree_base1_q;  // T2's first word (T1 starts at 0)
  logic [4:0]                 div_bit_d, div_bit_q;
  logic [4*AddrWidth-1:0]     slot_base_d, slot_base_q;
  // walk: the stage being run
  logic [2:0]                 stage_d, stage_q;
  logic [2:0]                 ld_d, ld_q;  // StateStageLoad cycle
  logic                       broadcast_d, broadcast_q;
  logic                       reduce_d, reduce_q;
  logic [PhaseWidth-1:0]      base_phase_d, base_phase_q;
  logic [PhaseWidth-1:0]      q_d, q_q;
  logic [3:0]                 s_active_d, s_active_q;
  logic [3:0]                 s_tree_d, s_tree_q;
  logic [3:0]                 s_slot_d, s_slot_q;
  logic [4*16-1:0]            s_partner_d, s_partner_q;
  logic [4*PhaseWidth-1:0]    s_next_d, s_next_q;
  logic [4*BlockWidth-1:0]    s_k_d, s_k_q;
  logic [4*CountWidth-1:0]    s_off_d, s_off_q;
  logic [4*CountWidth-1:0]    s_len_d, s_len_q;  // words of the stream's next block
  logic [3:0]                 s_last_d, s_last_q;  // that block is the stream's last
  logic [AddrWidth-1:0]       comb_src_d, comb_src_q;
  logic [CountWidth-1:0]      comb_dst_d, comb_dst_q;
  logic [CountWidth-1:0]      comb_len_d, comb_len_q;
  // output register
  logic                                out_valid_d, out_valid_q;
  collnet_descriptor_pkg::descriptor_t out_d, out_q;

  // tables: one write port (configuration), one synchronous read port each
  logic [31:0] table_q [TableEntries];
  logic        table_we;
  logic [4:0]  table_waddr;
  logic        table_re;
  logic [4:0]  table_raddr;
  logic [31:0] table_rd_q;
  logic [7:0]  hints_q [HintEntries];
  logic        hint_we;
  logic [7:0]  hint_rd_q;  // HINT[hint_ptr_q] in every cycle of a run

  // ---- per-tree block counts: min(B, H_t) blocks, H_t div B (+1 below H_t mod B) words
  logic [CountWidth-1:0] quot0, quot1;
  logic [BlockWidth-1:0] rem0, rem1, sb0, sb1;
  assign quot0 = quot_q[0 +: CountWidth];
  assign quot1 = quot_q[CountWidth +: CountWidth];
  assign rem0 = rem_q[0 +: BlockWidth];
  assign rem1 = rem_q[BlockWidth +: BlockWidth];
  assign sb0 = quot0 != '0 ? blocks_q : rem0;
  assign sb1 = quot1 != '0 ? blocks_q : rem1;

  // ---- procedure table read address: load cycle 0 reads STAGE s, cycles
  // 1-4 read ENTRY 4s + 0..3 (the word is in table_rd_q one cycle later)
  assign table_re = state_q == StateStageLoad;
  assign table_raddr = ld_q == 3'd0 ? {3'b100, stage_q[1:0]} : {1'b0, stage_q[1:0], 2'(ld_q - 3'd1)};

  // ---- the firing streams ------------------------------------------------
  logic [15:0]            tag;
  logic                   send_fires, send_e;
  logic                   recv_fires, recv_e;
  logic                   send_slot, recv_slot;
  logic [15:0]            send_partner;
  logic [AddrWidth-1:0]   send_base, recv_slot_base;
  logic [CountWidth-1:0]  send_len, recv_len;   // words of the firing block
  logic [CountWidth-1:0]  send_off, recv_off;

  assign tag = base_phase_q + q_q;

  always_comb begin
    send_fires = 1'b0;
    send_e = 1'b0;
    recv_fires = 1'b0;
    recv_e = 1'b0;
    for (int e = 1; e >= 0; e--) begin  // the lower entry wins, as in the C++ loop
      if (s_active_q[e] && s_next_q[e*PhaseWidth +: PhaseWidth] == q_q) begin
        send_fires = 1'b1;
        send_e = e[0];
      end
      if (s_active_q[2+e] && s_next_q[(2+e)*PhaseWidth +: PhaseWidth] == q_q) begin
        recv_fires = 1'b1;
        recv_e = e[0];
      end
    end
    // constant-index selections (a variable part-select would become a shifter)
    send_slot = send_e ? s_slot_q[1] : s_slot_q[0];
    recv_slot = recv_e ? s_slot_q[3] : s_slot_q[2];
    // L(1 + 2r + slot)
    send_base = reduce_q ? (send_slot ? slot_base_q[3*AddrWidth +: AddrWidth] : slot_base_q[2*AddrWidth +: AddrWidth])
                         : (send_slot ? slot_base_q[AddrWidth +: AddrWidth] : slot_base_q[0 +: AddrWidth]);
    recv_slot_base = reduce_q
        ? (recv_slot ? slot_base_q[3*AddrWidth +: AddrWidth] : slot_base_q[2*AddrWidth +: AddrWidth])
        : (recv_slot ? slot_base_q[AddrWidth +: AddrWidth] : slot_base_q[0 +: AddrWidth]);
    send_partner = send_e ? s_partner_q[16 +: 16] : s_partner_q[0 +: 16];
    send_off = send_e ? s_off_q[CountWidth +: CountWidth] : s_off_q[0 +: CountWidth];
    recv_off = recv_e ? s_off_q[3*CountWidth +: CountWidth] : s_off_q[2*CountWidth +: CountWidth];
    send_len = send_e ? s_len_q[CountWidth +: CountWidth] : s_len_q[0 +: CountWidth];
    recv_len = recv_e ? s_len_q[3*CountWidth +: CountWidth] : s_len_q[2*CountWidth +: CountWidth];
  end

  // ---- each stream's registers after its block leaves (HLS fire()): every
  // stream computes them from its own registers, so that the firing decision
  // only selects which stream takes them
  logic [4*CountWidth-1:0] f_off, f_len;
  logic [4*BlockWidth-1:0] f_k;
  logic [4*PhaseWidth-1:0] f_next;
  logic [3:0]              f_last;
  always_comb begin
    logic [CountWidth-1:0] fq;
    logic [BlockWidth-1:0] fr, fb, fk;
    for (int i = 0; i < 4; i++) begin
      fq = s_tree_q[i] ? quot1 : quot0;
      fr = s_tree_q[i] ? rem1 : rem0;
      fb = s_tree_q[i] ? sb1 : sb0;
      fk = s_k_q[i*BlockWidth +: BlockWidth];
      f_off[i*CountWidth +: CountWidth] = s_off_q[i*CountWidth +: CountWidth] + s_len_q[i*CountWidth +: CountWidth];
      f_k[i*BlockWidth +: BlockWidth] = fk + BlockWidth'(1);
      f_len[i*CountWidth +: CountWidth] = fq + CountWidth'(fk + BlockWidth'(1) < fr);
      f_next[i*PhaseWidth +: PhaseWidth] = s_next_q[i*PhaseWidth +: PhaseWidth] + PhaseWidth'(2);
      f_last[i] = {1'b0, fk} + (BlockWidth+1)'(2) >= {1'b0, fb};
    end
  end

  // ---- next state ---------------------------------------------------------
  logic                                load;
  collnet_descriptor_pkg::descriptor_t word;
  logic                                can_load;
  logic                                any;
  logic [CountWidth-1:0]               h1;
  logic [BlockWidth:0]                 rem_shift;
  /* verilator lint_off UNUSEDSIGNAL */  // reserved table bits
  logic [31:0]                         w;
  /* verilator lint_on UNUSEDSIGNAL */
  logic                                t;

  always_comb begin
    float64_d = float64_q;
    op_d = op_q;
    single_d = single_q;
    self_d = self_q;
    elements_d = elements_q;
    blocks_d = blocks_q;
    stages_d = stages_q;
    hint_ptr_d = hint_ptr_q;
    state_d = state_q;
    half_d = half_q;
    quot_d = quot_q;
    rem_d = rem_q;
    tree_base1_d = tree_base1_q;
    div_bit_d = div_bit_q;
    slot_base_d = slot_base_q;
    stage_d = stage_q;
    ld_d = ld_q;
    broadcast_d = broadcast_q;
    reduce_d = reduce_q;
    base_phase_d = base_phase_q;
    q_d = q_q;
    s_active_d = s_active_q;
    s_tree_d = s_tree_q;
    s_slot_d = s_slot_q;
    s_partner_d = s_partner_q;
    s_next_d = s_next_q;
    s_k_d = s_k_q;
    s_off_d = s_off_q;
    s_len_d = s_len_q;
    s_last_d = s_last_q;
    comb_src_d = comb_src_q;
    comb_dst_d = comb_dst_q;
    comb_len_d = comb_len_q;
    table_we = 1'b0;
    table_waddr = '0;
    hint_we = 1'b0;
    load = 1'b0;
    word = '0;
    any = 1'b0;
    h1 = '0;
    rem_shift = '0;
    w = '0;
    t = 1'b0;
    can_load = !out_valid_q || out_ready_i;

    // configuration port
    if (cfg_we_i && state_q == StateIdle && !out_valid_q) begin
      if (cfg_addr_i == RegControl) begin
        if (cfg_wdata_i[0]) begin
          h1 = single_q ? elements_q : CountWidth'(({1'b0, elements_q} + (CountWidth+1)'(1)) >> 1);  // T1 gets the extra element
          half_d = {elements_q - h1, h1};
          tree_base1_d = h1;
          quot_d = '0;
          rem_d = '0;
          div_bit_d = 5'd17;
          hint_ptr_d = '0;
          state_d = StateDivide;
        end
      end else if (cfg_addr_i == RegMode) begin
        float64_d = cfg_wdata_i[0];
        op_d = cfg_wdata_i[3:1];
        single_d = cfg_wdata_i[4];
      end else if (cfg_addr_i == RegSelf) begin
        self_d = cfg_wdata_i[15:0];
      end else if (cfg_addr_i == RegElements) begin
        elements_d = cfg_wdata_i[CountWidth-1:0];
      end else if (cfg_addr_i == RegBlocks) begin
        blocks_d = cfg_wdata_i[BlockWidth-1:0];
      end else if (cfg_addr_i == RegStages) begin
        stages_d = cfg_wdata_i[2:0];
      end else if (cfg_addr_i >= RegStage0 && cfg_addr_i < RegStage0 + 8'd4) begin
        table_we = 1'b1;
        table_waddr = {3'b100, cfg_addr_i[1:0]};
      end else if (cfg_addr_i >= RegEntry0 && cfg_addr_i < RegEntry0 + 8'd16) begin
        table_we = 1'b1;
        table_waddr = {1'b0, cfg_addr_i[3:0]};
      end else if (cfg_addr_i == RegHintAddr) begin
        hint_ptr_d = cfg_wdata_i[9:0];
      end else if (cfg_addr_i == RegHintData) begin
        hint_we = 1'b1;
        hint_ptr_d = hint_ptr_q + 10'd1;
      end
    end

    unique case (state_q)
      StateIdle: ;
      StateDivide: begin
        // one restoring-division step for both trees: bit div_bit - 1 of H_t
        for (int tt = 0; tt < 2; tt++) begin
          rem_shift = {rem_q[tt*BlockWidth +: BlockWidth], half_q[tt*CountWidth + 32'(div_bit_q) - 1]};
          if (rem_shift >= {1'b0, blocks_q}) begin
            rem_d[tt*BlockWidth +: BlockWidth] = BlockWidth'(rem_shift - {1'b0, blocks_q});
            quot_d[tt*CountWidth +: CountWidth] = {quot_q[tt*CountWidth +: CountWidth-1], 1'b1};
          end else begin
            rem_d[tt*BlockWidth +: BlockWidth] = BlockWidth'(rem_shift);
            quot_d[tt*CountWidth +: CountWidth] = {quot_q[tt*CountWidth +: CountWidth-1], 1'b0};
          end
        end
        div_bit_d = div_bit_q - 5'd1;
        if (div_bit_q == 5'd1) state_d = StateSetup;
      end
      StateSetup: begin
        // slot bases L(1 + 2r + j): 2L and 4L are shifts, 3L = 2L + L. Not
        // L + L: an adder whose two operands are one net puts that net on two
        // inputs of one carry LUT, and nextpnr-ice40 0.4's router then swaps
        // the two pins forever (the cause of the HX8K routing failure).
        slot_base_d = {AddrWidth'(elements_q) << 2,
                       (AddrWidth'(elements_q) << 1) + AddrWidth'(elements_q),
                       AddrWidth'(elements_q) << 1,
                       AddrWidth'(elements_q)};
        stage_d = '0;
        ld_d = '0;
        state_d = stages_q == '0 ? StateEnd : StateStageLoad;
      end
      StateStageLoad: begin
        // the word read in the previous load cycle: STAGE s, then ENTRY 4s + e
        w = table_rd_q;
        if (ld_q == 3'd1) begin
          broadcast_d = w[0];
          reduce_d = w[1];
          base_phase_d = w[31:16];
        end else if (ld_q >= 3'd2) begin
          t = single_q ? 1'b0 : w[1];
          for (int i = 0; i < 4; i++) begin
            if (ld_q == 3'(i + 2)) begin
              s_tree_d[i] = t;
              s_slot_d[i] = w[2];
              s_partner_d[i*16 +: 16] = w[31:16];
              s_next_d[i*PhaseWidth +: PhaseWidth] = PhaseWidth'({w[12:3], i[0]});  // color = e mod 2
              s_k_d[i*BlockWidth +: BlockWidth] = '0;
              s_off_d[i*CountWidth +: CountWidth] = t ? tree_base1_q : '0;
              s_len_d[i*CountWidth +: CountWidth] = t ? quot1 + CountWidth'(rem1 != '0)
                                                      : quot0 + CountWidth'(rem0 != '0);
              s_active_d[i] = w[0] && (t ? sb1 : sb0) != '0;
              s_last_d[i] = (t ? sb1 : sb0) <= BlockWidth'(1);
            end
          end
        end
        if (ld_q != 3'(LoadCycles - 1)) begin
          ld_d = ld_q + 3'd1;
        end else begin
          any = |s_active_d;
          q_d = '0;
          if (any) begin
            state_d = StatePhaseSend;
          end else begin
            stage_d = stage_q + 3'd1;
            ld_d = '0;
            state_d = stage_q + 3'd1 == stages_q ? StateEnd : StateStageLoad;
          end
        end
      end
      StatePhaseSend: begin
        if (!(send_fires && !can_load)) begin
          if (send_fires) begin
            load = 1'b1;
            word.opcode = collnet_descriptor_pkg::OpcodeSend;
            word.dtype = float64_q;
            word.route_hint = hint_rd_q;
            word.dest = send_partner;
            word.src_offset = AddrWidth'(send_off);
            word.dst_offset = (broadcast_q ? '0 : send_base) + AddrWidth'(send_off);
            word.length = AddrWidth'(send_len);
            word.tag = tag;
            hint_ptr_d = hint_ptr_q + 10'd1;
            for (int i = 0; i < 2; i++) begin
              if (send_e == i[0]) begin
                s_off_d[i*CountWidth +: CountWidth] = f_off[i*CountWidth +: CountWidth];
                s_k_d[i*BlockWidth +: BlockWidth] = f_k[i*BlockWidth +: BlockWidth];
                s_len_d[i*CountWidth +: CountWidth] = f_len[i*CountWidth +: CountWidth];
                s_next_d[i*PhaseWidth +: PhaseWidth] = f_next[i*PhaseWidth +: PhaseWidth];
                s_active_d[i] = !s_last_q[i];
                s_last_d[i] = f_last[i];
              end
            end
          end
          if (recv_fires) begin
            state_d = StatePhaseRecv;
          end else begin
            any = |s_active_d;
            q_d = q_q + PhaseWidth'(1);
            if (!any) begin
              stage_d = stage_q + 3'd1;
              ld_d = '0;
              state_d = stage_q + 3'd1 == stages_q ? StateEnd : StateStageLoad;
            end
          end
        end
      end
      StatePhaseRecv: begin
        if (can_load) begin
          load = 1'b1;
          word.opcode = collnet_descriptor_pkg::OpcodeWait;
          word.length = AddrWidth'(1);
          word.tag = tag;
          comb_src_d = recv_slot_base + AddrWidth'(recv_off);
          comb_dst_d = recv_off;
          comb_len_d = recv_len;
          for (int i = 2; i < 4; i++) begin
            if (recv_e == i[0]) begin
              s_off_d[i*CountWidth +: CountWidth] = f_off[i*CountWidth +: CountWidth];
              s_k_d[i*BlockWidth +: BlockWidth] = f_k[i*BlockWidth +: BlockWidth];
              s_len_d[i*CountWidth +: CountWidth] = f_len[i*CountWidth +: CountWidth];
              s_next_d[i*PhaseWidth +: PhaseWidth] = f_next[i*PhaseWidth +: PhaseWidth];
              s_active_d[i] = !s_last_q[i];
              s_last_d[i] = f_last[i];
            end
          end
          if (broadcast_q) begin
            any = |s_active_d;
            q_d = q_q + PhaseWidth'(1);
            if (any) begin
              state_d = StatePhaseSend;
            end else begin
              stage_d = stage_q + 3'd1;
              ld_d = '0;
              state_d = stage_q + 3'd1 == stages_q ? StateEnd : StateStageLoad;
            end
          end else begin
            state_d = StateCombine;
          end
        end
      end
      StateCombine: begin
        if (can_load) begin
          // spec twotree-leafspine: fixed-order reduction, one arrival at a time
          load = 1'b1;
          word.opcode = collnet_descriptor_pkg::OpcodeSend;
          word.op = op_q;
          word.dtype = float64_q;
          word.dest = self_q;
          word.src_offset = comb_src_q;
          word.dst_offset = AddrWidth'(comb_dst_q);
          word.length = AddrWidth'(comb_len_q);
          word.tag = LocalTag + tag;
          state_d = StateCombineWait;
        end
      end
      StateCombineWait: begin
        if (can_load) begin
          load = 1'b1;
          word.opcode = collnet_descriptor_pkg::OpcodeWait;
          word.length = AddrWidth'(1);
          word.tag = LocalTag + tag;
          any = |s_active_d;
          q_d = q_q + PhaseWidth'(1);
          if (any) begin
            state_d = StatePhaseSend;
          end else begin
            stage_d = stage_q + 3'd1;
            ld_d = '0;
            state_d = stage_q + 3'd1 == stages_q ? StateEnd : StateStageLoad;
          end
        end
      end
      StateEnd: begin
        if (can_load) begin
          load = 1'b1;
          word = '0;  // END
          state_d = StateIdle;
        end
      end
      default: state_d = StateIdle;
    endcase

    out_valid_d = out_valid_q;
    out_d = out_q;
    if (load) begin
      out_valid_d = 1'b1;
      out_d = word;
    end else if (out_ready_i) begin
      out_valid_d = 1'b0;
    end
  end

  // ---- tables: one write port, one synchronous read port each --------------
  always_ff @(posedge clk_i) begin
    if (table_we) table_q[table_waddr] <= cfg_wdata_i;
    if (table_re) table_rd_q <= table_q[table_raddr];
  end
  always_ff @(posedge clk_i) begin
    if (hint_we) hints_q[hint_ptr_q] <= cfg_wdata_i[7:0];
    if (!hint_we) hint_rd_q <= hints_q[hint_ptr_d];
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      float64_q    <= 1'b0;
      op_q         <= 3'd1;
      single_q     <= 1'b0;
      self_q       <= '0;
      elements_q   <= CountWidth'(1);
      blocks_q     <= BlockWidth'(1);
      stages_q     <= '0;
      hint_ptr_q   <= '0;
      state_q      <= StateIdle;
      half_q       <= '0;
      quot_q       <= '0;
      rem_q        <= '0;
      tree_base1_q <= '0;
      div_bit_q    <= '0;
      slot_base_q  <= '0;
      stage_q      <= '0;
      ld_q         <= '0;
      broadcast_q  <= 1'b0;
      reduce_q     <= 1'b0;
      base_phase_q <= '0;
      q_q          <= '0;
      s_active_q   <= '0;
      s_tree_q     <= '0;
      s_slot_q     <= '0;
      s_partner_q  <= '0;
      s_next_q     <= '0;
      s_k_q        <= '0;
      s_off_q      <= '0;
      s_len_q      <= '0;
      s_last_q     <= '0;
      comb_src_q   <= '0;
      comb_dst_q   <= '0;
      comb_len_q   <= '0;
      out_valid_q  <= 1'b0;
      out_q        <= '0;
    end else begin
      float64_q    <= float64_d;
      op_q         <= op_d;
      single_q     <= single_d;
      self_q       <= self_d;
      elements_q   <= elements_d;
      blocks_q     <= blocks_d;
      stages_q     <= stages_d;
      hint_ptr_q   <= hint_ptr_d;
      state_q      <= state_d;
      half_q       <= half_d;
      quot_q       <= quot_d;
      rem_q        <= rem_d;
      tree_base1_q <= tree_base1_d;
      div_bit_q    <= div_bit_d;
      slot_base_q  <= slot_base_d;
      stage_q      <= stage_d;
      ld_q         <= ld_d;
      broadcast_q  <= broadcast_d;
      reduce_q     <= reduce_d;
      base_phase_q <= base_phase_d;
      q_q          <= q_d;
      s_active_q   <= s_active_d;
      s_tree_q     <= s_tree_d;
      s_slot_q     <= s_slot_d;
      s_partner_q  <= s_partner_d;
      s_next_q     <= s_next_d;
      s_k_q        <= s_k_d;
      s_off_q      <= s_off_d;
      s_len_q      <= s_len_d;
      s_last_q     <= s_last_d;
      comb_src_q   <= comb_src_d;
      comb_dst_q   <= comb_dst_d;
      comb_len_q   <= comb_len_d;
      out_valid_q  <= out_valid_d;
      out_q        <= out_d;
    end
  end

  assign out_valid_o = out_valid_q;
  assign out_desc_o  = out_q;
  assign busy_o      = state_q != StateIdle || out_valid_q;

`ifndef SYNTHESIS
  // Descriptor contract: an offered descriptor stays offered and unchanged.
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      (out_valid_o && !out_ready_i) |=> (out_valid_o && $stable(out_desc_o)))
    else $error("schedule_engine_twotree: descriptor dropped or changed before out_ready_i");

  // Procedure-table contract (spec): at most one send entry fires per phase.
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      (state_q == StatePhaseSend) |->
        !(s_active_q[0] && s_active_q[1] && s_next_q[0 +: PhaseWidth] == q_q &&
          s_next_q[PhaseWidth +: PhaseWidth] == q_q))
    else $error("schedule_engine_twotree: two send entries in phase %0d", q_q);

  // BLOCKS is 1..1024 (the divider divides by it).
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      (state_q == StateDivide) |-> (blocks_q != '0))
    else $error("schedule_engine_twotree: BLOCKS = 0");
`endif

endmodule
