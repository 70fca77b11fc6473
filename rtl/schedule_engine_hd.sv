// Schedule engine for hd-allreduce and hd-allreduce-conventional (document
// 004): expands one endpoint's program (main unit or aggregation unit) into
// its descriptor stream. RTL of hls/schedule_engine_hd.hpp, register for
// register (same names); that header documents the stream, the register map
// and the timing. bench/verilator/schedule_engine_hd_bench.cpp checks
// that this module, the HLS class and the software reference emit the same
// words.
//
// No multiplier: board coordinates are bit fields of the board id (sizes are
// powers of two), board*12 = (board << 3) + (board << 2), m*B by shift-add.
// Arrays are flat vectors (dimension d at [d*W +: W]).
//
// Timing (iCE40 HX8K, docs/synthesis.md): no cycle computes a register from a
// variable-index lookup of another computed value. The board id, the shifts,
// board x 12 and the endpoint id follow the SIZE, COORD and UNIT registers one
// and two cycles later (software writes them before CONTROL, so they are
// ready in the init cycle and the cycle after it, where they are first read);
// so do B and 3 x B, and m x B and a x B a cycle after them (read from the
// cycle after init on), the dimension order (each dimension's place, then the
// order: two cycles, first read in the cycle after init), and the first part
// of a split message, ceil(len / 2) and ceil((len >> 1) / 2), follows len
// (set with it where a doubling grows it). The current step's dimension, k,
// board-id bit position and board bit (cur_*) are registers set when the plan
// moves (from the look-ahead registers up_*, dn_*, plus_bit, minus_bit, which
// follow idx and cur_pos one cycle later: the plan moves at most every third
// cycle); the partner follows cur_pos. The step's planning cycle also decides
// how the plan moves after the step (one-hot adv) and whether the divide
// follows it; the second part's addresses and length and the local tag follow
// their registers. The state register is one-hot.
//
// Register map: package schedule_engine_hd_regs_pkg (schedule_engine_regs_pkg.sv,
// generated from hls/engine_registers.yaml into build/generated/rtl/);
// ports: schedule_engine_ports.svh; registers and output buffer: common/schedule_engine_skeleton.sv
// (instance and the shared formal properties: schedule_engine_skeleton.svh).
// The state register is one-hot, so the engine writes its own closing states
// (the END and idle states of schedule_engine_states.svh, with a bit test).

