// The aggregation engine of a switch (in-network reduction): RTL of
// hls/switch_aggregator.hpp, register for register (same names), but for
// the slot table's timing (the pend registers, a free slot's entry
// rewritten every cycle, "gone" cleared when a slot frees: the slot table
// below), which leaves every port the same in every cycle; that
// header documents the slot table, the ports, the handshake contract, the
// pipeline and what a full table does. Register map: hls/engine_registers.yaml
// (switch_aggregator: 0x0 CONTROL, 0x1 CHILD_MASK, 0x2 OP, 0x3 BLOCK_WORDS),
// package switch_aggregator_regs_pkg.
// bench/verilator/switch_aggregator_bench.cpp checks that this module, the
// HLS class and the software reference (collectives::combine over the
// children's packets) agree in every cycle; scripts/formal.sh proves the
// properties of the `ifdef FORMAL block below.
//
// Parameters: Slots aggregation slots (>= 2); 2^WordsWidth words a packet
// at most; Children child ports; DataWidth bits a word (64; the formal
// proof runs at 4), KeyWidth bits of the (collective, block) key.
module switch_aggregator #(
  parameter int unsigned Slots      = 8,
  parameter int unsigned WordsWidth = 5,
  parameter int unsigned Children   = 8,
  parameter int unsigned DataWidth  = 64,
  parameter int unsigned KeyWidth   = 16
) (
  /// Clock; every register samples on its rising edge.
  input  logic                  clk_i,
  /// Reset, active low, synchronous to clk_i.
  input  logic                  rst_ni,
  /// Configuration write (taken only while busy_o is 0).
  input  logic                  cfg_we_i,
  /// Configuration register address (switch_aggregator_regs_pkg).
  input  logic [7:0]            cfg_addr_i,
  /// Configuration data.
  input  logic [31:0]           cfg_wdata_i,
  /// A slot is in use or a word is in flight.
  output logic                  busy_o,
  /// Children side: a flit is offered.
  input  logic                  in_valid_i,
  /// Children side: the flit is taken in this cycle (when in_valid_i).
  output logic                  in_ready_o,
  /// Children side: the child port the flit comes from.
  input  logic [$clog2(Children)-1:0] in_child_i,
  /// Children side: the packet's (collective, block), read on its head flit.
  input  logic [KeyWidth-1:0]   in_key_i,
  /// Children side: the word.
  input  logic [DataWidth-1:0]  in_data_i,
  /// Parent side: a word of a reduced packet is offered.
  output logic                  up_valid_o,
  /// Parent side: the word is taken.
  input  logic                  up_ready_i,
  /// Parent side: the packet's block.
  output logic [KeyWidth-1:0]   up_key_o,
  /// Parent side: the reduced word.
  output logic [DataWidth-1:0]  up_data_o,
  /// Parent side: the packet's last word.
  output logic                  up_last_o,
  /// From the parent: a word of a result is offered.
  input  logic                  dn_valid_i,
  /// From the parent: the word is taken.
  output logic                  dn_ready_o,
  /// From the parent: the result's block.
  input  logic [KeyWidth-1:0]   dn_key_i,
  /// From the parent: the word.
  input  logic [DataWidth-1:0]  dn_data_i,
  /// To the children (every port of CHILD_MASK): a result word is offered.
  output logic                  out_valid_o,
  /// To the children: the word is taken.
  input  logic                  out_ready_i,
  /// To the children: the result's block.
  output logic [KeyWidth-1:0]   out_key_o,
  /// To the children: the word.
  output logic [DataWidth-1:0]  out_data_o,
  /// To the children: the packet's last word.
  output logic                  out_last_o
);
  localparam int unsigned SlotWidth  = $clog2(Slots);
  localparam int unsigned AddrWidth  = SlotWidth + WordsWidth;
  localparam int unsigned Depth      = Slots << WordsWidth;
  localparam int unsigned Half       = DataWidth / 2;
  localparam int unsigned BwWidth    = switch_aggregator_regs_pkg::RegBlockWordsWidth;
  localparam logic [2:0]  OpSum = 3'd1, OpMax = 3'd3, OpMin = 3'd4;

  // ---------------------------------------------------------------- registers
  // configuration
  logic                  enable_q;
  logic [Children-1:0]   child_mask_q;
  logic [2:0]            op_q;
  logic [WordsWidth-1:0] last_idx_q;  // W - 1 (BLOCK_WORDS)
  logic                  short_q;     // W <= 3
  logic [BwWidth-1:0]    cfg_words;   // W as written
  logic [WordsWidth-1:0] cfg_last;    // W - 1 (0 and W > max: max - 1)
  // the slot table
  logic [Slots-1:0]      slot_valid_q, slot_valid_d;
  logic [Slots-1:0]      slot_up_q, slot_up_d;  // complete: its last packet's head was taken
  logic [Slots-1:0]      slot_up;  // slot_up_q as read (the slot table, below)
  logic [Slots-1:0]      slot_gone_q, slot_gone_d;  // its up packet's last word was taken
  logic [KeyWidth-1:0]   slot_key_q [Slots];
  logic [Children-1:0]   slot_mask_q [Slots];  // children that have contributed
  logic [Slots*Children-1:0] slot_mask_v;      // slot_mask_q as read (the slot table, below): slot s at [s*Children +: Children]
  // the probe: the lookup of the head offered in the cycle before
  logic                  probe_ok_q, probe_hit_q, probe_emit_q, changed_q;
  logic [KeyWidth-1:0]   probe_key_q;
  logic [$clog2(Children)-1:0] probe_child_q;
  logic [SlotWidth-1:0]  probe_slot_q;
  // the packet in progress on the children side
  logic                  in_pkt_q;
  logic [SlotWidth-1:0]  in_slot_q;
  logic                  in_first_q, in_emit_q;
  logic [WordsWidth-1:0] in_idx_q;
  // the pipeline (stage 1..4) and the memory's read register
  logic                  s1_valid, s2_valid, s3_valid, s4_valid;
  logic [AddrWidth-1:0]  s1_addr, s2_addr, s3_addr, s4_addr;
  logic                  s1_first, s2_first, s3_first, s4_first;
  logic                  s1_emit, s2_emit, s3_emit, s4_emit;
  logic                  s1_last, s2_last, s3_last, s4_last;
  logic [KeyWidth-1:0]   s1_key, s2_key, s3_key, s4_key;
  logic [DataWidth-1:0]  s1_b, s2_b, s3_b, s4_b;
  logic [DataWidth-1:0]  rd_q, s2_a;
  logic [Half-1:0]       s3_a_lo, s3_a_hi, s3_lo_sum, s4_a_lo, s4_a_hi, s4_lo_sum, s4_hi_sum;
  logic                  s3_lo_carry, s3_lo_lt, s4_lo_lt, s4_hi_lt, s4_hi_eq;
  logic [DataWidth-1:0]  acc_q [Depth];  // the accumulator (block RAM; not reset)
  // the down path
  logic                  out_valid_q, out_last_q;
  logic [KeyWidth-1:0]   out_key_q;
  logic [DataWidth-1:0]  out_data_q;
  logic [WordsWidth-1:0] dn_idx_q;

  // ---------------------------------------------------------------- the offered flit
  logic                  advance, take, dn_take, dn_last, cfg_write;
  logic                  t_hit, t_free_found, t_accept, t_first, t_emit, t_last, t_hazard;
  logic                  p_hit, p_emit, p_ok, freed;
  logic [SlotWidth-1:0]  t_slot, p_slot, t_hit_slot, t_free_slot;
  logic [WordsWidth-1:0] t_idx;
  logic [AddrWidth-1:0]  t_addr;
  logic [KeyWidth-1:0]   t_key;
  logic [Children-1:0]   t_child_bit;
  logic [Slots-1:0]      dn_key_match;  // slot s holds the down word's block

  // the pipeline moves unless its last stage offers an up word not taken
  assign advance = !(s4_valid && s4_emit && !up_ready_i);

  // The lookup is made per slot, in parallel: slot s holds the offered key
  // (t_match[s]; keys are unique in the table, so at most one bit is set),
  // the head's child would complete slot s's block (t_emit_s[s]), slot s has
  // gone up. The hit's slot, "complete" and "gone up" are then an AND-OR of
  // the match vector, not a mux behind the compares (the compares and the
  // children masks' checks run side by side).
  logic [Slots-1:0]      t_match, t_emit_s;
  always_comb begin
    t_hit_slot = '0;
    for (int unsigned s = 0; s < Slots; s++) begin
      t_match[s]  = slot_valid_q[s] && slot_key_q[s] == in_key_i;
      t_emit_s[s] = (slot_mask_v[s*Children +: Children] | t_child_bit) == child_mask_q;
      if (t_match[s]) t_hit_slot = t_hit_slot | SlotWidth'(s);
    end
    t_hit = t_match != '0;
    t_free_found = 1'b0;
    t_free_slot = '0;
    for (int unsigned k = 0; k < Slots; k++) begin
      if (!slot_valid_q[Slots - 1 - k]) begin
        t_free_found = 1'b1;
        t_free_slot = SlotWidth'(Slots - 1 - k);
      end
    end
    for (int unsigned s = 0; s < Slots; s++) dn_key_match[s] = slot_valid_q[s] && slot_gone_q[s] && slot_key_q[s] == dn_key_i;
  end

  // The probe: the offered head's table lookup (the slot holding its block,
  // else the lowest free slot), registered for the next cycle.
  logic p_new_emit;  // a block's first packet completes it (one child)
  assign t_child_bit = Children'(1) << in_child_i;
  assign p_new_emit  = (t_child_bit) == child_mask_q;
  assign p_hit       = t_hit;
  assign p_slot      = t_hit ? t_hit_slot : t_free_slot;
  assign p_emit      = t_hit ? (t_match & t_emit_s) != '0 : p_new_emit;
  // a block that has gone up takes no packet until its slot frees
  assign p_ok        = enable_q && (t_hit ? (t_match & slot_up) == '0 : t_free_found);

  always_comb begin
    if (in_pkt_q) begin
      t_slot   = in_slot_q;
      t_idx    = in_idx_q;
      t_first  = in_first_q;
      t_emit   = in_emit_q;
      t_key    = slot_key_q[in_slot_q];
      t_accept = 1'b1;
    end else begin
      // the head: taken on the probe of the cycle before, if the same head
      // was offered then and the table has not changed since
      t_slot   = probe_slot_q;
      t_idx    = '0;
      t_first  = !probe_hit_q;
      t_emit   = probe_emit_q;
      t_key    = in_key_i;
      t_accept = probe_ok_q && !changed_q && in_key_i == probe_key_q && in_child_i == probe_child_q;
    end
  end

  assign t_last = t_idx == last_idx_q;
  assign t_addr = {t_slot, t_idx};
  // A word still to be written by a stage is not read before it is: with
  // packets of 4 words or more the head's lookup cycle keeps a packet's
  // words 5 cycles behind the previous packet's, so a read always follows
  // the write; with shorter packets (short_q) a head waits until no stage
  // holds its slot.
  assign t_hazard = !in_pkt_q && short_q &&
                    ((s1_valid && s1_addr[AddrWidth-1:WordsWidth] == probe_slot_q) ||
                     (s2_valid && s2_addr[AddrWidth-1:WordsWidth] == probe_slot_q) ||
                     (s3_valid && s3_addr[AddrWidth-1:WordsWidth] == probe_slot_q) ||
                     (s4_valid && s4_addr[AddrWidth-1:WordsWidth] == probe_slot_q));
  // (a configuration write holds the children side for its cycle)
  assign in_ready_o = t_accept && !t_hazard && advance && !cfg_we_i;
  assign take       = in_valid_i && in_ready_o;

  // ---------------------------------------------------------------- the result of stage 4
  logic                 a_lt_b;
  logic [DataWidth-1:0] s4_a, s4_result;
  assign s4_a   = {s4_a_hi, s4_a_lo};
  assign a_lt_b = s4_hi_lt || (s4_hi_eq && s4_lo_lt);  // signed a < b
  always_comb begin
    if (s4_first)            s4_result = s4_b;
    else if (op_q == OpMax)  s4_result = a_lt_b ? s4_b : s4_a;
    else if (op_q == OpMin)  s4_result = a_lt_b ? s4_a : s4_b;
    else                     s4_result = {s4_hi_sum, s4_lo_sum};
  end

  assign up_valid_o = s4_valid && s4_emit;
  assign up_key_o   = s4_key;
  assign up_data_o  = s4_result;
  assign up_last_o  = s4_last;

  // ---------------------------------------------------------------- the down path
  assign dn_ready_o = !out_valid_q || out_ready_i;
  assign dn_take    = dn_valid_i && dn_ready_o;
  assign dn_last    = dn_idx_q == last_idx_q;

  assign out_valid_o = out_valid_q;
  assign out_key_o   = out_key_q;
  assign out_data_o  = out_data_q;
  assign out_last_o  = out_last_q;

  // ---------------------------------------------------------------- busy and configuration
  assign busy_o    = in_pkt_q || s1_valid || s2_valid || s3_valid || s4_valid || out_valid_q || dn_idx_q != '0 ||
                     slot_valid_q != '0;
  assign cfg_write = cfg_we_i && !busy_o;
  assign cfg_words = cfg_wdata_i[BwWidth-1:0];
  assign cfg_last  = (cfg_words == '0 || cfg_words > BwWidth'(1 << WordsWidth)) ? '1 : WordsWidth'(cfg_words - BwWidth'(1));

  // ---------------------------------------------------------------- the slot table
  // The take is the last signal of a cycle to settle, so the slot table
  // keeps it out of every register but the valid flags. A free slot's key,
  // children mask and "complete" flag are rewritten in every cycle with the
  // offered head's key, child and probed "complete" (nothing reads a free
  // slot's entry), so that a head taken into a free slot finds them
  // written. A held slot's mask and flag take the head's child and
  // "complete" one cycle after the take, from the pend registers; in that
  // cycle slot_mask_v and slot_up, the table as read, add them (they are,
  // in every cycle, what the registers would hold if written at the take).
  // "Gone" is cleared when the slot frees rather than when it is taken again.
  logic [Slots-1:0]     t_head_s;  // the head taken into slot s
  logic [Slots-1:0]     t_free_s;  // slot s frees (its block's last down word taken)
  logic                 up_done;   // the up packet's last word taken
  logic                 pend_valid_q, pend_emit_q;  // a head taken in the cycle before; it completed its block
  logic [SlotWidth-1:0] pend_slot_q;                // its slot
  logic [Children-1:0]  pend_bit_q;                 // its child
  assign up_done = up_valid_o && up_ready_i && up_last_o;
  for (genvar g = 0; g < Slots; g++) begin : g_read
    assign slot_mask_v[g*Children +: Children] = slot_mask_q[g] | (pend_valid_q && pend_slot_q == SlotWidth'(g) ? pend_bit_q : '0);
    assign slot_up[g] = slot_up_q[g] || (pend_valid_q && pend_slot_q == SlotWidth'(g) && pend_emit_q);
  end
  always_comb begin
    for (int unsigned s = 0; s < Slots; s++) begin
      t_head_s[s]     = take && !in_pkt_q && probe_slot_q == SlotWidth'(s);
      t_free_s[s]     = dn_take && dn_last && dn_key_match[s];
      slot_valid_d[s] = (slot_valid_q[s] || t_head_s[s]) && !t_free_s[s];
      slot_up_d[s]    = slot_valid_q[s] ? slot_up[s] : probe_emit_q;
      slot_gone_d[s]  = (slot_gone_q[s] || (up_done && s4_addr[AddrWidth-1:WordsWidth] == SlotWidth'(s))) && !t_free_s[s];
    end
  end

  always_ff @(posedge clk_i) begin
    for (int unsigned s = 0; s < Slots; s++) begin
      if (!rst_ni) begin
        slot_key_q[s]  <= '0;
        slot_mask_q[s] <= '0;
      end else if (!slot_valid_q[s]) begin
        slot_key_q[s]  <= in_key_i;
        slot_mask_q[s] <= t_child_bit;
      end else begin
        slot_mask_q[s] <= slot_mask_v[s*Children +: Children];
      end
    end
    // (no reset but the valid bit: the others are read only with it)
    pend_slot_q <= probe_slot_q;
    pend_bit_q  <= t_child_bit;
    pend_emit_q <= probe_emit_q;
    if (!rst_ni) pend_valid_q <= 1'b0;
    else         pend_valid_q <= take && !in_pkt_q;
  end

  assign freed = (slot_valid_q & ~slot_valid_d) != '0;
  logic [Children-1:0] probe_mask;  // the children the probed slot has
  assign probe_mask = slot_mask_v[probe_slot_q*Children +: Children];

  // the probe's key, child and lookup (no reset: read only with probe_ok_q)
  always_ff @(posedge clk_i) begin
    probe_key_q   <= in_key_i;
    probe_child_q <= in_child_i;
    probe_hit_q   <= p_hit;
    probe_slot_q  <= p_slot;
    probe_emit_q  <= p_emit;
  end

  // ---------------------------------------------------------------- the accumulator
  always_ff @(posedge clk_i) begin
    if (advance && s4_valid) acc_q[s4_addr] <= s4_result;
    // a read of the address written in this cycle returns the old word
    if (advance) rd_q <= acc_q[t_addr];
  end

  // The pipeline's words and flags: no reset (only the valid bits are), all
  // moved together when the pipeline advances.
  always_ff @(posedge clk_i) begin
    if (advance) begin
      // stage 4: high halves
      s4_addr   <= s3_addr;
      s4_first  <= s3_first;
      s4_emit   <= s3_emit;
      s4_last   <= s3_last;
      s4_key    <= s3_key;
      s4_b      <= s3_b;
      s4_a_lo   <= s3_a_lo;
      s4_a_hi   <= s3_a_hi;
      s4_lo_sum <= s3_lo_sum;
      s4_lo_lt  <= s3_lo_lt;
      s4_hi_sum <= s3_a_hi + s3_b[DataWidth-1:Half] + Half'(s3_lo_carry);
      s4_hi_lt  <= $signed(s3_a_hi) < $signed(s3_b[DataWidth-1:Half]);
      s4_hi_eq  <= s3_a_hi == s3_b[DataWidth-1:Half];
      // stage 3: low halves
      s3_addr   <= s2_addr;
      s3_first  <= s2_first;
      s3_emit   <= s2_emit;
      s3_last   <= s2_last;
      s3_key    <= s2_key;
      s3_b      <= s2_b;
      s3_a_lo   <= s2_a[Half-1:0];
      s3_a_hi   <= s2_a[DataWidth-1:Half];
      {s3_lo_carry, s3_lo_sum} <= {1'b0, s2_a[Half-1:0]} + {1'b0, s2_b[Half-1:0]};
      s3_lo_lt  <= s2_a[Half-1:0] < s2_b[Half-1:0];
      // stage 2: the memory's word registered
      s2_addr   <= s1_addr;
      s2_first  <= s1_first;
      s2_emit   <= s1_emit;
      s2_last   <= s1_last;
      s2_key    <= s1_key;
      s2_b      <= s1_b;
      s2_a      <= rd_q;
      // stage 1: the flit taken
      s1_addr   <= t_addr;
      s1_first  <= t_first;
      s1_emit   <= t_emit;
      s1_last   <= t_last;
      s1_key    <= t_key;
      s1_b      <= in_data_i;
    end
  end

  // ---------------------------------------------------------------- the other registers
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      enable_q      <= 1'b0;
      child_mask_q  <= '0;
      op_q          <= OpSum;
      last_idx_q    <= '0;
      short_q       <= 1'b1;
      slot_valid_q  <= '0;
      slot_up_q     <= '0;
      slot_gone_q   <= '0;
      probe_ok_q    <= 1'b0;
      changed_q     <= 1'b0;
      in_pkt_q      <= 1'b0;
      in_slot_q     <= '0;
      in_first_q    <= 1'b0;
      in_emit_q     <= 1'b0;
      in_idx_q      <= '0;
      {s1_valid, s2_valid, s3_valid, s4_valid} <= '0;
      out_valid_q   <= 1'b0;
      out_key_q     <= '0;
      out_data_q    <= '0;
      out_last_q    <= 1'b0;
      dn_idx_q      <= '0;
    end else begin
      slot_valid_q <= slot_valid_d;
      slot_up_q    <= slot_up_d;
      slot_gone_q  <= slot_gone_d;
      if (advance) begin
        s4_valid <= s3_valid;
        s3_valid <= s2_valid;
        s2_valid <= s1_valid;
        s1_valid <= take;
      end
      // the probe, and whether the table changes in this cycle (a packet's
      // head taken, a slot freed, a configuration write: the probe is stale)
      probe_ok_q <= in_valid_i && !in_pkt_q && p_ok;
      changed_q  <= (take && !in_pkt_q) || freed || cfg_write;
      if (take) begin
        in_pkt_q   <= !t_last;
        in_slot_q  <= t_slot;
        in_first_q <= t_first;
        in_emit_q  <= t_emit;
        in_idx_q   <= t_last ? '0 : t_idx + WordsWidth'(1);
      end
      if (dn_take) begin
        out_valid_q <= 1'b1;
        out_key_q   <= dn_key_i;
        out_data_q  <= dn_data_i;
        out_last_q  <= dn_last;
        dn_idx_q    <= dn_last ? '0 : dn_idx_q + WordsWidth'(1);
      end else if (out_ready_i) begin
        out_valid_q <= 1'b0;
      end
      if (cfg_write) begin
        if (cfg_addr_i == switch_aggregator_regs_pkg::RegControl) enable_q <= cfg_wdata_i[0];
        if (cfg_addr_i == switch_aggregator_regs_pkg::RegChildMask) child_mask_q <= cfg_wdata_i[Children-1:0];
        if (cfg_addr_i == switch_aggregator_regs_pkg::RegOp && (cfg_wdata_i == 32'(OpSum) || cfg_wdata_i == 32'(OpMax) ||
                                    cfg_wdata_i == 32'(OpMin)))
          op_q <= cfg_wdata_i[2:0];
        // BLOCK_WORDS is kept as W - 1 (0 and W > max: max - 1)
        if (cfg_addr_i == switch_aggregator_regs_pkg::RegBlockWords) begin
          last_idx_q <= cfg_last;
          short_q    <= {1'b0, cfg_last} < (WordsWidth+1)'(3);
        end
      end
    end
  end

`ifndef SYNTHESIS
  // The contract: a head flit comes from a child of CHILD_MASK that has not
  // contributed to its block yet.
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      (take && !in_pkt_q) |-> (child_mask_q[in_child_i] && !(probe_hit_q && probe_mask[in_child_i])))
    else $error("switch_aggregator: packet from child %0d, which is not a child or has contributed", in_child_i);
  // A word is read only when no stage still has to write it (with packets
  // of 4 words or more this rests on the head's lookup cycle: checked here
  // in every cycle of the benches, proven in scripts/formal.sh for short ones).
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      take |-> !((s1_valid && s1_addr == t_addr) || (s2_valid && s2_addr == t_addr) ||
                 (s3_valid && s3_addr == t_addr) || (s4_valid && s4_addr == t_addr)))
    else $error("switch_aggregator: word %0d read before a stage has written it", t_addr);
  // A down word belongs to a block whose up packet has gone.
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      dn_take |-> (dn_key_match != '0))
    else $error("switch_aggregator: down word of block %0h, which has not gone up", dn_key_i);
`endif

`ifdef FORMAL
  // Formal properties (scripts/formal.sh; Yosys read_verilog -formal, proven
  // by induction with yosys-smtbmc), at reduced widths (scripts/formal.sh:
  // 2 slots, packets of up to 2 words, 2 children, 4-bit words, 2-bit keys).
  // f_* is a monitor written from the ports: for one block f_key and one
  // word index f_word, both chosen freely by the solver (anyconst: every
  // block and word at once), it records which children have contributed,
  // the reduction of their words at f_word computed with whole-word
  // operators (the RTL adds and compares in halves), the words of the
  // block's up packet, and whether it has gone up; a block's generation
  // ends when its last down word is taken.
  logic f_past_valid = 1'b0;
  always @(posedge clk_i) f_past_valid <= 1'b1;
  initial assume (!rst_ni);

  (* anyconst *) logic [KeyWidth-1:0]   f_key;
  (* anyconst *) logic [WordsWidth-1:0] f_word;

  logic                  f_pkt;          // a packet in progress on the children side
  logic [KeyWidth-1:0]   f_pkt_key;      //   its block
  logic [$clog2(Children)-1:0] f_pkt_child;  // its child
  logic [WordsWidth-1:0] f_pkt_idx;      //   words taken so far
  logic [Children-1:0]   f_contrib;      // f_key: children whose packet's head was taken
  logic                  f_have;         // f_key: a word f_word taken
  logic [DataWidth-1:0]  f_acc;          // f_key: the reduction of the words f_word taken
  logic [WordsWidth:0]   f_emit_in;      // f_key: words of the completing packet taken
  logic [WordsWidth:0]   f_up_idx;       // f_key: up words taken
  logic                  f_went_up;      // f_key: the up packet's last word taken
  logic                  f_dn_pkt;       // a down packet in progress
  logic [KeyWidth-1:0]   f_dn_key;       //   its block
  logic [WordsWidth-1:0] f_dn_idx;       //   words taken so far

  logic                  f_in_head, f_in_key_is_f, f_word_now, f_up_take, f_dn_free;
  logic [KeyWidth-1:0]   f_take_key;
  logic [DataWidth-1:0]  f_combined;
  assign f_in_head     = in_valid_i && !f_pkt;
  assign f_take_key    = f_pkt ? f_pkt_key : in_key_i;
  assign f_in_key_is_f = f_take_key == f_key;
  assign f_word_now    = (f_pkt ? f_pkt_idx : '0) == f_word;
  assign f_up_take     = up_valid_o && up_ready_i && up_key_o == f_key;
  assign f_dn_free     = dn_take && dn_key_i == f_key && (f_dn_pkt ? f_dn_idx : '0) == last_idx_q;
  // the monitor's reduction: whole words, signed compare
  always_comb begin
    if (op_q == OpMax)      f_combined = $signed(in_data_i) > $signed(f_acc) ? in_data_i : f_acc;
    else if (op_q == OpMin) f_combined = $signed(in_data_i) < $signed(f_acc) ? in_data_i : f_acc;
    else                    f_combined = f_acc + in_data_i;
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      f_pkt <= 1'b0; f_pkt_key <= '0; f_pkt_child <= '0; f_pkt_idx <= '0;
      f_contrib <= '0; f_have <= 1'b0; f_acc <= '0; f_emit_in <= '0; f_up_idx <= '0; f_went_up <= 1'b0;
      f_dn_pkt <= 1'b0; f_dn_key <= '0; f_dn_idx <= '0;
    end else begin
      if (take) begin
        if (!f_pkt) begin
          f_pkt_key   <= in_key_i;
          f_pkt_child <= in_child_i;
        end
        f_pkt     <= (f_pkt ? f_pkt_idx : '0) != last_idx_q;
        f_pkt_idx <= (f_pkt ? f_pkt_idx : '0) + 1'b1;
        if (f_in_key_is_f) begin
          if (!f_pkt) f_contrib <= f_contrib | (Children'(1) << in_child_i);
          if (f_word_now) begin
            f_have <= 1'b1;
            f_acc  <= f_have ? f_combined : in_data_i;
          end
          if ((f_pkt ? f_contrib : f_contrib | (Children'(1) << in_child_i)) == child_mask_q)
            f_emit_in <= f_emit_in + 1'b1;
        end
      end
      if (f_up_take) begin
        f_up_idx <= f_up_idx + 1'b1;
        if (up_last_o) f_went_up <= 1'b1;
      end
      if (dn_take) begin
        f_dn_pkt <= (f_dn_pkt ? f_dn_idx : '0) != last_idx_q;
        f_dn_idx <= (f_dn_pkt ? f_dn_idx : '0) + 1'b1;
        if (!f_dn_pkt) f_dn_key <= dn_key_i;
      end
      // the block's last down word: its generation ends
      if (f_dn_free) begin
        f_contrib <= '0; f_have <= 1'b0; f_emit_in <= '0; f_up_idx <= '0; f_went_up <= 1'b0;
      end
    end
  end

  // Environment (the contract in hls/switch_aggregator.hpp): a head comes
  // from a child of CHILD_MASK that has not contributed to its block; a
  // down packet is W words of one block whose up packet has gone.
  always @(posedge clk_i) begin
    if (in_valid_i && !in_pkt_q) begin
      assume (child_mask_q[in_child_i]);
      assume (!(t_hit && slot_mask_v[t_hit_slot*Children + in_child_i]));
    end
    if (dn_valid_i) begin
      assume (dn_key_match != '0);
      if (f_dn_pkt) assume (dn_key_i == f_dn_key);
    end
  end

  // Which slot holds f_key, and the stages' view of it.
  logic                 f_in_table;
  logic [SlotWidth-1:0] f_slot;
  always_comb begin
    f_in_table = 1'b0;
    f_slot = '0;
    for (int unsigned s = 0; s < Slots; s++)
      if (slot_valid_q[s] && slot_key_q[s] == f_key) begin
        f_in_table = 1'b1;
        f_slot = SlotWidth'(s);
      end
  end
  logic [AddrWidth-1:0] f_addr;
  assign f_addr = {f_slot, f_word};

  // a stage's eventual result, from its registers, by whole-word operators
  function automatic logic [DataWidth-1:0] f_op(input logic [2:0] op, input logic [DataWidth-1:0] a,
                                                input logic [DataWidth-1:0] b);
    if (op == OpMax)      f_op = $signed(b) > $signed(a) ? b : a;
    else if (op == OpMin) f_op = $signed(b) < $signed(a) ? b : a;
    else                  f_op = a + b;
  endfunction
  function automatic logic f_stage_ok(input logic valid, input logic [AddrWidth-1:0] addr,
                                      input logic [KeyWidth-1:0] key, input logic emit);
    logic [SlotWidth-1:0] sl;
    sl = addr[AddrWidth-1:WordsWidth];
    f_stage_ok = !valid || (slot_valid_q[sl] && slot_key_q[sl] == key && !slot_gone_q[sl] && (!emit || slot_up[sl]) &&
                            addr[WordsWidth-1:0] <= last_idx_q);
  endfunction
  // behind an up word (older stage o, younger y) the same slot has only
  // its later up words
  function automatic logic f_pair_ok(input logic ov, input logic [AddrWidth-1:0] oa, input logic oe,
                                     input logic yv, input logic [AddrWidth-1:0] ya, input logic ye);
    f_pair_ok = !(ov && oe && yv && oa[AddrWidth-1:WordsWidth] == ya[AddrWidth-1:WordsWidth]) ||
                (ye && ya[WordsWidth-1:0] > oa[WordsWidth-1:0]);
  endfunction
  logic f_pairs_ok;
  assign f_pairs_ok = f_pair_ok(s4_valid, s4_addr, s4_emit, s3_valid, s3_addr, s3_emit) &&
                      f_pair_ok(s4_valid, s4_addr, s4_emit, s2_valid, s2_addr, s2_emit) &&
                      f_pair_ok(s4_valid, s4_addr, s4_emit, s1_valid, s1_addr, s1_emit) &&
                      f_pair_ok(s3_valid, s3_addr, s3_emit, s2_valid, s2_addr, s2_emit) &&
                      f_pair_ok(s3_valid, s3_addr, s3_emit, s1_valid, s1_addr, s1_emit) &&
                      f_pair_ok(s2_valid, s2_addr, s2_emit, s1_valid, s1_addr, s1_emit) &&
                      f_pair_ok(s4_valid, s4_addr, s4_emit, in_pkt_q, {in_slot_q, in_idx_q}, in_emit_q) &&
                      f_pair_ok(s3_valid, s3_addr, s3_emit, in_pkt_q, {in_slot_q, in_idx_q}, in_emit_q) &&
                      f_pair_ok(s2_valid, s2_addr, s2_emit, in_pkt_q, {in_slot_q, in_idx_q}, in_emit_q) &&
                      f_pair_ok(s1_valid, s1_addr, s1_emit, in_pkt_q, {in_slot_q, in_idx_q}, in_emit_q);
  // f_key's up words in the stages are in order, after those taken
  logic f_e1, f_e2, f_e3, f_e4;
  assign f_e1 = s1_valid && s1_emit && s1_key == f_key;
  assign f_e2 = s2_valid && s2_emit && s2_key == f_key;
  assign f_e3 = s3_valid && s3_emit && s3_key == f_key;
  assign f_e4 = s4_valid && s4_emit && s4_key == f_key;
  logic f_order_ok;
  assign f_order_ok = (!f_e4 || (WordsWidth+1)'(s4_addr[WordsWidth-1:0]) == f_up_idx) &&
                      (!f_e3 || (WordsWidth+1)'(s3_addr[WordsWidth-1:0]) == f_up_idx + (WordsWidth+1)'(f_e4)) &&
                      (!f_e2 || (WordsWidth+1)'(s2_addr[WordsWidth-1:0]) == f_up_idx + (WordsWidth+1)'(f_e4) +
                                (WordsWidth+1)'(f_e3)) &&
                      (!f_e1 || (WordsWidth+1)'(s1_addr[WordsWidth-1:0]) == f_up_idx + (WordsWidth+1)'(f_e4) +
                                (WordsWidth+1)'(f_e3) + (WordsWidth+1)'(f_e2));
  logic [DataWidth-1:0] f_r1, f_r2, f_r3, f_r4;
  assign f_r1 = s1_first ? s1_b : f_op(op_q, rd_q, s1_b);
  assign f_r2 = s2_first ? s2_b : f_op(op_q, s2_a, s2_b);
  assign f_r3 = s3_first ? s3_b : f_op(op_q, {s3_a_hi, s3_a_lo}, s3_b);
  assign f_r4 = s4_first ? s4_b : f_op(op_q, {s4_a_hi, s4_a_lo}, s4_b);
  logic f_at1, f_at2, f_at3, f_at4;  // stage j holds f_key's word f_word
  assign f_at1 = s1_valid && s1_key == f_key && s1_addr[WordsWidth-1:0] == f_word;
  assign f_at2 = s2_valid && s2_key == f_key && s2_addr[WordsWidth-1:0] == f_word;
  assign f_at3 = s3_valid && s3_key == f_key && s3_addr[WordsWidth-1:0] == f_word;
  assign f_at4 = s4_valid && s4_key == f_key && s4_addr[WordsWidth-1:0] == f_word;
  logic [2:0] f_emit_stages;  // stages holding words of f_key's up packet
  assign f_emit_stages = 3'(s1_valid && s1_emit && s1_key == f_key) + 3'(s2_valid && s2_emit && s2_key == f_key) +
                         3'(s3_valid && s3_emit && s3_key == f_key) + 3'(s4_valid && s4_emit && s4_key == f_key);
  logic f_masks_ok, f_keys_unique;  // every slot in use: children of CHILD_MASK, complete = gone up; keys unique;
                                    // a free slot not gone
  always_comb begin
    f_masks_ok = 1'b1;
    f_keys_unique = 1'b1;
    for (int unsigned i = 0; i < Slots; i++) begin
      if (!slot_valid_q[i] && slot_gone_q[i]) f_masks_ok = 1'b0;
      if (slot_valid_q[i] && !(slot_mask_v[(i)*Children +: Children] != '0 && (slot_mask_v[(i)*Children +: Children] & ~child_mask_q) == '0 &&
                               slot_up[i] == (slot_mask_v[(i)*Children +: Children] == child_mask_q) && (!slot_gone_q[i] || slot_up[i])))
        f_masks_ok = 1'b0;
      for (int unsigned j = i + 1; j < Slots; j++)
        if (slot_valid_q[i] && slot_valid_q[j] && slot_key_q[i] == slot_key_q[j]) f_keys_unique = 1'b0;
    end
  end
  function automatic logic f_behind(input logic valid, input logic [AddrWidth-1:0] addr);
    f_behind = !valid || addr[AddrWidth-1:WordsWidth] != in_slot_q || addr[WordsWidth-1:0] < in_idx_q;
  endfunction
  logic [Children-1:0] f_pkt_bit, f_probe_bit;
  assign f_probe_bit = Children'(1) << probe_child_q;
  logic f_probe_key_held;  // a slot holds the probed key
  always_comb begin
    f_probe_key_held = 1'b0;
    for (int unsigned i = 0; i < Slots; i++)
      if (slot_valid_q[i] && slot_key_q[i] == probe_key_q) f_probe_key_held = 1'b1;
  end
  // the head offered in the cycle before
  logic                  f_prev_head;
  logic [KeyWidth-1:0]   f_prev_key;
  logic [$clog2(Children)-1:0] f_prev_child;
  always @(posedge clk_i) begin
    f_prev_head  <= rst_ni && in_valid_i && !in_pkt_q;
    f_prev_key   <= in_key_i;
    f_prev_child <= in_child_i;
  end
  assign f_pkt_bit = Children'(1) << f_pkt_child;

  always @(posedge clk_i) begin
    if (rst_ni) begin
      // U1: an up word of a block only when every child has contributed.
      if (up_valid_o && up_key_o == f_key) U1_complete: assert (f_contrib == child_mask_q);
      // U2: the up word f_word is the reduction of the children's words f_word.
      if (up_valid_o && up_key_o == f_key && f_up_idx == (WordsWidth+1)'(f_word))
        U2_reduced: assert (f_have && up_data_o == f_acc);
      // U3: one up packet a block, of W words, the last flagged.
      if (up_valid_o && up_key_o == f_key) begin
        U3_once: assert (!f_went_up);
        U3_last: assert (up_last_o == (f_up_idx == (WordsWidth+1)'(last_idx_q)));
      end
      // N: no word lost or created: the completing packet's words taken
      // minus the up words taken are the words in the pipeline.
      N1_in_flight: assert (f_emit_in == f_up_idx + (WordsWidth+1)'(f_emit_stages));
      N2_all_up: assert (f_went_up == (f_up_idx == (WordsWidth+1)'(last_idx_q) + 1'b1));
      // the monitor's counts: the completing packet's words taken so far
      I_counts: assert (f_emit_in == (f_contrib != child_mask_q || f_contrib == '0 ? '0 :
                                      f_pkt && f_pkt_key == f_key ? (WordsWidth+1)'(f_pkt_idx) :
                                      (WordsWidth+1)'(last_idx_q) + 1'b1));
      // R: a word is read (its flit taken) only when no stage still has to
      // write it (read after write)
      if (take) R1_read_after_write: assert (!(s1_valid && s1_addr == t_addr) && !(s2_valid && s2_addr == t_addr) &&
                                             !(s3_valid && s3_addr == t_addr) && !(s4_valid && s4_addr == t_addr));
      // D: a slot holds its block from the first packet until the block's
      // last down word; a down word leaves unchanged in the next cycle.
      D1_held: assert (f_in_table == (f_contrib != '0));
      // F: what a full table does. A head of a block the table does not
      // hold is refused (pipeline permitting) only when every slot is in
      // use; a head of a held block that has not gone up is refused only by
      // the pipeline; a complete block takes no more packets.
      // (a head is looked up in the cycle it is first offered and taken in
      // the next: the conditions hold for a head offered in two cycles, the
      // table unchanged in the first)
      if (in_valid_i && !in_pkt_q && in_key_i == f_key && f_prev_head && f_prev_key == f_key &&
          f_prev_child == in_child_i && !changed_q && enable_q && advance && !t_hazard && !cfg_we_i) begin
        if (f_contrib == '0 && !in_ready_o) F1_full: assert (slot_valid_q == '1);
        if (f_contrib != '0 && f_contrib != child_mask_q) F2_held: assert (in_ready_o);
      end
      if (in_valid_i && !in_pkt_q && in_key_i == f_key && f_contrib == child_mask_q && f_contrib != '0)
        F3_complete: assert (!in_ready_o);
      // I: invariants that make the induction close. Keys are unique in
      // the table; the slot of f_key has the monitor's children, complete
      // exactly when all have contributed; the packet in progress is the
      // monitor's; stages hold distinct addresses; the halves' partial
      // results are those of the stage's words; a stage holding f_key's
      // word f_word will write the monitor's reduction, and with none in
      // flight the accumulator holds it.
      I_mask: assert (f_masks_ok);
      I_unique: assert (f_keys_unique);
      if (f_in_table) begin
        I_contrib: assert (slot_mask_v[(f_slot)*Children +: Children] == f_contrib && slot_up[f_slot] == (f_contrib == child_mask_q) &&
                           slot_gone_q[f_slot] == f_went_up);
      end else begin
        I_fresh: assert (f_contrib == '0 && !f_have && f_emit_in == '0 && f_up_idx == '0 && !f_went_up);
      end
      I_pkt: assert (in_pkt_q == f_pkt && (!in_pkt_q || (in_idx_q == f_pkt_idx && in_idx_q != '0 && in_idx_q <= last_idx_q &&
                     slot_valid_q[in_slot_q] && slot_key_q[in_slot_q] == f_pkt_key &&
                     (slot_mask_v[(in_slot_q)*Children +: Children] & f_pkt_bit) != '0 &&
                     in_first_q == (slot_mask_v[(in_slot_q)*Children +: Children] == f_pkt_bit) && in_emit_q == slot_up[in_slot_q] &&
                     !slot_gone_q[in_slot_q])));
      // a stage's word belongs to the block its slot holds; an up word's
      // block is complete and not gone
      I_order: assert (f_order_ok && f_pairs_ok);
      // f_word has been taken from a packet of f_key unless only the first
      // packet has come, and not as far as f_word yet
      I_have: assert (f_have == (f_contrib != '0 && f_word <= last_idx_q && !(f_pkt && f_pkt_key == f_key && f_contrib == f_pkt_bit &&
                                                      f_pkt_idx <= f_word)));
      I_op: assert (op_q == OpSum || op_q == OpMax || op_q == OpMin);
      I_short: assert (short_q == ({1'b0, last_idx_q} < (WordsWidth+1)'(3)));
      // short packets: the stages hold only earlier words of the packet in
      // progress in its slot
      if (short_q && in_pkt_q)
        I_behind: assert (f_behind(s1_valid, s1_addr) && f_behind(s2_valid, s2_addr) && f_behind(s3_valid, s3_addr) &&
                          f_behind(s4_valid, s4_addr));
      I_last: assert ((!s1_valid || s1_last == (s1_addr[WordsWidth-1:0] == last_idx_q)) &&
                      (!s2_valid || s2_last == (s2_addr[WordsWidth-1:0] == last_idx_q)) &&
                      (!s3_valid || s3_last == (s3_addr[WordsWidth-1:0] == last_idx_q)) &&
                      (!s4_valid || s4_last == (s4_addr[WordsWidth-1:0] == last_idx_q)));
      I_stages: assert (f_stage_ok(s1_valid, s1_addr, s1_key, s1_emit) && f_stage_ok(s2_valid, s2_addr, s2_key, s2_emit) &&
                        f_stage_ok(s3_valid, s3_addr, s3_key, s3_emit) && f_stage_ok(s4_valid, s4_addr, s4_key, s4_emit));
      // the probe is the lookup of the head it names, while the table has
      // not changed since
      if (probe_ok_q && !changed_q)
        I_probe: assert (enable_q && probe_emit_q == (((probe_hit_q ? probe_mask : '0) | f_probe_bit) == child_mask_q) &&
                         (probe_hit_q ? (slot_valid_q[probe_slot_q] && slot_key_q[probe_slot_q] == probe_key_q &&
                                         !slot_up[probe_slot_q])
                                      : (!slot_valid_q[probe_slot_q] && !f_probe_key_held)));
      I_dn: assert (f_dn_pkt == (dn_idx_q != '0) && (!f_dn_pkt || dn_idx_q == f_dn_idx) && dn_idx_q <= last_idx_q);
      if (s3_valid)
        I_halves3: assert ({s3_lo_carry, s3_lo_sum} == {1'b0, s3_a_lo} + {1'b0, s3_b[Half-1:0]} &&
                           s3_lo_lt == (s3_a_lo < s3_b[Half-1:0]));
      if (s4_valid)
        I_halves4: assert (s4_lo_sum == s4_a_lo + s4_b[Half-1:0] && s4_lo_lt == (s4_a_lo < s4_b[Half-1:0]) &&
                           s4_hi_eq == (s4_a_hi == s4_b[DataWidth-1:Half]) &&
                           s4_hi_lt == ($signed(s4_a_hi) < $signed(s4_b[DataWidth-1:Half])) &&
                           {s4_hi_sum, s4_lo_sum} == {s4_a_hi, s4_a_lo} + s4_b);
      I_distinct: assert (!(s1_valid && s2_valid && s1_addr == s2_addr) && !(s1_valid && s3_valid && s1_addr == s3_addr) &&
                          !(s1_valid && s4_valid && s1_addr == s4_addr) && !(s2_valid && s3_valid && s2_addr == s3_addr) &&
                          !(s2_valid && s4_valid && s2_addr == s4_addr) && !(s3_valid && s4_valid && s3_addr == s4_addr));
      if (s1_valid && s1_key == f_key) I_stage1: assert (f_in_table && s1_addr[AddrWidth-1:WordsWidth] == f_slot);
      if (s2_valid && s2_key == f_key) I_stage2: assert (f_in_table && s2_addr[AddrWidth-1:WordsWidth] == f_slot);
      if (s3_valid && s3_key == f_key) I_stage3: assert (f_in_table && s3_addr[AddrWidth-1:WordsWidth] == f_slot);
      if (s4_valid && s4_key == f_key) I_stage4: assert (f_in_table && s4_addr[AddrWidth-1:WordsWidth] == f_slot);
      if (f_at1) I_data1: assert (f_have && f_r1 == f_acc);
      if (f_at2) I_data2: assert (f_have && f_r2 == f_acc);
      if (f_at3) I_data3: assert (f_have && f_r3 == f_acc);
      if (f_at4) I_data4: assert (f_have && f_r4 == f_acc);
      if (f_have && !f_at1 && !f_at2 && !f_at3 && !f_at4) I_memory: assert (acc_q[f_addr] == f_acc);
      if (f_have) I_no_stale: assert (!(s1_valid && s1_addr == f_addr && s1_key != f_key) &&
                                      !(s2_valid && s2_addr == f_addr && s2_key != f_key) &&
                                      !(s3_valid && s3_addr == f_addr && s3_key != f_key) &&
                                      !(s4_valid && s4_addr == f_addr && s4_key != f_key));
    end
    // H: an offered up or down word stays offered and unchanged until taken.
    if (f_past_valid && $past(rst_ni) && rst_ni && $past(up_valid_o && !up_ready_i))
      H_up: assert (up_valid_o && up_key_o == $past(up_key_o) && up_data_o == $past(up_data_o) &&
                    up_last_o == $past(up_last_o));
    if (f_past_valid && $past(rst_ni) && rst_ni && $past(out_valid_o && !out_ready_i))
      H_out: assert (out_valid_o && out_key_o == $past(out_key_o) && out_data_o == $past(out_data_o) &&
                     out_last_o == $past(out_last_o));
    // D2: a down word taken is offered to the children in the next cycle,
    // unchanged, its last flag on the block's last word.
    if (f_past_valid && $past(rst_ni) && rst_ni && $past(dn_take))
      D2_passed: assert (out_valid_o && out_key_o == $past(dn_key_i) && out_data_o == $past(dn_data_i) &&
                         out_last_o == $past((f_dn_pkt ? f_dn_idx : '0) == last_idx_q));
    // D1: f_key's slot frees only with the block's last down word.
    if (f_past_valid && $past(rst_ni) && rst_ni && $past(f_in_table) && !f_in_table)
      D1_freed: assert ($past(f_dn_free) && $past(f_went_up));
    // E: the configuration changes only by a write while not busy.
    if (f_past_valid && $past(rst_ni) && rst_ni && $past(busy_o))
      E_stable: assert (enable_q == $past(enable_q) && child_mask_q == $past(child_mask_q) && op_q == $past(op_q) &&
                        last_idx_q == $past(last_idx_q));
  end

  // Covers: the events the properties are about, reached from reset.
  always @(posedge clk_i) begin
    if (rst_ni) begin
      // U: a block of two children goes up, its word f_word a sum of two
      // nonzero words; the same with max.
      cover_U1_two_children: cover (f_up_take && up_last_o && child_mask_q == '1);
      cover_U2_sum: cover (f_up_take && f_up_idx == (WordsWidth+1)'(f_word) && child_mask_q == '1 && op_q == OpSum &&
                           up_data_o != '0 && f_acc != '0);
      cover_U2_max: cover (f_up_take && child_mask_q == '1 && op_q == OpMax && s4_a != s4_b);
      // F: a new block refused by a full table; a flit waiting for a write
      // (hazard); a held block's packet taken while the table is full.
      cover_F1_full: cover (in_valid_i && !in_pkt_q && !t_hit && slot_valid_q == '1 && advance);
      cover_F2_hazard: cover (in_valid_i && t_accept && t_hazard && advance);
      cover_F2_full_taken: cover (take && !in_pkt_q && t_hit && slot_valid_q == '1);
      // D: a block's slot frees; H: an up word waits for the parent.
      cover_D1_freed: cover (f_dn_free && f_went_up);
      cover_H_up_stall: cover (up_valid_o && !up_ready_i);
    end
  end
`endif
endmodule
