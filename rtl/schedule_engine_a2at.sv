// Schedule engine for A2AT, the optimal all-to-all of document 001 (spec
// a2a-optimal): expands one node's a2a-optimal program into its descriptor
// stream, one descriptor per cycle. RTL of hls/schedule_engine_a2at.hpp,
// register for register (same names); that header documents the stream, the
// register map, the offset table and the timing.
// testbench/verilator/schedule_engine_a2at_bench.cpp checks that this module,
// the HLS class and the software reference emit the same words.
//
// Register map (write-only, cfg_addr_i; writes are ignored while busy_o):
//   0x0 CONTROL bit 0 = start | 0x1 MESSAGE_WORDS [19:0] | 0x2 SIZE_X [6:0]
//   0x3 SIZE_Y [6:0] | 0x4 COORD_X [5:0] | 0x5 COORD_Y [5:0] | 0x6 TORUS [0]
//   0x7 TABLE_COUNT [8:0] | 0x8 TABLE_ADDR [7:0]
//   0x9 TABLE_DATA [7:0] dx, [15:8] dy, [16] last of group (then TABLE_ADDR+1)
//   0xA GROUP_BARRIERS [0] = a BARRIER after every group
//
// Handshake contract (descriptor side, valid/ready): out_valid_o is a
// register output and does not depend on out_ready_i; a descriptor offered
// and not taken stays offered and unchanged. Initiation interval 1: the
// three pipeline stages (table read, row/column read, output register) move
// together whenever the output register can load; a group's BARRIER takes
// stage B for one cycle while stage A holds.
//
// Memories (one write port, one synchronous read port each: block RAM):
// offset table 256 x 17, column table 64 x 20 (t*m), row tables 64 x 16
// (t*Nx) and 64 x 20 (t*Nx*m).
module schedule_engine_a2at (
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
  localparam int unsigned IdWidth = 16;
  localparam int unsigned TagWidth = collnet_descriptor_pkg::TagWidth;
  localparam int unsigned EntryWidth = 17;
  localparam int unsigned TableDepth = 256;
  localparam int unsigned SizeDepth = 64;

  localparam logic [3:0] RegControl = 4'h0;
  localparam logic [3:0] RegMessageWords = 4'h1;
  localparam logic [3:0] RegSizeX = 4'h2;
  localparam logic [3:0] RegSizeY = 4'h3;
  localparam logic [3:0] RegCoordX = 4'h4;
  localparam logic [3:0] RegCoordY = 4'h5;
  localparam logic [3:0] RegTorus = 4'h6;
  localparam logic [3:0] RegTableCount = 4'h7;
  localparam logic [3:0] RegTableAddr = 4'h8;
  localparam logic [3:0] RegTableData = 4'h9;
  localparam logic [3:0] RegGroupBarriers = 4'hA;

  typedef enum logic [1:0] {
    StateIdle    = 2'd0,
    StateInitCol = 2'd1,
    StateInitRow = 2'd2,
    StateRun     = 2'd3
  } state_e;

  /// What a pipeline stage holds.
  typedef enum logic [2:0] {
    KindNone    = 3'd0,
    KindSend    = 3'd1,
    KindCopy    = 3'd2,
    KindEnd     = 3'd3,
    KindBarrier = 3'd4
  } kind_e;

  // configuration
  logic [AddrWidth-1:0]  message_words_d, message_words_q;
  logic [6:0]            size_x_d, size_x_q;
  logic [6:0]            size_y_d, size_y_q;
  logic [5:0]            coord_x_d, coord_x_q;
  logic [5:0]            coord_y_d, coord_y_q;
  logic                  torus_d, torus_q;
  logic                  group_barriers_d, group_barriers_q;
  logic [8:0]            table_count_d, table_count_q;
  logic [7:0]            table_ptr_d, table_ptr_q;
  state_e                state_d, state_q;
  // table fill
  logic [6:0]            t_d, t_q;
  logic [IdWidth:0]      acc_d, acc_q;      // t*Nx
  logic [AddrWidth-1:0]  acc_m_d, acc_m_q;  // t*m, then t*Nx*m
  logic [AddrWidth-1:0]  self_xm_d, self_xm_q;
  logic [AddrWidth-1:0]  nx_m_d, nx_m_q;
  logic [IdWidth-1:0]    self_id_d, self_id_q;
  logic [AddrWidth-1:0]  self_m_d, self_m_q;
  logic [AddrWidth-1:0]  result_base_d, result_base_q;
  // stage A
  logic [8:0]            fetch_index_d, fetch_index_q;
  kind_e                 fetch_done_d, fetch_done_q;
  kind_e                 a_kind_d, a_kind_q;
  logic [EntryWidth-1:0] a_entry_q;
  logic [2:0]            position_d, position_q;
  logic [TagWidth-1:0]   group_d, group_q;
  logic                  barrier_pending_d, barrier_pending_q;  // a group just ended: its BARRIER goes next
  // stage B
  kind_e                 b_kind_d, b_kind_q;
  logic [5:0]            b_tx_d, b_tx_q;
  logic [IdWidth-1:0]    b_row_id_q;
  logic [AddrWidth-1:0]  b_col_m_q;
  logic [AddrWidth-1:0]  b_row_m_q;
  logic [3:0]            b_hint_d, b_hint_q;
  logic [2:0]            b_controller_d, b_controller_q;
  logic [TagWidth-1:0]   b_tag_d, b_tag_q;
  // output register
  logic                  out_valid_d, out_valid_q;
  collnet_descriptor_pkg::descriptor_t out_d, out_q;

  // memories
  logic [EntryWidth-1:0] offset_table [TableDepth];
  logic [AddrWidth-1:0]  col_m_mem [SizeDepth];
  logic [IdWidth-1:0]    row_id_mem [SizeDepth];
  logic [AddrWidth-1:0]  row_m_mem [SizeDepth];

  assign out_valid_o = out_valid_q;
  assign out_desc_o  = out_q;
  assign busy_o      = (state_q != StateIdle) || out_valid_q;

  // The register map uses the low 20 bits of a write at most.
  logic unused_cfg_wdata;
  assign unused_cfg_wdata = ^cfg_wdata_i[31:AddrWidth];

  logic advance;  // the whole pipeline moves
  assign advance = !out_valid_q || out_ready_i;

  // ---- stage B arithmetic: this node's target of the entry in stage A ----
  logic signed [7:0] entry_dx, entry_dy;
  logic              entry_last;
  logic [5:0]        tx, ty;
  logic [3:0]        hint;
  assign entry_dx = a_entry_q[7:0];
  assign entry_dy = a_entry_q[15:8];
  assign entry_last = a_entry_q[16];

  /// (c + delta) mod n for |delta| < n: one correction either way.
  function automatic logic [5:0] wrap(input logic [5:0] c, input logic signed [7:0] delta, input logic [6:0] n);
    logic signed [8:0] sum;
    sum = $signed({3'b000, c}) + 9'(delta);
    if (sum < 0) sum = sum + $signed({2'b00, n});
    else if (sum >= $signed({2'b00, n})) sum = sum - $signed({2'b00, n});
    wrap = sum[5:0];
  endfunction

  /// spec a2a-optimal: a component of exactly half a torus ring takes its sign's direction.
  function automatic logic tie(input logic signed [7:0] delta, input logic [6:0] n, input logic on_torus);
    logic [7:0] magnitude;
    magnitude = delta < 0 ? 8'(-delta) : 8'(delta);
    tie = on_torus && magnitude != 8'd0 && {magnitude, 1'b0} == {2'b00, n};
  endfunction

  always_comb begin
    tx = wrap(coord_x_q, entry_dx, size_x_q);
    ty = wrap(coord_y_q, entry_dy, size_y_q);
    hint = '0;
    if (tie(entry_dx, size_x_q, torus_q)) hint[1:0] = entry_dx > 0 ? 2'd1 : 2'd2;
    if (tie(entry_dy, size_y_q, torus_q)) hint[3:2] = entry_dy > 0 ? 2'd1 : 2'd2;
  end

  // ---- next state ----
  logic [AddrWidth-1:0] own_area;  // N*m + self*m: where every receiver stores our data
  assign own_area = result_base_q + self_m_q;
  logic table_we, col_we, row_we, fetch_en, stage_b_en;

  always_comb begin
    message_words_d = message_words_q;
    size_x_d = size_x_q;
    size_y_d = size_y_q;
    coord_x_d = coord_x_q;
    coord_y_d = coord_y_q;
    torus_d = torus_q;
    group_barriers_d = group_barriers_q;
    table_count_d = table_count_q;
    table_ptr_d = table_ptr_q;
    state_d = state_q;
    t_d = t_q;
    acc_d = acc_q;
    acc_m_d = acc_m_q;
    self_xm_d = self_xm_q;
    nx_m_d = nx_m_q;
    self_id_d = self_id_q;
    self_m_d = self_m_q;
    result_base_d = result_base_q;
    fetch_index_d = fetch_index_q;
    fetch_done_d = fetch_done_q;
    a_kind_d = a_kind_q;
    position_d = position_q;
    group_d = group_q;
    barrier_pending_d = barrier_pending_q;
    b_kind_d = b_kind_q;
    b_tx_d = b_tx_q;
    b_hint_d = b_hint_q;
    b_controller_d = b_controller_q;
    b_tag_d = b_tag_q;
    out_valid_d = out_valid_q;
    out_d = out_q;
    table_we = 1'b0;
    col_we = 1'b0;
    row_we = 1'b0;
    fetch_en = 1'b0;
    stage_b_en = 1'b0;

    // configuration port
    if (cfg_we_i && !busy_o) begin
      unique case (cfg_addr_i)
        RegControl: begin
          if (cfg_wdata_i[0]) begin
            state_d = StateInitCol;
            t_d = '0;
            acc_d = '0;
            acc_m_d = '0;
          end
        end
        RegMessageWords: message_words_d = cfg_wdata_i[AddrWidth-1:0];
        RegSizeX: size_x_d = cfg_wdata_i[6:0];
        RegSizeY: size_y_d = cfg_wdata_i[6:0];
        RegCoordX: coord_x_d = cfg_wdata_i[5:0];
        RegCoordY: coord_y_d = cfg_wdata_i[5:0];
        RegTorus: torus_d = cfg_wdata_i[0];
        RegGroupBarriers: group_barriers_d = cfg_wdata_i[0];
        RegTableCount: table_count_d = cfg_wdata_i[8:0];
        RegTableAddr: table_ptr_d = cfg_wdata_i[7:0];
        RegTableData: begin
          table_we = 1'b1;
          table_ptr_d = table_ptr_q + 8'd1;
        end
        default: ;
      endcase
    end

    unique case (state_q)
      StateIdle: ;
      StateInitCol: begin
        // t*m for t = 0..Nx-1; x*m at t = x; Nx*m at t = Nx (hls: init_col)
        col_we = t_q < size_x_q;
        if (t_q == {1'b0, coord_x_q}) self_xm_d = acc_m_q;
        if (t_q == size_x_q) begin
          nx_m_d = acc_m_q;
          state_d = StateInitRow;
          t_d = '0;
          acc_d = '0;
          acc_m_d = '0;
        end else begin
          t_d = t_q + 7'd1;
          acc_m_d = acc_m_q + message_words_q;
        end
      end
      StateInitRow: begin
        // t*Nx and t*Nx*m for t = 0..Ny-1; self at t = y; N*m at t = Ny
        row_we = t_q < size_y_q;
        if (t_q == {1'b0, coord_y_q}) begin
          self_id_d = acc_q[IdWidth-1:0] + IdWidth'(coord_x_q);
          self_m_d = acc_m_q + self_xm_q;
        end
        if (t_q == size_y_q) begin
          result_base_d = acc_m_q;
          state_d = StateRun;
          fetch_index_d = '0;
          fetch_done_d = KindNone;
          a_kind_d = KindNone;
          b_kind_d = KindNone;
          position_d = '0;
          group_d = '0;
          barrier_pending_d = 1'b0;
        end else begin
          t_d = t_q + 7'd1;
          acc_d = acc_q + (IdWidth+1)'(size_x_q);
          acc_m_d = acc_m_q + nx_m_q;
        end
      end
      StateRun: begin
        if (advance) begin
          if (barrier_pending_q) begin
            // the group's BARRIER enters stage B; stage A holds its entry
            barrier_pending_d = 1'b0;
            b_kind_d = KindBarrier;
            b_tag_d = group_q - 1'b1;  // the group that just ended
          end else begin
            // stage A: the offset table (then the copy, then END)
            if (fetch_index_q < table_count_q) begin
              a_kind_d = KindSend;
              fetch_en = 1'b1;
              fetch_index_d = fetch_index_q + 9'd1;
            end else if (fetch_done_q == KindNone) begin
              a_kind_d = KindCopy;
              fetch_done_d = KindCopy;
            end else if (fetch_done_q == KindCopy) begin
              a_kind_d = KindEnd;
              fetch_done_d = KindEnd;
            end else begin
              a_kind_d = KindNone;
            end
            // stage B: target coordinates, row and column tables
            b_kind_d = a_kind_q;
            if (a_kind_q == KindSend) begin
              stage_b_en = 1'b1;
              b_tx_d = tx;
              b_hint_d = hint;
              b_controller_d = position_q;
              b_tag_d = group_q;
              if (entry_last) begin
                position_d = '0;
                group_d = group_q + 1'b1;
                barrier_pending_d = group_barriers_q;
              end else begin
                position_d = position_q + 3'd1;
              end
            end else if (a_kind_q == KindCopy) begin
              b_tag_d = group_q;  // the table ends a group: group = number of groups
            end
          end
          // stage C: the output register
          out_d = '0;
          out_valid_d = b_kind_q != KindNone;
          unique case (b_kind_q)
            KindSend: begin
              out_d.opcode = collnet_descriptor_pkg::OpcodeSend;
              out_d.controller = b_controller_q;
              out_d.route_hint = {4'b0000, b_hint_q};
              out_d.dest = IdWidth'(b_tx_q) + b_row_id_q;
              out_d.src_offset = b_col_m_q + b_row_m_q;
              out_d.dst_offset = own_area;
              out_d.length = message_words_q;
              out_d.tag = b_tag_q;
            end
            KindCopy: begin
              out_d.opcode = collnet_descriptor_pkg::OpcodeSend;
              out_d.dest = self_id_q;
              out_d.src_offset = self_m_q;
              out_d.dst_offset = own_area;
              out_d.length = message_words_q;
              out_d.tag = b_tag_q;
            end
            KindBarrier: begin
              out_d.opcode = collnet_descriptor_pkg::OpcodeBarrier;
              out_d.tag = b_tag_q;
            end
            KindEnd: state_d = StateIdle;  // END is the zero word
            default: out_d = out_q;
          endcase
        end
      end
      default: state_d = StateIdle;
    endcase
    if (state_q != StateRun && out_ready_i) out_valid_d = 1'b0;
  end

  // ---- memories: one write port, one synchronous read port each ----
  always_ff @(posedge clk_i) begin
    if (table_we) offset_table[table_ptr_q] <= cfg_wdata_i[EntryWidth-1:0];
    if (fetch_en) a_entry_q <= offset_table[fetch_index_q[7:0]];
  end
  always_ff @(posedge clk_i) begin
    if (col_we) col_m_mem[t_q[5:0]] <= acc_m_q;
    if (stage_b_en) b_col_m_q <= col_m_mem[tx];
  end
  always_ff @(posedge clk_i) begin
    if (row_we) row_id_mem[t_q[5:0]] <= acc_q[IdWidth-1:0];
    if (stage_b_en) b_row_id_q <= row_id_mem[ty];
  end
  always_ff @(posedge clk_i) begin
    if (row_we) row_m_mem[t_q[5:0]] <= acc_m_q;
    if (stage_b_en) b_row_m_q <= row_m_mem[ty];
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      message_words_q <= AddrWidth'(1);
      size_x_q        <= 7'd1;
      size_y_q        <= 7'd1;
      coord_x_q       <= '0;
      coord_y_q       <= '0;
      torus_q         <= 1'b0;
      group_barriers_q <= 1'b0;
      table_count_q   <= '0;
      table_ptr_q     <= '0;
      state_q         <= StateIdle;
      t_q             <= '0;
      acc_q           <= '0;
      acc_m_q         <= '0;
      self_xm_q       <= '0;
      nx_m_q          <= '0;
      self_id_q       <= '0;
      self_m_q        <= '0;
      result_base_q   <= '0;
      fetch_index_q   <= '0;
      fetch_done_q    <= KindNone;
      a_kind_q        <= KindNone;
      position_q      <= '0;
      group_q         <= '0;
      barrier_pending_q <= 1'b0;
      b_kind_q        <= KindNone;
      b_tx_q          <= '0;
      b_hint_q        <= '0;
      b_controller_q  <= '0;
      b_tag_q         <= '0;
      out_valid_q     <= 1'b0;
      out_q           <= '0;
    end else begin
      message_words_q <= message_words_d;
      size_x_q        <= size_x_d;
      size_y_q        <= size_y_d;
      coord_x_q       <= coord_x_d;
      coord_y_q       <= coord_y_d;
      torus_q         <= torus_d;
      group_barriers_q <= group_barriers_d;
      table_count_q   <= table_count_d;
      table_ptr_q     <= table_ptr_d;
      state_q         <= state_d;
      t_q             <= t_d;
      acc_q           <= acc_d;
      acc_m_q         <= acc_m_d;
      self_xm_q       <= self_xm_d;
      nx_m_q          <= nx_m_d;
      self_id_q       <= self_id_d;
      self_m_q        <= self_m_d;
      result_base_q   <= result_base_d;
      fetch_index_q   <= fetch_index_d;
      fetch_done_q    <= fetch_done_d;
      a_kind_q        <= a_kind_d;
      position_q      <= position_d;
      group_q         <= group_d;
      barrier_pending_q <= barrier_pending_d;
      b_kind_q        <= b_kind_d;
      b_tx_q          <= b_tx_d;
      b_hint_q        <= b_hint_d;
      b_controller_q  <= b_controller_d;
      b_tag_q         <= b_tag_d;
      out_valid_q     <= out_valid_d;
      out_q           <= out_d;
    end
  end

`ifndef SYNTHESIS
  // Output contract: an offered descriptor stays offered and unchanged until taken.
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      (out_valid_o && !out_ready_i) |=> (out_valid_o && $stable(out_desc_o)))
    else $error("schedule_engine_a2at: descriptor withdrawn or changed before out_ready_i");

  // Register map contract: sizes 1..64, coordinates below them, at most 256 offsets.
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      (state_q == StateInitCol) |->
        (size_x_q >= 7'd1 && size_x_q <= 7'd64 && size_y_q >= 7'd1 && size_y_q <= 7'd64 &&
         {1'b0, coord_x_q} < size_x_q && {1'b0, coord_y_q} < size_y_q && table_count_q <= 9'd256))
    else $error("schedule_engine_a2at: SIZE_X/SIZE_Y must be 1..64, COORD below SIZE, TABLE_COUNT <= 256");

  // Offset table contract: every offset is shorter than its ring.
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      (state_q == StateRun && a_kind_q == KindSend) |->
        ((entry_dx < 0 ? 8'(-entry_dx) : 8'(entry_dx)) < {1'b0, size_x_q} &&
         (entry_dy < 0 ? 8'(-entry_dy) : 8'(entry_dy)) < {1'b0, size_y_q}))
    else $error("schedule_engine_a2at: table offset not shorter than its ring");
`endif

endmodule
