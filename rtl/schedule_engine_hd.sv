// Schedule engine for hd-allreduce and hd-allreduce-conventional (document
// 004): expands one endpoint's program (main unit or aggregation unit) into
// its descriptor stream. RTL of hls/schedule_engine_hd.hpp, register for
// register (same names); that header documents the stream, the register map
// and the timing. testbench/verilator/schedule_engine_hd_bench.cpp checks
// that this module, the HLS class and the software reference emit the same
// words.
//
// Register map (write-only, cfg_addr_i; writes are ignored while busy_o):
//   0x0 CONTROL bit 0 = start | 0x1 VARIANT (0 hierarchical, 1 conventional)
//   0x2 DIM_ORDER (0 wxyz, 1 bandwidth) | 0x3 OP (0 sum 1 product 2 max 3 min 4 average)
//   0x4 DTYPE | 0x5 UNIT (endpoint mod 12) | 0x6 ELEMENTS [19:0] | 0x7 AGG_UNITS 1/2/4
//   0x8..0xB SIZE0..3 (1, 2, 4) | 0xC..0xF COORD0..3
//
// Handshake contract (descriptor side, valid/ready): out_valid_o is a
// register output and does not depend on out_ready_i; a descriptor offered
// and not taken stays offered and unchanged.
//
// No multiplier: board coordinates are bit fields of the board id (sizes are
// powers of two), board*12 = (board << 3) + (board << 2), m*B by shift-add.
// Arrays are flat vectors (dimension d at [d*W +: W]).
module schedule_engine_hd (
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

  localparam int unsigned AddrWidth = 20;
  localparam logic [15:0] LocalTag = 16'h8000;
  localparam logic [3:0] MainUnits = 4'd8;

  typedef enum logic [4:0] {
    StateIdle     = 5'd0,
    StateInit     = 5'd1,
    StateMainSend = 5'd2,
    StateMainWait = 5'd3,
    StateS2Wait   = 5'd4,
    StateS2Local  = 5'd5,
    StateS2Lwait  = 5'd6,
    StateDivSend  = 5'd7,
    StateDivWait  = 5'd8,
    StateStepPlan = 5'd9,
    StatePart0    = 5'd10,
    StatePart1    = 5'd11,
    StateNetWait  = 5'd12,
    StateHLocal   = 5'd13,
    StateHLwait   = 5'd14,
    StateBcast    = 5'd15,
    StateEnd      = 5'd16
  } state_e;

  // configuration
  logic                   conventional_d, conventional_q;
  logic                   bandwidth_d, bandwidth_q;
  logic [2:0]             op_d, op_q;
  logic                   float64_d, float64_q;
  logic [3:0]             unit_d, unit_q;
  logic [AddrWidth-1:0]   elements_d, elements_q;
  logic [2:0]             agg_units_d, agg_units_q;
  logic [7:0]             log_size_d, log_size_q;  // k_d at [2d +: 2]
  logic [7:0]             coord_d, coord_q;        // c_d at [2d +: 2]
  state_e                 state_d, state_q;
  // computed at init
  logic [7:0]             order_d, order_q;        // dimension at [2i +: 2]
  logic [2:0]             ndims_d, ndims_q;
  logic [15:0]            shift_d, shift_q;        // shift_d at [4d +: 4]
  logic [7:0]             board_d, board_q;
  logic [15:0]            board_base_d, board_base_q;
  logic [15:0]            self_d, self_q;
  logic [AddrWidth-1:0]   b_d, b_q;
  logic [AddrWidth-1:0]   abase_d, abase_q;
  logic [AddrWidth-1:0]   mbase_d, mbase_q;
  logic [3:0]             count_d, count_q;
  logic [3:0]             lcount_d, lcount_q;
  // plan position and the held block
  logic [15:0]            g_d, g_q;
  logic [1:0]             idx_d, idx_q;
  logic [1:0]             bit_d, bit_q;
  logic                   halving_d, halving_q;
  logic [AddrWidth-1:0]   lo_d, lo_q;
  logic [AddrWidth-1:0]   len_d, len_q;
  logic [AddrWidth-1:0]   cursor_d, cursor_q;
  logic [AddrWidth-1:0]   slot_d, slot_q;
  // the current step's messages
  logic [15:0]            partner_d, partner_q;
  logic [AddrWidth-1:0]   src_d, src_q;
  logic [AddrWidth-1:0]   dst_d, dst_q;
  logic [AddrWidth-1:0]   n_d, n_q;
  logic [AddrWidth-1:0]   first_d, first_q;
  logic                   two_parts_d, two_parts_q;
  logic [7:0]             hint0_d, hint0_q;
  // output register
  logic                                out_valid_d, out_valid_q;
  collnet_descriptor_pkg::descriptor_t out_d, out_q;

  // ---- combinational helpers ------------------------------------------------
  logic [3:0]  h_sum;        // H = sum k_d
  logic [15:0] last_step;    // 2H + 1
  logic [1:0]  cur_dim;      // order[idx]
  logic [1:0]  cur_k;        // k of the current dimension
  logic [2:0]  cur_pos;      // shift + bit: the board-id bit of this step (< 8)
  logic        board_bit;    // this board's coordinate bit s of dimension d
  logic        last_halving;
  logic        average;
  logic [2:0]  rop;          // receive op: sum 1, product 2, max 3, min 4

  assign h_sum = 4'(log_size_q[1:0]) + 4'(log_size_q[3:2]) + 4'(log_size_q[5:4]) + 4'(log_size_q[7:6]);
  assign last_step = {11'd0, h_sum, 1'b1};
  assign cur_dim = order_q[2*idx_q +: 2];
  assign cur_k = log_size_q[2*cur_dim +: 2];
  assign cur_pos = 3'(shift_q[4*cur_dim +: 4] + 4'(bit_q));
  assign board_bit = board_q[cur_pos];
  assign last_halving = halving_q && 3'(idx_q) + 3'd1 == ndims_q && 2'(bit_q + 2'd1) == cur_k;
  assign average = op_q == 3'd4;
  assign rop = average ? 3'd1 : op_q + 3'd1;

  // descriptor fields of this cycle
  logic                 load;
  logic                 load_end;
  logic [1:0]           w_opcode;
  logic [2:0]           w_op;
  logic [7:0]           w_hint;
  logic [15:0]          w_dest;
  logic [AddrWidth-1:0] w_src, w_dst, w_len;
  logic [15:0]          w_tag;
  collnet_descriptor_pkg::descriptor_t load_word;

  // init temporaries
  logic [2:0]           n_dims;
  logic [7:0]           order_tmp;
  logic [3:0]           s_acc;
  logic [7:0]           board_tmp;
  logic [1:0]           k;
  logic                 take;
  logic [AddrWidth-1:0] b_tmp;
  logic [1:0]           a_index;
  // plan temporaries
  logic [7:0]           partner_board;
  logic [AddrWidth-1:0] half;
  logic                 done;
  logic                 can_load;

  // The widest register is ELEMENTS (20 bits); bits 31:20 of a write are ignored.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] cfg_ignored;
  /* verilator lint_on UNUSEDSIGNAL */
  assign cfg_ignored = cfg_wdata_i;

  always_comb begin
    conventional_d = conventional_q;
    bandwidth_d = bandwidth_q;
    op_d = op_q;
    float64_d = float64_q;
    unit_d = unit_q;
    elements_d = elements_q;
    agg_units_d = agg_units_q;
    log_size_d = log_size_q;
    coord_d = coord_q;
    state_d = state_q;
    order_d = order_q;
    ndims_d = ndims_q;
    shift_d = shift_q;
    board_d = board_q;
    board_base_d = board_base_q;
    self_d = self_q;
    b_d = b_q;
    abase_d = abase_q;
    mbase_d = mbase_q;
    count_d = count_q;
    lcount_d = lcount_q;
    g_d = g_q;
    idx_d = idx_q;
    bit_d = bit_q;
    halving_d = halving_q;
    lo_d = lo_q;
    len_d = len_q;
    cursor_d = cursor_q;
    slot_d = slot_q;
    partner_d = partner_q;
    src_d = src_q;
    dst_d = dst_q;
    n_d = n_q;
    first_d = first_q;
    two_parts_d = two_parts_q;
    hint0_d = hint0_q;

    load = 1'b0;
    load_end = 1'b0;
    w_opcode = collnet_descriptor_pkg::OpcodeSend;
    w_op = collnet_descriptor_pkg::OpCopy;
    w_hint = '0;
    w_dest = '0;
    w_src = '0;
    w_dst = '0;
    w_len = '0;
    w_tag = '0;
    n_dims = '0;
    order_tmp = '0;
    s_acc = '0;
    board_tmp = '0;
    k = '0;
    take = 1'b0;
    b_tmp = '0;
    a_index = '0;
    partner_board = '0;
    half = '0;
    done = 1'b0;
    can_load = !out_valid_q || out_ready_i;

    // configuration port
    if (cfg_we_i && state_q == StateIdle && !out_valid_q) begin
      unique case (cfg_addr_i)
        4'h0: if (cfg_wdata_i[0]) state_d = StateInit;
        4'h1: conventional_d = cfg_wdata_i[0];
        4'h2: bandwidth_d = cfg_wdata_i[0];
        4'h3: op_d = cfg_wdata_i[2:0];
        4'h4: float64_d = cfg_wdata_i[0];
        4'h5: unit_d = cfg_wdata_i[3:0];
        4'h6: elements_d = cfg_wdata_i[AddrWidth-1:0];
        4'h7: agg_units_d = cfg_wdata_i[2:0];
        4'h8, 4'h9, 4'hA, 4'hB:
          log_size_d[2*cfg_addr_i[1:0] +: 2] = cfg_wdata_i[2:0] == 3'd4 ? 2'd2 : cfg_wdata_i[2:0] == 3'd2 ? 2'd1 : 2'd0;
        default: coord_d[2*cfg_addr_i[1:0] +: 2] = cfg_wdata_i[1:0];  // 0xC..0xF
      endcase
    end

    unique case (state_q)
      StateIdle: ;
      StateInit: begin
        // dimension order: wxyz = every dimension of size > 1; bandwidth =
        // size 2 first, then size 4 (spec embodiment 2)
        for (int pass = 0; pass < 2; pass++) begin
          for (int dim = 0; dim < 4; dim++) begin
            k = log_size_q[2*dim +: 2];
            take = bandwidth_q ? (32'(k) == pass + 1) : (pass == 0 && k != 2'd0);
            if (take) begin
              order_tmp[2*n_dims[1:0] +: 2] = 2'(dim);
              n_dims = n_dims + 3'd1;
            end
          end
        end
        order_d = order_tmp;
        ndims_d = n_dims;
        for (int dim = 0; dim < 4; dim++) begin
          shift_d[4*dim +: 4] = s_acc;
          board_tmp = board_tmp | (8'(coord_q[2*dim +: 2]) << s_acc);
          s_acc = s_acc + 4'(log_size_q[2*dim +: 2]);
        end
        board_d = board_tmp;
        board_base_d = (16'(board_tmp) << 3) + (16'(board_tmp) << 2);
        self_d = (16'(board_tmp) << 3) + (16'(board_tmp) << 2) + 16'(unit_q);
        b_tmp = agg_units_q == 3'd4 ? elements_q >> 2 : agg_units_q == 3'd2 ? elements_q >> 1 : elements_q;
        b_d = b_tmp;
        count_d = '0;
        abase_d = '0;
        g_d = '0;
        idx_d = '0;
        bit_d = '0;
        halving_d = 1'b1;
        lo_d = '0;
        len_d = b_tmp;
        cursor_d = b_tmp << 3;
        if (unit_q < MainUnits) begin
          // m * B by shift-add
          mbase_d = (unit_q[2] ? b_tmp << 2 : '0) + (unit_q[1] ? b_tmp << 1 : '0) + (unit_q[0] ? b_tmp : '0);
          state_d = StateMainSend;
        end else if (3'(unit_q - MainUnits) < agg_units_q) begin
          a_index = 2'(unit_q - MainUnits);
          abase_d = (a_index[1] ? b_tmp << 1 : '0) + (a_index[0] ? b_tmp : '0);
          state_d = StateS2Wait;
        end else begin
          state_d = StateEnd;  // an aggregation unit outside the A planes
        end
      end
      StateMainSend: if (can_load) begin
        load = 1'b1;
        w_dest = board_base_q + 16'(MainUnits) + 16'(count_q);
        w_src = abase_q;
        w_dst = mbase_q;
        w_len = b_q;
        count_d = count_q + 4'd1;
        abase_d = abase_q + b_q;
        if (count_q + 4'd1 == 4'(agg_units_q)) state_d = StateMainWait;
      end
      StateMainWait: if (can_load) begin
        load = 1'b1;
        w_opcode = collnet_descriptor_pkg::OpcodeWait;
        w_len = AddrWidth'(agg_units_q);
        w_tag = last_step;
        state_d = StateEnd;
      end
      StateS2Wait: if (can_load) begin
        load = 1'b1;
        w_opcode = collnet_descriptor_pkg::OpcodeWait;
        w_len = AddrWidth'(MainUnits);
        count_d = 4'd1;
        mbase_d = b_q;
        state_d = StateS2Local;
      end
      StateS2Local: if (can_load) begin
        load = 1'b1;
        w_op = rop;
        w_dest = self_q;
        w_src = mbase_q;
        w_len = b_q;
        w_tag = LocalTag;
        state_d = StateS2Lwait;
      end
      StateS2Lwait: if (can_load) begin
        load = 1'b1;
        w_opcode = collnet_descriptor_pkg::OpcodeWait;
        w_len = AddrWidth'(count_q);
        w_tag = LocalTag;
        count_d = count_q + 4'd1;
        mbase_d = mbase_q + b_q;
        if (count_q + 4'd1 < MainUnits) begin
          state_d = StateS2Local;
        end else if (average && ndims_q == '0) begin
          // spec hd-allreduce: average divides after the last halving (none here)
          state_d = StateDivSend;
          lcount_d = MainUnits;
        end else begin
          state_d = ndims_q == '0 ? StateBcast : StateStepPlan;
          count_d = '0;
        end
      end
      StateDivSend: if (can_load) begin
        load = 1'b1;
        w_op = collnet_descriptor_pkg::OpDivide;
        w_dest = self_q;
        w_src = cursor_q;  // the divisor area follows the halving slots
        w_dst = lo_q;
        w_len = len_q;
        w_tag = LocalTag + g_q;
        state_d = StateDivWait;
      end
      StateDivWait: if (can_load) begin
        load = 1'b1;
        w_opcode = collnet_descriptor_pkg::OpcodeWait;
        w_len = AddrWidth'(lcount_q);
        w_tag = LocalTag + g_q;
        state_d = ndims_q == '0 ? StateBcast : StateStepPlan;
        count_d = '0;
        if (g_q != '0) done = 1'b1;  // advance the plan below
      end
      StateStepPlan: begin
        g_d = g_q + 16'd1;
        partner_board = board_q ^ (8'd1 << cur_pos);
        partner_d = (16'(partner_board) << 3) + (16'(partner_board) << 2) + 16'(unit_q);
        if (halving_q) begin
          // keep the first half if the bit is 0, else the second; send the other
          half = len_q >> 1;
          len_d = half;
          lo_d = lo_q + (board_bit ? half : '0);
          src_d = board_bit ? lo_q : lo_q + half;
          slot_d = cursor_q;
          dst_d = cursor_q;
          cursor_d = cursor_q + half;
          n_d = half;
        end else begin
          half = len_q;
          src_d = lo_q;
          dst_d = lo_q;
          n_d = len_q;
        end
        two_parts_d = cur_k == 2'd1 && half >= AddrWidth'(2);
        first_d = (cur_k == 2'd1 && half >= AddrWidth'(2)) ? (half + AddrWidth'(1)) >> 1 : half;
        hint0_d = (cur_k == 2'd1 && half >= AddrWidth'(2)) ? 8'd1 << {cur_dim, 1'b0} : 8'd0;
        state_d = StatePart0;
      end
      StatePart0: if (can_load) begin
        load = 1'b1;
        w_dest = partner_q;
        w_src = src_q;
        w_dst = dst_q;
        w_len = first_q;
        w_tag = g_q;
        w_hint = hint0_q;
        state_d = two_parts_q ? StatePart1 : StateNetWait;
      end
      StatePart1: if (can_load) begin
        load = 1'b1;
        w_dest = partner_q;
        w_src = src_q + first_q;
        w_dst = dst_q + first_q;
        w_len = n_q - first_q;
        w_tag = g_q;
        w_hint = hint0_q << 1;  // minus = 2 << 2d
        state_d = StateNetWait;
      end
      StateNetWait: if (can_load) begin
        load = 1'b1;
        w_opcode = collnet_descriptor_pkg::OpcodeWait;
        w_len = two_parts_q ? AddrWidth'(2) : AddrWidth'(1);
        w_tag = g_q;
        if (halving_q) state_d = StateHLocal;
        else done = 1'b1;
      end
      StateHLocal: if (can_load) begin
        load = 1'b1;
        w_op = rop;
        w_dest = self_q;
        w_src = slot_q;
        w_dst = lo_q;
        w_len = len_q;
        w_tag = LocalTag + g_q;
        state_d = StateHLwait;
      end
      StateHLwait: if (can_load) begin
        load = 1'b1;
        w_opcode = collnet_descriptor_pkg::OpcodeWait;
        w_len = AddrWidth'(1);
        w_tag = LocalTag + g_q;
        if (average && last_halving) begin
          state_d = StateDivSend;
          lcount_d = 4'd2;
        end else begin
          done = 1'b1;
        end
      end
      StateBcast: if (can_load) begin
        load = 1'b1;
        w_dest = board_base_q + 16'(count_q);
        w_dst = abase_q;
        w_len = b_q;
        w_tag = last_step;
        count_d = count_q + 4'd1;
        if (count_q + 4'd1 == MainUnits) state_d = StateEnd;
      end
      StateEnd: if (can_load) begin
        load = 1'b1;
        load_end = 1'b1;
        state_d = StateIdle;
      end
      default: state_d = StateIdle;
    endcase

    // Plan advance after step g (`done` set above): a doubling grows the
    // block back, then the next step, or the broadcast after the last.
    if (done) begin
      if (!halving_q) begin
        lo_d = lo_q - (board_bit ? len_q : '0);
        len_d = len_q << 1;
      end
      state_d = StateStepPlan;
      count_d = '0;
      if (halving_q) begin
        if (2'(bit_q + 2'd1) < cur_k && bit_q != 2'd3) begin
          bit_d = bit_q + 2'd1;
        end else if (!conventional_q && 3'(idx_q) + 3'd1 < ndims_q) begin
          idx_d = idx_q + 2'd1;
          bit_d = '0;
        end else begin
          halving_d = 1'b0;  // doubling of the same dimension, from its top bit
          bit_d = cur_k - 2'd1;
        end
      end else if (bit_q != '0) begin
        bit_d = bit_q - 2'd1;
      end else if (!conventional_q && idx_q != '0) begin
        idx_d = idx_q - 2'd1;
        bit_d = log_size_q[2*order_q[2*(idx_q - 2'd1) +: 2] +: 2] - 2'd1;
      end else if (conventional_q && 3'(idx_q) + 3'd1 < ndims_q) begin
        idx_d = idx_q + 2'd1;
        bit_d = '0;
        halving_d = 1'b1;
      end else begin
        state_d = StateBcast;
      end
    end

    load_word = '0;
    if (!load_end) begin
      load_word.opcode = w_opcode;
      load_word.op = w_op;
      load_word.dtype = float64_q;
      load_word.route_hint = w_hint;
      load_word.dest = w_dest;
      load_word.src_offset = w_src;
      load_word.dst_offset = w_dst;
      load_word.length = w_len;
      load_word.tag = w_tag;
    end

    out_valid_d = out_valid_q;
    out_d = out_q;
    if (load) begin
      out_valid_d = 1'b1;
      out_d = load_word;
    end else if (out_ready_i) begin
      out_valid_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      conventional_q <= 1'b0;
      bandwidth_q    <= 1'b0;
      op_q           <= '0;
      float64_q      <= 1'b0;
      unit_q         <= '0;
      elements_q     <= '0;
      agg_units_q    <= 3'd1;
      log_size_q     <= '0;
      coord_q        <= '0;
      state_q        <= StateIdle;
      order_q        <= '0;
      ndims_q        <= '0;
      shift_q        <= '0;
      board_q        <= '0;
      board_base_q   <= '0;
      self_q         <= '0;
      b_q            <= '0;
      abase_q        <= '0;
      mbase_q        <= '0;
      count_q        <= '0;
      lcount_q       <= '0;
      g_q            <= '0;
      idx_q          <= '0;
      bit_q          <= '0;
      halving_q      <= 1'b1;
      lo_q           <= '0;
      len_q          <= '0;
      cursor_q       <= '0;
      slot_q         <= '0;
      partner_q      <= '0;
      src_q          <= '0;
      dst_q          <= '0;
      n_q            <= '0;
      first_q        <= '0;
      two_parts_q    <= 1'b0;
      hint0_q        <= '0;
      out_valid_q    <= 1'b0;
      out_q          <= '0;
    end else begin
      conventional_q <= conventional_d;
      bandwidth_q    <= bandwidth_d;
      op_q           <= op_d;
      float64_q      <= float64_d;
      unit_q         <= unit_d;
      elements_q     <= elements_d;
      agg_units_q    <= agg_units_d;
      log_size_q     <= log_size_d;
      coord_q        <= coord_d;
      state_q        <= state_d;
      order_q        <= order_d;
      ndims_q        <= ndims_d;
      shift_q        <= shift_d;
      board_q        <= board_d;
      board_base_q   <= board_base_d;
      self_q         <= self_d;
      b_q            <= b_d;
      abase_q        <= abase_d;
      mbase_q        <= mbase_d;
      count_q        <= count_d;
      lcount_q       <= lcount_d;
      g_q            <= g_d;
      idx_q          <= idx_d;
      bit_q          <= bit_d;
      halving_q      <= halving_d;
      lo_q           <= lo_d;
      len_q          <= len_d;
      cursor_q       <= cursor_d;
      slot_q         <= slot_d;
      partner_q      <= partner_d;
      src_q          <= src_d;
      dst_q          <= dst_d;
      n_q            <= n_d;
      first_q        <= first_d;
      two_parts_q    <= two_parts_d;
      hint0_q        <= hint0_d;
      out_valid_q    <= out_valid_d;
      out_q          <= out_d;
    end
  end

  assign out_valid_o = out_valid_q;
  assign out_desc_o  = out_q;
  assign busy_o      = state_q != StateIdle || out_valid_q;

`ifndef SYNTHESIS
  // Descriptor contract: an offered descriptor stays offered and unchanged.
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      (out_valid_o && !out_ready_i) |=> (out_valid_o && $stable(out_desc_o)))
    else $error("schedule_engine_hd: descriptor dropped or changed before out_ready_i");

  // AGG_UNITS is 1, 2 or 4 (the planes of the board's aggregation units).
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      (state_q == StateInit) |-> (agg_units_q == 3'd1 || agg_units_q == 3'd2 || agg_units_q == 3'd4))
    else $error("schedule_engine_hd: AGG_UNITS = %0d, accepted 1, 2, 4", agg_units_q);
`endif

endmodule
