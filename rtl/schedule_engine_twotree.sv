// Schedule engine for the pipelined tree collectives of document 002
// (twotree-hier, twotree-flat, tree-single): expands one rank's program into
// its descriptor stream. RTL of hls/schedule_engine_twotree.hpp, register
// for register (same names); that header documents the stream, the register
// map, the procedure-table entries and the timing.
// bench/verilator/schedule_engine_twotree_bench.cpp checks that this
// module, the HLS class and the software reference emit the same words.
//
// Arrays are flat vectors (stream e at [e*W +: W]): Yosys 0.23 reads no
// packed multi-dimensional arrays. The procedure table (STAGE s at 16 + s,
// ENTRY 4s + e at 4s + e) and the hint table are RAMs with one write port
// and one synchronous read port each, so that they map to block RAM: a
// first version kept the 20 table words in flip-flops and loaded the four
// streams of a stage in one cycle through 4:1 multiplexers, and did not route
// on an iCE40 HX8K (docs/synthesis.md, "Notes for RTL writers"). A stage now loads in six cycles.
//
// Register map: package schedule_engine_twotree_regs_pkg (schedule_engine_regs_pkg.sv,
// generated from hls/engine_registers.yaml into build/generated/rtl/);
// ports: schedule_engine_ports.svh; registers and output buffer: common/schedule_engine_skeleton.sv
// (instance and the shared formal properties: schedule_engine_skeleton.svh).
// closing states (END, idle): written here, the state register being one-hot.

