// Schedule engine for A2AT, the optimal all-to-all of document 001 (spec
// a2a-optimal): expands one node's a2a-optimal program into its descriptor
// stream, one descriptor per cycle. RTL of hls/schedule_engine_a2at.hpp,
// register for register (same names); that header documents the stream, the
// register map, the offset table and the timing.
// bench/verilator/schedule_engine_a2at_bench.cpp checks that this module,
// the HLS class and the software reference emit the same words.
//
// Memories (one write port, one synchronous read port each: block RAM):
// offset table 256 x 17, column table 64 x 20 (t*m), row tables 64 x 16
// (t*Nx) and 64 x 20 (t*Nx*m).
//
// Register map: package schedule_engine_a2at_regs_pkg (schedule_engine_regs_pkg.sv,
// generated from hls/engine_registers.yaml into build/generated/rtl/);
// ports: schedule_engine_ports.svh; registers and output buffer: common/schedule_engine_skeleton.sv
// (instance and the shared formal properties: schedule_engine_skeleton.svh);
// closing states: schedule_engine_states.svh.
`include "schedule_engine_states.svh"

module schedule_engine_a2at (
`include "schedule_engine_ports.svh"
);

  localparam int unsigned AddrWidth = 20;
  localparam int unsigned IdWidth = 16;
  localparam int unsigned TagWidth = collnet_descriptor_pkg::TagWidth;
  localparam int unsigned EntryWidth = 17;
  localparam int unsigned TableDepth = 256;
  localparam int unsigned SizeDepth = 64;

  typedef enum logic [1:0] {StateIdle, StateInitCol, StateInitRow, StateRun} state_e;

  /// What a pipeline stage holds.
  typedef enum logic [2:0] {KindNone, KindSend, KindCopy, KindEnd, KindBarrier} kind_e;

  /// Every register of the engine (_d the next value, _q the current one).
  typedef struct packed {
    // configuration
    logic [AddrWidth-1:0]  message_words;
    logic [6:0]            size_x;
    logic [6:0]            size_y;
    logic [5:0]            coord_x;
    logic [5:0]            coord_y;
    logic                  torus;
    logic                  group_barriers;
    logic [8:0]            table_count;
    logic [7:0]            table_ptr;
    state_e                state;
    // table fill
    logic [6:0]            t;
    logic                  t_size, t_coord;  // t == the size, t == the coordinate (of x, then of y)
    logic [IdWidth:0]      acc;      // t*Nx
    logic [AddrWidth-1:0]  acc_m;  // t*m, then t*Nx*m
    logic [AddrWidth-1:0]  self_xm;
    logic [AddrWidth-1:0]  nx_m;
    logic [IdWidth-1:0]    self_id;
    logic [AddrWidth-1:0]  self_m;
    logic [AddrWidth-1:0]  result_base;
    // follow COORD, SIZE and TORUS: c + n and c - n of each dimension (the
    // wrap's corrected sums, taken side by side with c + d), and the offsets
    // of exactly half a torus ring, +n/2 and -n/2 (tie_ok: n is even, >= 2, on a torus)
    logic [8:0]            x_up, x_dn, y_up, y_dn;
    logic [7:0]            x_half, y_half, x_nhalf, y_nhalf;
    logic                  x_tie_ok, y_tie_ok;
    // stage A
    logic [8:0]            fetch_index;
    kind_e                 fetch_done;
    kind_e                 a_kind;
    logic [2:0]            position;
    logic [TagWidth-1:0]   group;
    logic                  barrier_pending;  // a group just ended: its BARRIER goes next
    // stage B
    kind_e                 b_kind;
    logic [5:0]            b_tx;
    logic [3:0]            b_hint;
    logic [2:0]            b_controller;
    logic [TagWidth-1:0]   b_tag;
  } regs_t;
  regs_t r_d, r_q, regs_reset;
  logic  cfg_write;  // the configuration write of this cycle is taken
  logic  can_load;   // the output buffer can take a descriptor
  logic [EntryWidth-1:0] a_entry_q;
  logic [IdWidth-1:0]    b_row_id_q;
  logic [AddrWidth-1:0]  b_col_m_q;
  logic [AddrWidth-1:0]  b_row_m_q;

  // memories
  logic [EntryWidth-1:0] offset_table [TableDepth];
  logic [AddrWidth-1:0]  col_m_mem [SizeDepth];
  logic [IdWidth-1:0]    row_id_mem [SizeDepth];
  logic [AddrWidth-1:0]  row_m_mem [SizeDepth];

  // The register map uses the low 20 bits of a write at most.
  logic unused_cfg_wdata;
  assign unused_cfg_wdata = ^cfg_wdata_i[31:AddrWidth];

  logic advance;  // the whole pipeline moves
  assign advance = can_load;

  // ---- stage B arithmetic: this node's target of the entry in stage A ----
  logic signed [7:0] entry_dx, entry_dy;
  logic              entry_last;
  logic [5:0]        tx, ty;
  logic [3:0]        hint;
  assign entry_dx = a_entry_q[7:0];
  assign entry_dy = a_entry_q[15:8];
  assign entry_last = a_entry_q[16];

  /// (c + delta) mod n for |delta| < n: one correction either way. The three
  /// sums c + delta, (c + n) + delta and (c - n) + delta are taken side by
  /// side (up = c + n and dn = c - n are registers), and their signs choose.
  function automatic logic [5:0] wrap(input logic [5:0] c, input logic [8:0] up, input logic [8:0] dn,
                                      input logic signed [7:0] delta);
    /* verilator lint_off UNUSEDSIGNAL */
    logic [8:0] sum, sum_up, sum_dn;  // bits 5:0 and the sign
    /* verilator lint_on UNUSEDSIGNAL */
    sum = {3'b000, c} + 9'(delta);
    sum_up = up + 9'(delta);
    sum_dn = dn + 9'(delta);
    if (sum[8]) wrap = sum_up[5:0];            // c + delta < 0
    else if (!sum_dn[8]) wrap = sum_dn[5:0];   // c + delta >= n
    else wrap = sum[5:0];
  endfunction

  always_comb begin
    tx = wrap(r_q.coord_x, r_q.x_up, r_q.x_dn, entry_dx);
    ty = wrap(r_q.coord_y, r_q.y_up, r_q.y_dn, entry_dy);
    // spec a2a-optimal: a component of exactly half a torus ring takes its sign's direction
    hint = '0;
    if (r_q.x_tie_ok && entry_dx == r_q.x_half) hint[1:0] = 2'd1;
    if (r_q.x_tie_ok && entry_dx == r_q.x_nhalf) hint[1:0] = 2'd2;
    if (r_q.y_tie_ok && entry_dy == r_q.y_half) hint[3:2] = 2'd1;
    if (r_q.y_tie_ok && entry_dy == r_q.y_nhalf) hint[3:2] = 2'd2;
  end

  // ---- next state ----
  logic [AddrWidth-1:0] own_area;  // N*m + self*m: where every receiver stores our data
  assign own_area = r_q.result_base + r_q.self_m;
  logic table_we, col_we, row_we, fetch_en, stage_b_en;
  logic load;
  collnet_descriptor_pkg::descriptor_t load_word;

  always_comb begin
    r_d = r_q;
    regs_reset = '0;  // but for the HLS class's register defaults:
    regs_reset.message_words = AddrWidth'(1); regs_reset.size_x = 7'd1; regs_reset.size_y = 7'd1;
    load = 1'b0;
    load_word = '0;
    table_we = 1'b0;
    col_we = 1'b0;
    row_we = 1'b0;
    fetch_en = 1'b0;
    stage_b_en = 1'b0;

    // follow COORD, SIZE and TORUS (the wrap's and the tie's constants)
    r_d.x_up = 9'(r_q.coord_x) + 9'(r_q.size_x);
    r_d.x_dn = 9'(r_q.coord_x) - 9'(r_q.size_x);
    r_d.y_up = 9'(r_q.coord_y) + 9'(r_q.size_y);
    r_d.y_dn = 9'(r_q.coord_y) - 9'(r_q.size_y);
    r_d.x_half = {2'b00, r_q.size_x[6:1]};
    r_d.x_nhalf = 8'(0) - {2'b00, r_q.size_x[6:1]};
    r_d.y_half = {2'b00, r_q.size_y[6:1]};
    r_d.y_nhalf = 8'(0) - {2'b00, r_q.size_y[6:1]};
    r_d.x_tie_ok = r_q.torus && !r_q.size_x[0] && r_q.size_x >= 7'd2;
    r_d.y_tie_ok = r_q.torus && !r_q.size_y[0] && r_q.size_y >= 7'd2;

    // configuration port
    if (cfg_write) begin
      unique case (cfg_addr_i)
        schedule_engine_a2at_regs_pkg::RegControl: begin
          if (cfg_wdata_i[0]) begin
            r_d.state = StateInitCol;
            {r_d.t, r_d.acc, r_d.acc_m} = '0;
            r_d.t_size = r_q.size_x == 7'd0;
            r_d.t_coord = r_q.coord_x == 6'd0;
          end
        end
        schedule_engine_a2at_regs_pkg::RegMessageWords: r_d.message_words = cfg_wdata_i[AddrWidth-1:0];
        schedule_engine_a2at_regs_pkg::RegSizeX: r_d.size_x = cfg_wdata_i[6:0];
        schedule_engine_a2at_regs_pkg::RegSizeY: r_d.size_y = cfg_wdata_i[6:0];
        schedule_engine_a2at_regs_pkg::RegCoordX: r_d.coord_x = cfg_wdata_i[5:0];
        schedule_engine_a2at_regs_pkg::RegCoordY: r_d.coord_y = cfg_wdata_i[5:0];
        schedule_engine_a2at_regs_pkg::RegTorus: r_d.torus = cfg_wdata_i[0];
        schedule_engine_a2at_regs_pkg::RegGroupBarriers: r_d.group_barriers = cfg_wdata_i[0];
        schedule_engine_a2at_regs_pkg::RegTableCount: r_d.table_count = cfg_wdata_i[8:0];
        schedule_engine_a2at_regs_pkg::RegTableAddr: r_d.table_ptr = cfg_wdata_i[7:0];
        schedule_engine_a2at_regs_pkg::RegTableData: begin
          table_we = 1'b1;
          r_d.table_ptr = r_q.table_ptr + 8'd1;
        end
        default: ;
      endcase
    end

    unique case (r_q.state)
      StateInitCol: begin
        // t*m for t = 0..Nx-1; x*m at t = x; Nx*m at t = Nx (hls: init_col)
        // (t runs 0..Nx: t < Nx is t != Nx; t_size and t_coord are set a cycle ahead)
        col_we = !r_q.t_size;
        if (r_q.t_coord) r_d.self_xm = r_q.acc_m;
        if (r_q.t_size) begin
          r_d.nx_m = r_q.acc_m;
          r_d.state = StateInitRow;
          {r_d.t, r_d.acc, r_d.acc_m} = '0;
          r_d.t_size = r_q.size_y == 7'd0;
          r_d.t_coord = r_q.coord_y == 6'd0;
        end else begin
          r_d.t = r_q.t + 7'd1;
          r_d.t_size = r_q.t + 7'd1 == r_q.size_x;
          r_d.t_coord = r_q.t + 7'd1 == {1'b0, r_q.coord_x};
          r_d.acc_m = r_q.acc_m + r_q.message_words;
        end
      end
      StateInitRow: begin
        // t*Nx and t*Nx*m for t = 0..Ny-1; self at t = y; N*m at t = Ny
        row_we = !r_q.t_size;
        if (r_q.t_coord) begin
          r_d.self_id = r_q.acc[IdWidth-1:0] + IdWidth'(r_q.coord_x);
          r_d.self_m = r_q.acc_m + r_q.self_xm;
        end
        if (r_q.t_size) begin
          r_d.result_base = r_q.acc_m;
          r_d.state = StateRun;
          r_d.fetch_index = '0;
          r_d.fetch_done = KindNone;
          r_d.a_kind = KindNone;
          r_d.b_kind = KindNone;
          {r_d.position, r_d.group} = '0;
          r_d.barrier_pending = 1'b0;
        end else begin
          r_d.t = r_q.t + 7'd1;
          r_d.t_size = r_q.t + 7'd1 == r_q.size_y;
          r_d.t_coord = r_q.t + 7'd1 == {1'b0, r_q.coord_y};
          r_d.acc = r_q.acc + (IdWidth+1)'(r_q.size_x);
          r_d.acc_m = r_q.acc_m + r_q.nx_m;
        end
      end
      StateRun: begin
        if (advance) begin
          if (r_q.barrier_pending) begin
            // the group's BARRIER enters stage B; stage A holds its entry
            r_d.barrier_pending = 1'b0;
            r_d.b_kind = KindBarrier;
            r_d.b_tag = r_q.group - 1'b1;  // the group that just ended
          end else begin
            // stage A: the offset table (then the copy, then END)
            if (r_q.fetch_index < r_q.table_count) begin
              r_d.a_kind = KindSend;
              fetch_en = 1'b1;
              r_d.fetch_index = r_q.fetch_index + 9'd1;
            end else if (r_q.fetch_done == KindNone) begin
              r_d.a_kind = KindCopy;
              r_d.fetch_done = KindCopy;
            end else if (r_q.fetch_done == KindCopy) begin
              r_d.a_kind = KindEnd;
              r_d.fetch_done = KindEnd;
            end else begin
              r_d.a_kind = KindNone;
            end
            // stage B: target coordinates, row and column tables
            r_d.b_kind = r_q.a_kind;
            if (r_q.a_kind == KindSend) begin
              stage_b_en = 1'b1;
              r_d.b_tx = tx;
              r_d.b_hint = hint;
              r_d.b_controller = r_q.position;
              r_d.b_tag = r_q.group;
              if (entry_last) begin
                r_d.position = '0;
                r_d.group = r_q.group + 1'b1;
                r_d.barrier_pending = r_q.group_barriers;
              end else begin
                r_d.position = r_q.position + 3'd1;
              end
            end else if (r_q.a_kind == KindCopy) begin
              r_d.b_tag = r_q.group;  // the table ends a group: group = number of groups
            end
          end
          // stage C: the output register
          load = r_q.b_kind != KindNone;
          // both SENDs go to this node's area of every receiver, m words
          unique case (r_q.b_kind)
            KindSend: begin
              load_word = collnet_descriptor_pkg::send_descriptor(IdWidth'(r_q.b_tx) + b_row_id_q, b_col_m_q + b_row_m_q,
                                                                  own_area, r_q.message_words, r_q.b_tag);
              load_word.controller = r_q.b_controller;
              load_word.route_hint = {4'b0000, r_q.b_hint};
            end
            KindCopy: load_word = collnet_descriptor_pkg::send_descriptor(r_q.self_id, r_q.self_m, own_area,
                                                                          r_q.message_words, r_q.b_tag);
            KindBarrier: load_word = collnet_descriptor_pkg::barrier_descriptor(r_q.b_tag);
            KindEnd: r_d.state = StateIdle;  // END is the zero word
            default: ;
          endcase
        end
      end
      `SCHEDULE_ENGINE_IDLE_STATES
    endcase
  end

  // ---- memories: one write port, one synchronous read port each ----
  always_ff @(posedge clk_i) begin
    if (table_we) offset_table[r_q.table_ptr] <= cfg_wdata_i[EntryWidth-1:0];
    if (fetch_en) a_entry_q <= offset_table[r_q.fetch_index[7:0]];
  end
  always_ff @(posedge clk_i) begin
    if (col_we) col_m_mem[r_q.t[5:0]] <= r_q.acc_m;
    if (stage_b_en) b_col_m_q <= col_m_mem[tx];
  end
  always_ff @(posedge clk_i) begin
    if (row_we) row_id_mem[r_q.t[5:0]] <= r_q.acc[IdWidth-1:0];
    if (stage_b_en) b_row_id_q <= row_id_mem[ty];
  end
  always_ff @(posedge clk_i) begin
    if (row_we) row_m_mem[r_q.t[5:0]] <= r_q.acc_m;
    if (stage_b_en) b_row_m_q <= row_m_mem[ty];
  end

`ifndef SYNTHESIS
  // Register map and offset table contracts (immediate assertions on the
  // registers, as in schedule_engine_a2a.sv).
  always_ff @(posedge clk_i) begin
    // sizes 1..64, coordinates below them, at most 256 offsets
    if (rst_ni && r_q.state == StateInitCol)
      assert (r_q.size_x >= 7'd1 && r_q.size_x <= 7'd64 && r_q.size_y >= 7'd1 && r_q.size_y <= 7'd64 &&
              {1'b0, r_q.coord_x} < r_q.size_x && {1'b0, r_q.coord_y} < r_q.size_y && r_q.table_count <= 9'd256)
        else $error("schedule_engine_a2at: SIZE_X/SIZE_Y must be 1..64, COORD below SIZE, TABLE_COUNT <= 256");
    // t_size and t_coord are t == the size and t == the coordinate of the table being filled
    if (rst_ni && r_q.state == StateInitCol)
      assert (r_q.t_size == (r_q.t == r_q.size_x) && r_q.t_coord == (r_q.t == {1'b0, r_q.coord_x}))
        else $error("schedule_engine_a2at: t_size/t_coord out of step with t");
    if (rst_ni && r_q.state == StateInitRow)
      assert (r_q.t_size == (r_q.t == r_q.size_y) && r_q.t_coord == (r_q.t == {1'b0, r_q.coord_y}))
        else $error("schedule_engine_a2at: t_size/t_coord out of step with t");
    // every offset is shorter than its ring
    if (rst_ni && r_q.state == StateRun && r_q.a_kind == KindSend)
      assert ((entry_dx < 0 ? 8'(-entry_dx) : 8'(entry_dx)) < {1'b0, r_q.size_x} &&
              (entry_dy < 0 ? 8'(-entry_dy) : 8'(entry_dy)) < {1'b0, r_q.size_y})
        else $error("schedule_engine_a2at: table offset not shorter than its ring");
  end
`endif

`ifdef FORMAL
  // Formal properties of this engine besides the shared ones (below).
  always @(posedge clk_i) begin
    // E5: no table write through the port while busy
    if (rst_ni && busy_o) E5_no_table_write: assert (!table_we);
    // Induction strengthening: the pipeline stages hold only the kinds the
    // engine writes (an unused code would make stage C load the zero word).
    if (rst_ni) E3_stage_kinds: assert (r_q.a_kind <= KindBarrier && r_q.b_kind <= KindBarrier);
  end
`endif

  // The skeleton instance (running: the state is not idle) and the formal
  // properties every engine shares (E5 on the registers the
  // configuration port writes; covers of a program's events: yes, END is
  // taken 11 steps after reset).
`define SCHEDULE_ENGINE_RUNNING r_q.state != StateIdle
`define SCHEDULE_ENGINE_REGS_PKG schedule_engine_a2at_regs_pkg
`define SCHEDULE_ENGINE_CONFIG_REGS {r_q.message_words, r_q.size_x, r_q.size_y, r_q.coord_x, r_q.coord_y, r_q.torus, \
                                     r_q.group_barriers, r_q.table_count, r_q.table_ptr}
`define SCHEDULE_ENGINE_COVER_PROGRAM 1'b1
`include "schedule_engine_skeleton.svh"

endmodule
