// Register map of schedule_engine_a2at (generated from the table in hls/schedule_engine_a2at.hpp
// by collnet_engine_registers --write; do not edit: tests/rtl/engine_registers_test.cpp
// fails when this file differs from the table).
package schedule_engine_a2at_regs_pkg;
  /* verilator lint_off UNUSEDPARAM */
  /// CONTROL [0]: bit 0: write 1 to start (ignored while busy)
  localparam logic [7:0] RegControl = 8'h00;
  localparam int unsigned RegControlWidth = 1;
  /// MESSAGE_WORDS [19:0]: m, words per message (1..2^19)
  localparam logic [7:0] RegMessageWords = 8'h01;
  localparam int unsigned RegMessageWordsWidth = 20;
  /// SIZE_X [6:0]: Nx, 1..64
  localparam logic [7:0] RegSizeX = 8'h02;
  localparam int unsigned RegSizeXWidth = 7;
  /// SIZE_Y [6:0]: Ny, 1..64
  localparam logic [7:0] RegSizeY = 8'h03;
  localparam int unsigned RegSizeYWidth = 7;
  /// COORD_X [5:0]: x < Nx
  localparam logic [7:0] RegCoordX = 8'h04;
  localparam int unsigned RegCoordXWidth = 6;
  /// COORD_Y [5:0]: y < Ny
  localparam logic [7:0] RegCoordY = 8'h05;
  localparam int unsigned RegCoordYWidth = 6;
  /// TORUS [0]: 1 = torus (route hints for half-ring offsets)
  localparam logic [7:0] RegTorus = 8'h06;
  localparam int unsigned RegTorusWidth = 1;
  /// TABLE_COUNT [8:0]: entries in the offset table, 0..256 (= N-1)
  localparam logic [7:0] RegTableCount = 8'h07;
  localparam int unsigned RegTableCountWidth = 9;
  /// TABLE_ADDR [7:0]: write pointer of the offset table
  localparam logic [7:0] RegTableAddr = 8'h08;
  localparam int unsigned RegTableAddrWidth = 8;
  /// TABLE_DATA [16:0]: [7:0] dx, [15:8] dy (two's complement, |d| < size), [16] last entry of its group; written at TABLE_ADDR, which then increments
  localparam logic [7:0] RegTableData = 8'h09;
  localparam int unsigned RegTableDataWidth = 17;
  /// GROUP_BARRIERS [0]: 1 = a BARRIER after every group
  localparam logic [7:0] RegGroupBarriers = 8'h0A;
  localparam int unsigned RegGroupBarriersWidth = 1;
  /* verilator lint_on UNUSEDPARAM */
endpackage