module schedule_engine_hd (
`include "schedule_engine_ports.svh"
);

  localparam int unsigned AddrWidth = 20;
  localparam logic [15:0] LocalTag = 16'h8000;
  localparam logic [3:0] MainUnits = 4'd8;

  // The state is one-hot (idle too: busy is its inverse), so that a state's
  // decode is its own flip-flop; S<name> is the bit of State<name>.
  localparam int unsigned SInit = 0, SMainSend = 1, SMainWait = 2, SS2Wait = 3, SS2Local = 4, SS2Lwait = 5,
    SDivSend = 6, SDivWait = 7, SStepPlan = 8, SPart0 = 9, SPart1 = 10, SNetWait = 11, SHLocal = 12, SHLwait = 13,
    SBcast = 14, SEnd = 15, SIdle = 16;
  typedef enum logic [16:0] {StateIdle = 17'd1 << SIdle, StateInit = 17'd1 << SInit,
    StateMainSend = 17'd1 << SMainSend, StateMainWait = 17'd1 << SMainWait, StateS2Wait = 17'd1 << SS2Wait,
    StateS2Local = 17'd1 << SS2Local, StateS2Lwait = 17'd1 << SS2Lwait, StateDivSend = 17'd1 << SDivSend,
    StateDivWait = 17'd1 << SDivWait, StateStepPlan = 17'd1 << SStepPlan, StatePart0 = 17'd1 << SPart0,
    StatePart1 = 17'd1 << SPart1, StateNetWait = 17'd1 << SNetWait, StateHLocal = 17'd1 << SHLocal,
    StateHLwait = 17'd1 << SHLwait, StateBcast = 17'd1 << SBcast, StateEnd = 17'd1 << SEnd} state_e;

  /// Every register of the engine (_d the next value, _q the current one).
  typedef struct packed {
    // configuration
    logic                   conventional;
    logic                   bandwidth;
    logic [2:0]             op;
    logic                   float64;
    logic [3:0]             unit;
    logic [AddrWidth-1:0]   elements;
    logic [2:0]             agg_units;
    state_e                 state;
    // follow SIZE and DIM_ORDER (one cycle; two for order)
    logic [7:0]             rank;         // dimension d's place in the order at [2d +: 2], if present
    logic [3:0]             present;      // dimension d has size > 1
    logic [7:0]             order;        // dimension at [2i +: 2]
    logic [2:0]             ndims;
    // follow SIZE, COORD, UNIT (one cycle, two for board_base and self)
    logic [15:0]            shift;        // shift_d at [4d +: 4]
    logic [7:0]             board;
    logic [15:0]            board_base;
    logic [15:0]            self;
    logic [AddrWidth-1:0]   b, b3;        // B and 3 x B (follow ELEMENTS, AGG_UNITS)
    logic [AddrWidth-1:0]   abase, mbase;  // the A-plane and main-unit bases
    logic [AddrWidth-1:0]   m_mult, a_mult;  // m x B and a x B of this unit: follow B, 3 x B and UNIT
    logic [3:0]             count, lcount;
    // plan position and the held block
    logic [15:0]            g;
    logic [1:0]             idx;
    logic [1:0]             bit_index;
    logic                   halving;
    logic [AddrWidth-1:0]   lo, len;      // the held block
    logic [AddrWidth-1:0]   len_up, half_up;  // ceil(len / 2), ceil((len >> 1) / 2): follow len
    logic [AddrWidth-1:0]   cursor, slot;  // the next halving slot, this step's
    // the current step's messages
    logic [15:0]            partner;
    logic [AddrWidth-1:0]   src, dst, n, first;  // n words from src to dst, in parts of first and n - first
    logic                   two_parts;
    logic [7:0]             hint0;
    // the current step: dimension order[idx], its k, bit position shift + bit_index, board bit there
    logic [1:0]             cur_dim, cur_k;
    logic [2:0]             cur_pos;
    logic                   cur_bit;
    // look-ahead (follows idx and cur_pos): order slot idx + 1 at bit 0, slot idx - 1 at its top bit,
    // and the board bits at cur_pos + 1 and cur_pos - 1
    logic [1:0]             up_dim, up_k, dn_dim, dn_k;
    logic [2:0]             up_pos, dn_pos;
    logic                   up_bit, dn_bit, plus_bit, minus_bit;
    // decided in the step's planning cycle: how the plan moves after it (one-hot adv_e), and
    // whether it is the last halving; the second part's source, destination and length follow
    // src, dst, first and n, and the local tag follows g
    logic [6:0]             adv;
    logic                   divide_next;  // average, and the step is the last halving
    logic [AddrWidth-1:0]   src1, dst1, n1;
    logic [15:0]            ltag;
  } regs_t;
  regs_t r_d, r_q, regs_reset;
  logic  cfg_write;  // the configuration write of this cycle is taken

  // How the plan moves after a step (bit positions of the one-hot r_q.adv):
  // halving: next bit, next dimension, turn to doubling; doubling: previous
  // bit, previous dimension, next dimension's halvings (conventional), broadcast.
  localparam int unsigned AdvBitUp = 0, AdvDimUp = 1, AdvToDoubling = 2, AdvBitDown = 3, AdvDimDown = 4,
    AdvNextDim = 5, AdvBcast = 6;

  // ---- combinational helpers ------------------------------------------------
  logic [3:0]  h_sum;        // H = sum k_d
  logic [15:0] last_step;    // 2H + 1
  logic        average;
  logic [2:0]  rop;          // receive op: sum 1, product 2, max 3, min 4

  // Fields read at a variable index, as plain vectors: Yosys 0.23 makes a
  // variable part-select of a packed-struct member a shifter over the whole
  // struct (docs/synthesis.md, "Notes for RTL writers").
  logic [7:0]  order_q, board_q, rank_q;
  logic [15:0] shift_q;
  assign {order_q, shift_q, board_q, rank_q} = {r_q.order, r_q.shift, r_q.board, r_q.rank};

  // SIZE d (1, 2 or 4) and COORD d; k_d = log2 n_d and c_d at [2d +: 2]
  logic [11:0] size_q;
  logic [7:0]  coord_q, log_size_q;
  schedule_engine_dimensions #(.SizeWidth(3), .CoordWidth(2),
      .Size0Addr(schedule_engine_hd_regs_pkg::RegSize0), .Coord0Addr(schedule_engine_hd_regs_pkg::RegCoord0))
    u_dimensions (.clk_i, .rst_ni, .cfg_write_i(cfg_write), .cfg_addr_i, .cfg_wdata_i, .size_o(size_q),
      .coord_o(coord_q));
  always_comb
    for (int d = 0; d < 4; d++)
      log_size_q[2*d +: 2] = size_q[3*d +: 3] == 3'd4 ? 2'd2 : size_q[3*d +: 3] == 3'd2 ? 2'd1 : 2'd0;

  assign h_sum = 4'(log_size_q[1:0]) + 4'(log_size_q[3:2]) + 4'(log_size_q[5:4]) + 4'(log_size_q[7:6]);
  assign last_step = {11'd0, h_sum, 1'b1};
  assign average = r_q.op == 3'd4;
  assign rop = average ? 3'd1 : r_q.op + 3'd1;

  // the descriptor of this cycle
  logic                 can_load, load, load_end;
  collnet_descriptor_pkg::descriptor_t load_word;

  // init temporaries: the dimension order, board id and shifts, B, the A-plane index
  logic [2:0]           n_dims;
  logic [7:0]           order_tmp, board_tmp;
  logic [3:0]           late;
  logic [1:0]           rank_tmp;
  logic [3:0]           s_acc;
  logic [1:0]           a_index;
  logic [AddrWidth-1:0] b_tmp;
  // plan temporaries; done: step g is over, advance the plan
  logic [7:0]           partner_board;
  logic [1:0]           idx_up, idx_dn, dim_up, dim_dn;
  logic [2:0]           s_tmp;
  logic [AddrWidth-1:0] half;
  logic                 split, done;

  // The widest register is ELEMENTS (20 bits); bits 31:20 of a write are ignored.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] cfg_ignored;
  /* verilator lint_on UNUSEDSIGNAL */
  assign cfg_ignored = cfg_wdata_i;

  always_comb begin
    r_d = r_q;
    regs_reset = '0;  // but for the HLS class's register defaults:
    regs_reset.agg_units = 3'd1; regs_reset.halving = 1'b1; regs_reset.state = StateIdle;

    {load, load_end, load_word} = '0;
    {n_dims, order_tmp, board_tmp, late, rank_tmp, s_acc, a_index, b_tmp} = '0;
    {partner_board, half, split, done} = '0;

    // follow SIZE and COORD: the shifts and the board id; then board x 12 and the endpoint id
    for (int dim = 0; dim < 4; dim++) begin
      r_d.shift[4*dim +: 4] = s_acc;
      board_tmp = board_tmp | (8'(coord_q[2*dim +: 2]) << s_acc);
      s_acc = s_acc + 4'(log_size_q[2*dim +: 2]);
    end
    r_d.board = board_tmp;
    // follow SIZE and DIM_ORDER: the dimension order (wxyz = every dimension of
    // size > 1; bandwidth = size 2 first, then size 4, spec embodiment 2) as
    // each dimension's place in it (rank, present) and their count, then, a
    // cycle later, the order
    for (int dim = 0; dim < 4; dim++) late[dim] = r_q.bandwidth && log_size_q[2*dim +: 2] == 2'd2;
    for (int dim = 0; dim < 4; dim++) begin
      rank_tmp = '0;
      for (int e = 0; e < 4; e++)
        if (e != dim && log_size_q[2*e +: 2] != 2'd0 && (late[e] < late[dim] || (late[e] == late[dim] && e < dim)))
          rank_tmp = rank_tmp + 2'd1;
      r_d.rank[2*dim +: 2] = rank_tmp;
      r_d.present[dim] = log_size_q[2*dim +: 2] != 2'd0;
      n_dims = n_dims + 3'(r_d.present[dim]);
    end
    r_d.ndims = n_dims;
    for (int slot = 0; slot < 4; slot++)
      for (int dim = 0; dim < 4; dim++)
        if (r_q.present[dim] && rank_q[2*dim +: 2] == 2'(slot)) order_tmp[2*slot +: 2] |= 2'(dim);
    r_d.order = order_tmp;
    r_d.board_base = (16'(board_q) << 3) + (16'(board_q) << 2);
    r_d.self = (16'(board_q) << 3) + (16'(board_q) << 2) + 16'(r_q.unit);
    // follow ELEMENTS and AGG_UNITS: B and 3 x B
    b_tmp = r_q.agg_units == 3'd4 ? r_q.elements >> 2 : r_q.agg_units == 3'd2 ? r_q.elements >> 1 : r_q.elements;
    r_d.b = b_tmp;
    r_d.b3 = (b_tmp << 1) + b_tmp;
    // follow B, 3 x B and UNIT: m x B = 4B (m bit 2) + 0, B, 2B or 3B (m bits 1:0); a x B (a = UNIT - 8)
    r_d.m_mult = (r_q.unit[2] ? r_q.b << 2 : '0) + (r_q.unit[1] ? (r_q.unit[0] ? r_q.b3 : r_q.b << 1)
                                                                : (r_q.unit[0] ? r_q.b : '0));
    a_index = 2'(r_q.unit - MainUnits);
    r_d.a_mult = a_index[1] ? (a_index[0] ? r_q.b3 : r_q.b << 1) : (a_index[0] ? r_q.b : '0);
    // follow len: the first part of a message of len or len >> 1 words split in two
    r_d.len_up = (r_q.len >> 1) + AddrWidth'(r_q.len[0]);
    r_d.half_up = (r_q.len >> 2) + AddrWidth'(r_q.len[1]);
    // look-ahead of the plan (follows idx and cur_pos)
    idx_up = r_q.idx + 2'd1;
    idx_dn = r_q.idx - 2'd1;
    dim_up = order_q[2*idx_up +: 2];
    dim_dn = order_q[2*idx_dn +: 2];
    r_d.up_dim = dim_up;
    r_d.up_k = log_size_q[2*dim_up +: 2];
    r_d.up_pos = shift_q[4*dim_up +: 3];
    r_d.up_bit = board_q[shift_q[4*dim_up +: 3]];
    s_tmp = 3'(shift_q[4*dim_dn +: 4] + 4'(log_size_q[2*dim_dn +: 2]) - 4'd1);
    r_d.dn_dim = dim_dn;
    r_d.dn_k = log_size_q[2*dim_dn +: 2];
    r_d.dn_pos = s_tmp;
    r_d.dn_bit = board_q[s_tmp];
    r_d.plus_bit = board_q[3'(r_q.cur_pos + 3'd1)];
    r_d.minus_bit = board_q[3'(r_q.cur_pos - 3'd1)];
    // follow cur_pos: the partner (the plan moves in the cycle before the step's planning cycle, and
    // the partner is first read in the cycle after it)
    partner_board = r_q.board ^ (8'd1 << r_q.cur_pos);
    r_d.partner = (16'(partner_board) << 3) + (16'(partner_board) << 2) + 16'(r_q.unit);
    // follow src, dst, first, n and g: the second part of a split message, the local tag
    r_d.src1 = r_q.src + r_q.first;
    r_d.dst1 = r_q.dst + r_q.first;
    r_d.n1 = r_q.n - r_q.first;
    r_d.ltag = LocalTag + r_q.g;
    s_acc = '0;
    board_tmp = '0;

    // configuration port
    if (cfg_write) begin
      unique case (cfg_addr_i)
        schedule_engine_hd_regs_pkg::RegControl: if (cfg_wdata_i[0]) r_d.state = StateInit;
        schedule_engine_hd_regs_pkg::RegVariant: r_d.conventional = cfg_wdata_i[0];
        schedule_engine_hd_regs_pkg::RegDimOrder: r_d.bandwidth = cfg_wdata_i[0];
        schedule_engine_hd_regs_pkg::RegOp: r_d.op = cfg_wdata_i[2:0];
        schedule_engine_hd_regs_pkg::RegDtype: r_d.float64 = cfg_wdata_i[0];
        schedule_engine_hd_regs_pkg::RegUnit: r_d.unit = cfg_wdata_i[3:0];
        schedule_engine_hd_regs_pkg::RegElements: r_d.elements = cfg_wdata_i[AddrWidth-1:0];
        schedule_engine_hd_regs_pkg::RegAggUnits: r_d.agg_units = cfg_wdata_i[2:0];
        default: ;  // SIZE d, COORD d: u_dimensions
      endcase
    end

    unique case (1'b1)
      r_q.state[SInit]: begin
        {r_d.count, r_d.abase, r_d.g, r_d.idx, r_d.bit_index} = '0;
        r_d.halving = 1'b1;
        r_d.lo = '0;
        r_d.len = r_q.b;
        r_d.cursor = r_q.b << 3;
        // m x B and a x B are read from m_mult and a_mult a cycle later (MainSend, S2Wait)
        if (r_q.unit < MainUnits) begin
          r_d.state = StateMainSend;
        end else if (3'(r_q.unit - MainUnits) < r_q.agg_units) begin
          r_d.state = StateS2Wait;
        end else begin
          r_d.state = StateEnd;  // an aggregation unit outside the A planes
        end
      end
      r_q.state[SMainSend]: if (can_load) begin
        load = 1'b1;
        load_word = collnet_descriptor_pkg::send_descriptor(r_q.board_base + 16'(MainUnits) + 16'(r_q.count),
                                                            r_q.abase, r_q.m_mult, r_q.b, '0);
        r_d.count = r_q.count + 4'd1;
        r_d.abase = r_q.abase + r_q.b;
        if (r_q.count + 4'd1 == 4'(r_q.agg_units)) r_d.state = StateMainWait;
      end
      r_q.state[SMainWait]: if (can_load) begin
        load = 1'b1;
        load_word = collnet_descriptor_pkg::wait_descriptor(last_step, AddrWidth'(r_q.agg_units));
        r_d.state = StateEnd;
      end
      r_q.state[SS2Wait]: if (can_load) begin
        load = 1'b1;
        // the first step's dimension (order slot 0, bit 0)
        r_d.cur_dim = order_q[1:0];
        r_d.cur_k = log_size_q[2*order_q[1:0] +: 2];
        r_d.cur_pos = shift_q[4*order_q[1:0] +: 3];
        r_d.cur_bit = board_q[shift_q[4*order_q[1:0] +: 3]];
        load_word = collnet_descriptor_pkg::wait_descriptor('0, AddrWidth'(MainUnits));
        r_d.count = 4'd1;
        r_d.mbase = r_q.b;
        r_d.abase = r_q.a_mult;
        r_d.state = StateS2Local;
      end
      r_q.state[SS2Local]: if (can_load) begin
        load = 1'b1;
        load_word = collnet_descriptor_pkg::send_descriptor(r_q.self, r_q.mbase, '0, r_q.b, LocalTag);
        load_word.op = rop;
        r_d.state = StateS2Lwait;
      end
      r_q.state[SS2Lwait]: if (can_load) begin
        load = 1'b1;
        load_word = collnet_descriptor_pkg::wait_descriptor(LocalTag, AddrWidth'(r_q.count));
        r_d.count = r_q.count + 4'd1;
        r_d.mbase = r_q.mbase + r_q.b;
        if (r_q.count + 4'd1 < MainUnits) begin
          r_d.state = StateS2Local;
        end else if (average && r_q.ndims == '0) begin
          // spec hd-allreduce: average divides after the last halving (none here)
          r_d.state = StateDivSend;
          r_d.lcount = MainUnits;
        end else begin
          r_d.state = r_q.ndims == '0 ? StateBcast : StateStepPlan;
          r_d.count = '0;
        end
      end
      r_q.state[SDivSend]: if (can_load) begin
        load = 1'b1;
        // the divisor area follows the halving slots
        load_word = collnet_descriptor_pkg::send_descriptor(r_q.self, r_q.cursor, r_q.lo, r_q.len, r_q.ltag);
        load_word.op = collnet_descriptor_pkg::OpDivide;
        r_d.state = StateDivWait;
      end
      r_q.state[SDivWait]: if (can_load) begin
        load = 1'b1;
        load_word = collnet_descriptor_pkg::wait_descriptor(r_q.ltag, AddrWidth'(r_q.lcount));
        r_d.state = r_q.ndims == '0 ? StateBcast : StateStepPlan;
        r_d.count = '0;
        if (r_q.g != '0) done = 1'b1;  // advance the plan below
      end
      r_q.state[SStepPlan]: begin
        r_d.g = r_q.g + 16'd1;
        if (r_q.halving) begin
          // keep the first half if the bit is 0, else the second; send the other
          half = r_q.len >> 1;
          r_d.len = half;
          r_d.lo = r_q.lo + (r_q.cur_bit ? half : '0);
          r_d.src = r_q.cur_bit ? r_q.lo : r_q.lo + half;
          r_d.slot = r_q.cursor;
          r_d.dst = r_q.cursor;
          r_d.cursor = r_q.cursor + half;
          r_d.n = half;
        end else begin
          half = r_q.len;
          r_d.src = r_q.lo;
          r_d.dst = r_q.lo;
          r_d.n = r_q.len;
        end
        // a size-2 dimension splits a message of half >= 2 words (an OR of its upper bits, not a compare)
        split = r_q.cur_k == 2'd1 && (r_q.halving ? |r_q.len[AddrWidth-1:2] : |r_q.len[AddrWidth-1:1]);
        r_d.two_parts = split;
        r_d.first = split ? (r_q.halving ? r_q.half_up : r_q.len_up) : half;
        r_d.hint0 = split ? 8'd1 << {r_q.cur_dim, 1'b0} : 8'd0;
        // how the plan moves after this step (`done` below), and whether the divide follows it
        r_d.adv = '0;
        if (r_q.halving) begin
          if (2'(r_q.bit_index + 2'd1) < r_q.cur_k && r_q.bit_index != 2'd3) r_d.adv[AdvBitUp] = 1'b1;
          else if (!r_q.conventional && 3'(r_q.idx) + 3'd1 < r_q.ndims) r_d.adv[AdvDimUp] = 1'b1;
          else r_d.adv[AdvToDoubling] = 1'b1;
        end else begin
          if (r_q.bit_index != '0) r_d.adv[AdvBitDown] = 1'b1;
          else if (!r_q.conventional && r_q.idx != '0) r_d.adv[AdvDimDown] = 1'b1;
          else if (r_q.conventional && 3'(r_q.idx) + 3'd1 < r_q.ndims) r_d.adv[AdvNextDim] = 1'b1;
          else r_d.adv[AdvBcast] = 1'b1;
        end
        r_d.divide_next = average && r_q.halving && 3'(r_q.idx) + 3'd1 == r_q.ndims &&
                          2'(r_q.bit_index + 2'd1) == r_q.cur_k;
        r_d.state = StatePart0;
      end
      r_q.state[SPart0]: if (can_load) begin
        load = 1'b1;
        load_word = collnet_descriptor_pkg::send_descriptor(r_q.partner, r_q.src, r_q.dst, r_q.first, r_q.g);
        load_word.route_hint = r_q.hint0;
        r_d.state = r_q.two_parts ? StatePart1 : StateNetWait;
      end
      r_q.state[SPart1]: if (can_load) begin
        load = 1'b1;
        load_word = collnet_descriptor_pkg::send_descriptor(r_q.partner, r_q.src1, r_q.dst1, r_q.n1, r_q.g);
        load_word.route_hint = r_q.hint0 << 1;  // minus = 2 << 2d
        r_d.state = StateNetWait;
      end
      r_q.state[SNetWait]: if (can_load) begin
        load = 1'b1;
        load_word = collnet_descriptor_pkg::wait_descriptor(r_q.g, r_q.two_parts ? AddrWidth'(2) : AddrWidth'(1));
        if (r_q.halving) r_d.state = StateHLocal;
        else done = 1'b1;
      end
      r_q.state[SHLocal]: if (can_load) begin
        load = 1'b1;
        load_word = collnet_descriptor_pkg::send_descriptor(r_q.self, r_q.slot, r_q.lo, r_q.len, r_q.ltag);
        load_word.op = rop;
        r_d.state = StateHLwait;
      end
      r_q.state[SHLwait]: if (can_load) begin
        load = 1'b1;
        load_word = collnet_descriptor_pkg::wait_descriptor(r_q.ltag, AddrWidth'(1));
        if (r_q.divide_next) begin
          r_d.state = StateDivSend;
          r_d.lcount = 4'd2;
        end else begin
          done = 1'b1;
        end
      end
      r_q.state[SBcast]: if (can_load) begin
        load = 1'b1;
        load_word = collnet_descriptor_pkg::send_descriptor(r_q.board_base + 16'(r_q.count), '0, r_q.abase, r_q.b,
                                                            last_step);
        r_d.count = r_q.count + 4'd1;
        if (r_q.count + 4'd1 == MainUnits) r_d.state = StateEnd;
      end
      r_q.state[SEnd]: if (can_load) begin
        load = 1'b1;
        load_end = 1'b1;
        r_d.state = StateIdle;
      end
      r_q.state[SIdle]: ;
      default: ;
    endcase

    // Plan advance after step g (`done` set above): a doubling grows the
    // block back, then the next step, or the broadcast after the last.
    if (done) begin
      if (!r_q.halving) begin
        r_d.lo = r_q.lo - (r_q.cur_bit ? r_q.len : '0);
        r_d.len = r_q.len << 1;
        r_d.len_up = r_q.len;        // ceil(2 len / 2)
        r_d.half_up = r_q.len_up;    // ceil(len / 2)
      end
      r_d.state = r_q.adv[AdvBcast] ? StateBcast : StateStepPlan;
      r_d.count = '0;
      if (r_q.adv[AdvBitUp]) begin
        r_d.bit_index = r_q.bit_index + 2'd1;
        r_d.cur_pos = r_q.cur_pos + 3'd1;
        r_d.cur_bit = r_q.plus_bit;
      end
      if (r_q.adv[AdvDimUp] || r_q.adv[AdvNextDim]) begin
        r_d.idx = r_q.idx + 2'd1;
        r_d.bit_index = '0;
        {r_d.cur_dim, r_d.cur_k, r_d.cur_pos, r_d.cur_bit} = {r_q.up_dim, r_q.up_k, r_q.up_pos, r_q.up_bit};
      end
      if (r_q.adv[AdvToDoubling]) begin
        r_d.halving = 1'b0;  // doubling of the same dimension, from its top bit (bit_index already)
        r_d.bit_index = r_q.cur_k - 2'd1;
      end
      if (r_q.adv[AdvNextDim]) r_d.halving = 1'b1;
      if (r_q.adv[AdvBitDown]) begin
        r_d.bit_index = r_q.bit_index - 2'd1;
        r_d.cur_pos = r_q.cur_pos - 3'd1;
        r_d.cur_bit = r_q.minus_bit;
      end
      if (r_q.adv[AdvDimDown]) begin
        r_d.idx = r_q.idx - 2'd1;
        r_d.bit_index = r_q.dn_k - 2'd1;
        {r_d.cur_dim, r_d.cur_k, r_d.cur_pos, r_d.cur_bit} = {r_q.dn_dim, r_q.dn_k, r_q.dn_pos, r_q.dn_bit};
      end
    end

    if (!load_end) load_word.dtype = r_q.float64;  // every descriptor but END carries the data type
  end

`ifndef SYNTHESIS
  // AGG_UNITS is 1, 2 or 4 (the planes of the board's aggregation units);
  // an immediate assertion on the registers, as in schedule_engine_a2a.sv.
  always_ff @(posedge clk_i) begin
    if (rst_ni && r_q.state == StateInit)
      assert (r_q.agg_units == 3'd1 || r_q.agg_units == 3'd2 || r_q.agg_units == 3'd4)
        else $error("schedule_engine_hd: AGG_UNITS = %0d, accepted 1, 2, 4", r_q.agg_units);
  end
`endif

`ifdef FORMAL
  // Induction strengthening (formal, besides the shared properties below):
  // the state register is one-hot (E2, E3).
  always @(posedge clk_i) if (rst_ni) E3_onehot: assert ($onehot(r_q.state));
`endif

  // The skeleton instance (running: the state is not idle) and the formal
  // properties every engine shares (E5 on the registers the
  // configuration port writes; covers of a program's events: yes, END is
  // taken 6 steps after reset).
`define SCHEDULE_ENGINE_RUNNING !r_q.state[SIdle]
`define SCHEDULE_ENGINE_REGS_PKG schedule_engine_hd_regs_pkg
`define SCHEDULE_ENGINE_CONFIG_REGS {r_q.conventional, r_q.bandwidth, r_q.op, r_q.float64, r_q.unit, r_q.elements, \
                                     r_q.agg_units, size_q, coord_q}
`define SCHEDULE_ENGINE_COVER_PROGRAM 1'b1
`include "schedule_engine_skeleton.svh"

endmodule