module schedule_engine_twotree (
`include "schedule_engine_ports.svh"
);

  localparam int unsigned HintEntries = 1024;
  localparam int unsigned TableEntries = 32;  // procedure table RAM
  localparam int unsigned LoadCycles = 6;     // per stage: stage word, 4 entries (read latency 1)
  localparam int unsigned CountWidth = 17;  // L, halves, offsets, quotients
  localparam int unsigned BlockWidth = 11;  // B, k, remainders
  localparam int unsigned PhaseWidth = 16;
  localparam int unsigned AddrWidth = 20;
  localparam logic [15:0] LocalTag = 16'h8000;
  // STAGE (4 registers) and ENTRY (16) are aligned blocks of the map: their
  // addresses are decoded by the upper bits (an equality, not two range
  // compares); hls/schedule_engine_twotree.hpp checks the alignment
  localparam logic [5:0] StageBlock = schedule_engine_twotree_regs_pkg::RegStage0[7:2];
  localparam logic [3:0] EntryBlock = schedule_engine_twotree_regs_pkg::RegEntry0[7:4];

  // The state is one-hot (idle too: busy is its inverse), so that a state's
  // decode is its own flip-flop; S<name> is the bit of State<name>.
  localparam int unsigned SIdle = 0, SDivide = 1, SSetup = 2, SStageLoad = 3, SPhaseSend = 4, SPhaseRecv = 5,
    SCombine = 6, SCombineWait = 7, SEnd = 8;
  typedef enum logic [8:0] {StateIdle = 9'd1 << SIdle, StateDivide = 9'd1 << SDivide, StateSetup = 9'd1 << SSetup,
    StateStageLoad = 9'd1 << SStageLoad, StatePhaseSend = 9'd1 << SPhaseSend, StatePhaseRecv = 9'd1 << SPhaseRecv,
    StateCombine = 9'd1 << SCombine, StateCombineWait = 9'd1 << SCombineWait, StateEnd = 9'd1 << SEnd} state_e;

  /// Every register of the engine (_d the next value, _q the current one).
  typedef struct packed {
    // configuration
    logic                       float64;
    logic [2:0]                 op;
    logic                       single;
    logic [15:0]                self;
    logic [CountWidth-1:0]      elements;
    logic [BlockWidth-1:0]      blocks;
    logic [2:0]                 stages;
    logic [9:0]                 hint_ptr;
    state_e                     state;
    // block division, per tree t at [t*W +: W]; half: H_t, shifted left
    // one bit per division step (the step divides its top bit)
    logic [2*CountWidth-1:0]    half;
    logic [2*CountWidth-1:0]    quot;
    logic [2*BlockWidth-1:0]    rem;
    logic [CountWidth-1:0]      tree_base1;  // T2's first word (T1 starts at 0)
    logic [4:0]                 div_bit;
    logic [4*AddrWidth-1:0]     slot_base;
    // follow the division and the slot bases, per tree t: a stream's first
    // block length, whether it has blocks and whether its first is its last,
    // and per slot base j and tree t (at [(2j + t)*W]) L(1 + j) + the tree's first word
    logic [2*CountWidth-1:0]    t_len0;
    logic [1:0]                 t_any, t_last0;
    // and what a stream's next block needs, per tree t (no adder before a
    // compare or after it when a block leaves): H_t div B + 1, H_t mod B - 1
    // and whether H_t mod B is non-zero, min(B, H_t) - 2 and whether
    // min(B, H_t) <= 2
    logic [2*CountWidth-1:0]    t_quot1;
    logic [2*BlockWidth-1:0]    t_rem1;
    logic [1:0]                 t_rem_nz;
    logic [2*BlockWidth-1:0]    t_sb;  // min(B, H_t), so that t_sb2, t_sb_le2 follow a register
    logic [2*BlockWidth-1:0]    t_sb2;
    logic [1:0]                 t_sb_le2;
    logic [8*AddrWidth-1:0]     dst_base;
    // walk: the stage being run
    logic [2:0]                 stage;
    logic [2:0]                 ld;  // StateStageLoad cycle
    logic                       broadcast;
    logic                       reduce;
    logic [PhaseWidth-1:0]      base_phase;
    logic [PhaseWidth-1:0]      q;
    logic [15:0]                tag;  // base_phase + q, kept beside q (no adder before the output)
    logic [PhaseWidth-1:0]      q1;   // q + 1, kept beside q (the next phase's match)
    logic [3:0]                 s_active;
    logic [3:0]                 s_tree;
    logic [3:0]                 s_slot;
    logic [4*16-1:0]            s_partner;
    logic [4*PhaseWidth-1:0]    s_next;
    logic [4*BlockWidth-1:0]    s_k;
    logic [4*CountWidth-1:0]    s_off;
    logic [4*CountWidth-1:0]    s_len;  // words of the stream's next block
    logic [3:0]                 s_last;  // that block is the stream's last
    // kept with the streams: s_next == q (the stream's block leaves in this
    // phase), and the block's address in the slot, slot base + offset (a broadcast:
    // the offset)
    logic [3:0]                 s_match;
    // the stream's compares for its block k + 1 (k + 1 < H_t mod B: one more
    // word; k + 2 >= min(B, H_t): the last block), a cycle after s_k: a
    // stream fires at most every other cycle (its next block leaves two
    // phases later) and not in the cycle after its load, so they are current
    // whenever it fires
    logic [3:0]                 s_long1;
    logic [3:0]                 s_last1;
    logic [4*AddrWidth-1:0]     s_dst;
    logic [AddrWidth-1:0]       comb_src;
    logic [CountWidth-1:0]      comb_dst;
    logic [CountWidth-1:0]      comb_len;
    // the procedure table's word one cycle after its read register (the
    // stage's load takes it from flip-flops, not from the RAM's output), and
    // whether hint_ptr advanced in the previous cycle (the hint then is the
    // second hint RAM's, read at hint_ptr + 1)
    logic [31:0]                table_w;
    logic                       hint_adv;
  } regs_t;
  regs_t r_d, r_q, regs_reset;
  logic  cfg_write;  // the configuration write of this cycle is taken
  logic [8*AddrWidth-1:0] dst_base_q;  // r_q.dst_base as a plain vector
  assign dst_base_q = r_q.dst_base;

  // tables: one write port (configuration), one synchronous read port each
  logic [31:0] table_q [TableEntries];
  logic        table_we;
  logic [4:0]  table_waddr;
  logic        table_re;
  logic [4:0]  table_raddr;
  logic [31:0] table_rd_q;
  // the hint table twice (the same writes): one read at hint_ptr, one at
  // hint_ptr + 1, both addressed by registers; a SEND takes the second's word
  // when the pointer advanced in the previous cycle (hint_adv)
  logic [7:0]  hints_q [HintEntries];
  logic [7:0]  hints1_q [HintEntries];
  logic        hint_we;
  logic [7:0]  hint_rd_q;   // HINT[hint_ptr] of the previous cycle
  logic [7:0]  hint_rd1_q;  // HINT[hint_ptr + 1] of the previous cycle
  logic [7:0]  hint;        // HINT[hint_ptr] in every cycle of a run
  assign hint = r_q.hint_adv ? hint_rd1_q : hint_rd_q;

  // ---- per-tree block counts: min(B, H_t) blocks, H_t div B (+1 below H_t mod B) words
  logic [CountWidth-1:0] quot0, quot1;
  logic [BlockWidth-1:0] rem0, rem1, sb0, sb1;
  assign quot0 = r_q.quot[0 +: CountWidth];
  assign quot1 = r_q.quot[CountWidth +: CountWidth];
  assign rem0 = r_q.rem[0 +: BlockWidth];
  assign rem1 = r_q.rem[BlockWidth +: BlockWidth];
  assign sb0 = quot0 != '0 ? r_q.blocks : rem0;
  assign sb1 = quot1 != '0 ? r_q.blocks : rem1;

  // ---- procedure table read address, a cycle ahead of the load: load
  // cycles 0-3 read ENTRY 4s + 0..3, every other cycle of a run STAGE s + 1
  // (the setup: STAGE 0), the first word of the next stage's load (a word is
  // in table_rd_q one cycle later and in r_q.table_w two cycles later)
  assign table_re = !r_q.state[SIdle];
  assign table_raddr = r_q.state[SStageLoad] && !r_q.ld[2] ? {1'b0, r_q.stage[1:0], r_q.ld[1:0]}
                     : {3'b100, r_q.state[SSetup] ? 2'd0 : r_q.stage[1:0] + 2'd1};

  // ---- the firing streams ------------------------------------------------
  logic [15:0]            tag, local_tag;  // the phase's tag, 0x8000 + tag
  logic                   send_fires, send_e;
  logic                   recv_fires, recv_e;
  logic [15:0]            send_partner;
  logic [AddrWidth-1:0]   send_dst, recv_dst;
  logic [CountWidth-1:0]  send_len, recv_len;   // words of the firing block
  logic [CountWidth-1:0]  send_off, recv_off;

  assign tag = r_q.tag;
  assign local_tag = r_q.tag ^ LocalTag;  // LocalTag + tag (mod 2^16): LocalTag is the top bit

  always_comb begin
    send_fires = 1'b0;
    send_e = 1'b0;
    recv_fires = 1'b0;
    recv_e = 1'b0;
    for (int e = 1; e >= 0; e--) begin  // the lower entry wins, as in the C++ loop
      if (r_q.s_active[e] && r_q.s_match[e]) begin
        send_fires = 1'b1;
        send_e = e[0];
      end
      if (r_q.s_active[2+e] && r_q.s_match[2+e]) begin
        recv_fires = 1'b1;
        recv_e = e[0];
      end
    end
    // constant-index selections (a variable part-select would become a shifter);
    // the block's address in the slot, L(1 + 2r + slot) + offset, is the stream's s_dst
    send_dst = send_e ? r_q.s_dst[AddrWidth +: AddrWidth] : r_q.s_dst[0 +: AddrWidth];
    recv_dst = recv_e ? r_q.s_dst[3*AddrWidth +: AddrWidth] : r_q.s_dst[2*AddrWidth +: AddrWidth];
    send_partner = send_e ? r_q.s_partner[16 +: 16] : r_q.s_partner[0 +: 16];
    send_off = send_e ? r_q.s_off[CountWidth +: CountWidth] : r_q.s_off[0 +: CountWidth];
    recv_off = recv_e ? r_q.s_off[3*CountWidth +: CountWidth] : r_q.s_off[2*CountWidth +: CountWidth];
    send_len = send_e ? r_q.s_len[CountWidth +: CountWidth] : r_q.s_len[0 +: CountWidth];
    recv_len = recv_e ? r_q.s_len[3*CountWidth +: CountWidth] : r_q.s_len[2*CountWidth +: CountWidth];
  end

  // ---- each stream's registers after its block leaves (HLS fire()): every
  // stream computes them from its own registers, so that the firing decision
  // only selects which stream takes them
  logic [4*CountWidth-1:0] f_off, f_len;
  logic [4*BlockWidth-1:0] f_k;
  logic [4*PhaseWidth-1:0] f_next;
  logic [3:0]              f_last;
  logic [4*AddrWidth-1:0]  f_dst;
  logic [3:0]              f_match1;  // s_next == q + 1: the stream fires in the next phase
  logic [3:0]              c_long1, c_last1;  // s_long1 and s_last1 of this cycle's s_k
  always_comb begin
    logic [BlockWidth-1:0] fk, fr1, fb2;
    logic [CountWidth-1:0] fq, fq1;
    logic                  fnz, fle2;
    for (int i = 0; i < 4; i++) begin
      // the stream's tree's registers (constant-index choices: a variable
      // part-select of a struct member would become a shifter)
      fq = r_q.s_tree[i] ? quot1 : quot0;
      fq1 = r_q.s_tree[i] ? r_q.t_quot1[CountWidth +: CountWidth] : r_q.t_quot1[0 +: CountWidth];
      fr1 = r_q.s_tree[i] ? r_q.t_rem1[BlockWidth +: BlockWidth] : r_q.t_rem1[0 +: BlockWidth];
      fb2 = r_q.s_tree[i] ? r_q.t_sb2[BlockWidth +: BlockWidth] : r_q.t_sb2[0 +: BlockWidth];
      fnz = r_q.s_tree[i] ? r_q.t_rem_nz[1] : r_q.t_rem_nz[0];
      fle2 = r_q.s_tree[i] ? r_q.t_sb_le2[1] : r_q.t_sb_le2[0];
      fk = r_q.s_k[i*BlockWidth +: BlockWidth];
      f_off[i*CountWidth +: CountWidth] = r_q.s_off[i*CountWidth +: CountWidth] + r_q.s_len[i*CountWidth +: CountWidth];
      f_k[i*BlockWidth +: BlockWidth] = fk + BlockWidth'(1);
      // block k + 1 has one more word when k + 1 < H_t mod B
      f_len[i*CountWidth +: CountWidth] = r_q.s_long1[i] ? fq1 : fq;
      c_long1[i] = fnz && fk < fr1;
      f_next[i*PhaseWidth +: PhaseWidth] = r_q.s_next[i*PhaseWidth +: PhaseWidth] + PhaseWidth'(2);
      // block k + 1 is the last when k + 2 >= min(B, H_t)
      f_last[i] = r_q.s_last1[i];
      c_last1[i] = fle2 || fk >= fb2;
      f_dst[i*AddrWidth +: AddrWidth] = r_q.s_dst[i*AddrWidth +: AddrWidth] +
                                        AddrWidth'(r_q.s_len[i*CountWidth +: CountWidth]);
      f_match1[i] = r_q.s_next[i*PhaseWidth +: PhaseWidth] == r_q.q1;
    end
  end

  // ---- next state ---------------------------------------------------------
  logic                                load;
  collnet_descriptor_pkg::descriptor_t load_word;
  logic                                can_load;
  logic                                phase_end;  // this phase (or the stage's load) ends: hls next_phase()
  logic [3:0]                          fired;      // the stream whose block leaves (hls fire())
  logic [CountWidth-1:0]               h1;
  logic [BlockWidth:0]                 rem_shift;
  /* verilator lint_off UNUSEDSIGNAL */  // reserved table bits
  logic [31:0]                         w;
  /* verilator lint_on UNUSEDSIGNAL */
  logic                                t;

  always_comb begin
    r_d = r_q;
    regs_reset = '0;  // but for the HLS class's register defaults:
    regs_reset.state = StateIdle;
    regs_reset.op = 3'd1; regs_reset.elements = CountWidth'(1); regs_reset.blocks = BlockWidth'(1);
    {table_we, table_waddr, hint_we} = '0;
    {load, load_word} = '0;
    {phase_end, fired, h1, rem_shift, w, t} = '0;
    // an entry's word (load cycles 1-4 hold entries in table_rd_q) with its
    // tree bit cleared in single-tree mode, so that the load takes the tree
    // from the word alone
    r_d.table_w = table_rd_q;
    if (r_q.single && r_q.state[SStageLoad] && r_q.ld != 3'd0) r_d.table_w[1] = 1'b0;
    r_d.s_long1 = c_long1;
    r_d.s_last1 = c_last1;
    r_d.hint_adv = 1'b0;

    // follow the division and the slot bases (constant while the stages run)
    r_d.t_len0 = {quot1 + CountWidth'(rem1 != '0), quot0 + CountWidth'(rem0 != '0)};
    r_d.t_any = {sb1 != '0, sb0 != '0};
    r_d.t_last0 = {sb1 <= BlockWidth'(1), sb0 <= BlockWidth'(1)};
    r_d.t_quot1 = {quot1 + CountWidth'(1), quot0 + CountWidth'(1)};
    r_d.t_rem1 = {rem1 - BlockWidth'(1), rem0 - BlockWidth'(1)};
    r_d.t_rem_nz = {rem1 != '0, rem0 != '0};
    // (two cycles after the division's last step: first read when a stream
    // fires, at least seven cycles after it)
    r_d.t_sb = {sb1, sb0};
    r_d.t_sb2 = {r_q.t_sb[BlockWidth +: BlockWidth] - BlockWidth'(2), r_q.t_sb[0 +: BlockWidth] - BlockWidth'(2)};
    r_d.t_sb_le2 = {r_q.t_sb[BlockWidth +: BlockWidth] <= BlockWidth'(2), r_q.t_sb[0 +: BlockWidth] <= BlockWidth'(2)};
    for (int j = 0; j < 4; j++) begin
      r_d.dst_base[(2*j)*AddrWidth +: AddrWidth] = r_q.slot_base[j*AddrWidth +: AddrWidth];
      r_d.dst_base[(2*j+1)*AddrWidth +: AddrWidth] = r_q.slot_base[j*AddrWidth +: AddrWidth] +
                                                     AddrWidth'(r_q.tree_base1);
    end

    // configuration port
    if (cfg_write) begin
      if (cfg_addr_i == schedule_engine_twotree_regs_pkg::RegControl) begin
        if (cfg_wdata_i[0]) begin
          h1 = r_q.single ? r_q.elements : CountWidth'(({1'b0, r_q.elements} + (CountWidth+1)'(1)) >> 1);  // T1 gets the extra element
          r_d.half = {r_q.elements - h1, h1};
          r_d.tree_base1 = h1;
          {r_d.quot, r_d.rem} = '0;
          r_d.div_bit = 5'd17;
          r_d.hint_ptr = '0;
          r_d.state = StateDivide;
        end
      end else if (cfg_addr_i == schedule_engine_twotree_regs_pkg::RegMode) begin
        r_d.float64 = cfg_wdata_i[0];
        r_d.op = cfg_wdata_i[3:1];
        r_d.single = cfg_wdata_i[4];
      end else if (cfg_addr_i == schedule_engine_twotree_regs_pkg::RegSelf) begin
        r_d.self = cfg_wdata_i[15:0];
      end else if (cfg_addr_i == schedule_engine_twotree_regs_pkg::RegElements) begin
        r_d.elements = cfg_wdata_i[CountWidth-1:0];
      end else if (cfg_addr_i == schedule_engine_twotree_regs_pkg::RegBlocks) begin
        r_d.blocks = cfg_wdata_i[BlockWidth-1:0];
      end else if (cfg_addr_i == schedule_engine_twotree_regs_pkg::RegStages) begin
        r_d.stages = cfg_wdata_i[2:0];
      end else if (cfg_addr_i[7:2] == StageBlock) begin
        table_we = 1'b1;
        table_waddr = {3'b100, cfg_addr_i[1:0]};
      end else if (cfg_addr_i[7:4] == EntryBlock) begin
        table_we = 1'b1;
        table_waddr = {1'b0, cfg_addr_i[3:0]};
      end else if (cfg_addr_i == schedule_engine_twotree_regs_pkg::RegHintAddr) begin
        r_d.hint_ptr = cfg_wdata_i[9:0];
      end else if (cfg_addr_i == schedule_engine_twotree_regs_pkg::RegHintData) begin
        hint_we = 1'b1;
        r_d.hint_ptr = r_q.hint_ptr + 10'd1;
      end
    end

    unique case (1'b1)
      r_q.state[SDivide]: begin
        // one restoring-division step for both trees: bit div_bit - 1 of H_t
        for (int tt = 0; tt < 2; tt++) begin
          rem_shift = {r_q.rem[tt*BlockWidth +: BlockWidth], r_q.half[tt*CountWidth + CountWidth - 1]};
          r_d.half[tt*CountWidth +: CountWidth] = r_q.half[tt*CountWidth +: CountWidth] << 1;
          if (rem_shift >= {1'b0, r_q.blocks}) begin
            r_d.rem[tt*BlockWidth +: BlockWidth] = BlockWidth'(rem_shift - {1'b0, r_q.blocks});
            r_d.quot[tt*CountWidth +: CountWidth] = {r_q.quot[tt*CountWidth +: CountWidth-1], 1'b1};
          end else begin
            r_d.rem[tt*BlockWidth +: BlockWidth] = BlockWidth'(rem_shift);
            r_d.quot[tt*CountWidth +: CountWidth] = {r_q.quot[tt*CountWidth +: CountWidth-1], 1'b0};
          end
        end
        r_d.div_bit = r_q.div_bit - 5'd1;
        if (r_q.div_bit == 5'd1) r_d.state = StateSetup;
      end
      r_q.state[SSetup]: begin
        // slot bases L(1 + 2r + j): 2L and 4L are shifts, 3L = 2L + L. Not
        // L + L: an adder whose two operands are one net puts that net on two
        // inputs of one carry LUT, and nextpnr-ice40 0.4's router then swaps
        // the two pins forever (the cause of the HX8K routing failure).
        r_d.slot_base = {AddrWidth'(r_q.elements) << 2,
                       (AddrWidth'(r_q.elements) << 1) + AddrWidth'(r_q.elements),
                       AddrWidth'(r_q.elements) << 1,
                       AddrWidth'(r_q.elements)};
        {r_d.stage, r_d.ld} = '0;
        r_d.state = r_q.stages == '0 ? StateEnd : StateStageLoad;
      end
      r_q.state[SStageLoad]: begin
        // the word read in the previous load cycle: STAGE s, then ENTRY 4s + e
        w = r_q.table_w;
        if (r_q.ld == 3'd1) begin
          r_d.broadcast = w[0];
          r_d.reduce = w[1];
          r_d.base_phase = w[31:16];
        end else if (r_q.ld >= 3'd2) begin
          t = w[1];  // (cleared in single-tree mode)
          for (int i = 0; i < 4; i++) begin
            if (r_q.ld == 3'(i + 2)) begin
              r_d.s_tree[i] = t;
              r_d.s_slot[i] = w[2];
              r_d.s_partner[i*16 +: 16] = w[31:16];
              r_d.s_next[i*PhaseWidth +: PhaseWidth] = PhaseWidth'({w[12:3], i[0]});  // color = e mod 2
              r_d.s_k[i*BlockWidth +: BlockWidth] = '0;
              r_d.s_off[i*CountWidth +: CountWidth] = t ? r_q.tree_base1 : '0;
              r_d.s_len[i*CountWidth +: CountWidth] = t ? r_q.t_len0[CountWidth +: CountWidth]
                                                      : r_q.t_len0[0 +: CountWidth];
              r_d.s_active[i] = w[0] && (t ? r_q.t_any[1] : r_q.t_any[0]);
              r_d.s_last[i] = t ? r_q.t_last0[1] : r_q.t_last0[0];
              // L(1 + 2r + slot) + offset; a broadcast sends to the offset
              // itself (so that the SEND takes s_dst in either stage)
              // (constant-index choices: a variable part-select would become a shifter)
              if (r_q.broadcast) r_d.s_dst[i*AddrWidth +: AddrWidth] = t ? AddrWidth'(r_q.tree_base1) : '0;
              else
                for (int j = 0; j < 8; j++)
                  if (3'(j) == {r_q.reduce, w[2], t}) r_d.s_dst[i*AddrWidth +: AddrWidth] = dst_base_q[j*AddrWidth +: AddrWidth];
            end
          end
        end
        if (r_q.ld != 3'(LoadCycles - 1)) begin
          r_d.ld = r_q.ld + 3'd1;
        end else begin
          phase_end = 1'b1;  // the stage's first phase next
        end
      end
      r_q.state[SPhaseSend]: if (!(send_fires && !can_load)) begin
        if (send_fires) begin
          load = 1'b1;
          load_word = collnet_descriptor_pkg::send_descriptor(send_partner, AddrWidth'(send_off),
              send_dst, AddrWidth'(send_len), tag);
          load_word.dtype = r_q.float64;
          load_word.route_hint = hint;
          r_d.hint_ptr = r_q.hint_ptr + 10'd1;
          r_d.hint_adv = 1'b1;
          fired[send_e ? 1 : 0] = 1'b1;
        end
        if (recv_fires) r_d.state = StatePhaseRecv;
        else phase_end = 1'b1;
      end
      r_q.state[SPhaseRecv]: if (can_load) begin
        load = 1'b1;
        load_word = collnet_descriptor_pkg::wait_descriptor(tag, AddrWidth'(1));
        r_d.comb_src = recv_dst;
        r_d.comb_dst = recv_off;
        r_d.comb_len = recv_len;
        fired[recv_e ? 3 : 2] = 1'b1;
        if (r_q.broadcast) phase_end = 1'b1;
        else r_d.state = StateCombine;
      end
      r_q.state[SCombine]: if (can_load) begin
        // spec twotree-leafspine: fixed-order reduction, one arrival at a time
        load = 1'b1;
        load_word = collnet_descriptor_pkg::send_descriptor(r_q.self, r_q.comb_src, AddrWidth'(r_q.comb_dst),
                                                            AddrWidth'(r_q.comb_len), local_tag);
        load_word.op = r_q.op;
        load_word.dtype = r_q.float64;
        r_d.state = StateCombineWait;
      end
      r_q.state[SCombineWait]: if (can_load) begin
        load = 1'b1;
        load_word = collnet_descriptor_pkg::wait_descriptor(local_tag, AddrWidth'(1));
        phase_end = 1'b1;
      end
      r_q.state[SEnd]: if (can_load) {load, r_d.state} = {1'b1, StateIdle};
      r_q.state[SIdle]: ;
      default: ;
    endcase

    // the stream that fired moves to its next block (hls: fire())
    for (int i = 0; i < 4; i++) begin
      if (fired[i]) begin
        r_d.s_off[i*CountWidth +: CountWidth] = f_off[i*CountWidth +: CountWidth];
        r_d.s_k[i*BlockWidth +: BlockWidth] = f_k[i*BlockWidth +: BlockWidth];
        r_d.s_len[i*CountWidth +: CountWidth] = f_len[i*CountWidth +: CountWidth];
        r_d.s_next[i*PhaseWidth +: PhaseWidth] = f_next[i*PhaseWidth +: PhaseWidth];
        r_d.s_active[i] = !r_q.s_last[i];
        r_d.s_last[i] = f_last[i];
        r_d.s_dst[i*AddrWidth +: AddrWidth] = f_dst[i*AddrWidth +: AddrWidth];
      end
    end
    // the next phase, or the next stage once every stream of this one is
    // done (hls: next_phase(), advance_stage()); a stage starts at phase 0
    if (phase_end) begin
      r_d.q = r_q.state[SStageLoad] ? '0 : r_q.q + PhaseWidth'(1);
      r_d.tag = r_q.state[SStageLoad] ? r_q.base_phase : r_q.tag + 16'd1;
      r_d.q1 = r_q.state[SStageLoad] ? PhaseWidth'(1) : r_q.q1 + PhaseWidth'(1);
      if (|r_d.s_active) begin
        r_d.state = StatePhaseSend;
      end else begin
        r_d.stage = r_q.stage + 3'd1;
        r_d.ld = '0;
        r_d.state = r_q.stage + 3'd1 == r_q.stages ? StateEnd : StateStageLoad;
      end
    end
    // s_match follows s_next == q: while a stage loads, against q = 0 (the
    // phase it starts with); then a stream that fires leaves the phase
    // (s_next + 2), and a new phase matches the streams at q + 1
    for (int i = 0; i < 4; i++) begin
      if (r_q.state[SStageLoad]) r_d.s_match[i] = r_d.s_next[i*PhaseWidth +: PhaseWidth] == '0;
      else if (fired[i]) r_d.s_match[i] = 1'b0;
      else if (phase_end) r_d.s_match[i] = f_match1[i];
    end
  end

  // ---- tables: one write port, one synchronous read port each --------------
  always_ff @(posedge clk_i) begin
    if (table_we) table_q[table_waddr] <= cfg_wdata_i;
    if (table_re) table_rd_q <= table_q[table_raddr];
  end
  always_ff @(posedge clk_i) begin
    if (hint_we) hints_q[r_q.hint_ptr] <= cfg_wdata_i[7:0];
    if (!hint_we) hint_rd_q <= hints_q[r_q.hint_ptr];
  end
  always_ff @(posedge clk_i) begin
    if (hint_we) hints1_q[r_q.hint_ptr] <= cfg_wdata_i[7:0];
    if (!hint_we) hint_rd1_q <= hints1_q[r_q.hint_ptr + 10'd1];
  end

`ifndef SYNTHESIS
  // Immediate assertions on the registers, as in schedule_engine_a2a.sv.
  always_ff @(posedge clk_i) begin
    // procedure-table contract (spec): at most one send entry fires per phase
    if (rst_ni && r_q.state == StatePhaseSend)
      assert (!(r_q.s_active[0] && r_q.s_active[1] && r_q.s_next[0 +: PhaseWidth] == r_q.q &&
                r_q.s_next[PhaseWidth +: PhaseWidth] == r_q.q))
        else $error("schedule_engine_twotree: two send entries in phase %0d", r_q.q);
    // s_match is s_next == q and tag is base_phase + q in every cycle of a phase
    if (rst_ni && r_q.state inside {StatePhaseSend, StatePhaseRecv, StateCombine, StateCombineWait})
      assert (r_q.tag == r_q.base_phase + r_q.q && r_q.q1 == r_q.q + PhaseWidth'(1))
        else $error("schedule_engine_twotree: tag is not base_phase + q or q1 not q + 1");
    if (rst_ni && r_q.state inside {StatePhaseSend, StatePhaseRecv, StateCombine, StateCombineWait})
      for (int i = 0; i < 4; i++)
        assert (r_q.s_match[i] == (r_q.s_next[i*PhaseWidth +: PhaseWidth] == r_q.q))
          else $error("schedule_engine_twotree: s_match[%0d] is not s_next == q", i);
    // s_long1, s_last1 are current when a stream fires
    for (int i = 0; i < 4; i++)
      if (rst_ni && fired[i])
        assert (r_q.s_long1[i] == c_long1[i] && r_q.s_last1[i] == c_last1[i])
          else $error("schedule_engine_twotree: s_long1/s_last1[%0d] not current when the stream fires", i);
    // BLOCKS is 1..1024 (the divider divides by it)
    if (rst_ni && r_q.state == StateDivide)
      assert (r_q.blocks != '0) else $error("schedule_engine_twotree: BLOCKS = 0");
  end
`endif

`ifdef FORMAL
  // Formal properties of this engine besides the shared ones (below).
  always @(posedge clk_i) begin
    // E5: no table write through the port while busy
    if (rst_ni && busy_o) E5_no_table_write: assert (!(table_we || hint_we));
    // Induction strengthening: the state register is one-hot (E2, E3).
    if (rst_ni) E3_onehot: assert ($onehot(r_q.state));
  end
`endif

  // The skeleton instance (running: the state is not idle) and the formal
  // properties every engine shares (E5 on the registers the
  // configuration port writes; no covers of a program's events: z3 reaches
  // none of its descriptors within 10 minutes, 20 steps from reset).
`define SCHEDULE_ENGINE_RUNNING !r_q.state[SIdle]
`define SCHEDULE_ENGINE_REGS_PKG schedule_engine_twotree_regs_pkg
`define SCHEDULE_ENGINE_CONFIG_REGS {r_q.float64, r_q.op, r_q.single, r_q.self, r_q.elements, r_q.blocks, r_q.stages}
`define SCHEDULE_ENGINE_COVER_PROGRAM 1'b0
`include "schedule_engine_skeleton.svh"

endmodule
