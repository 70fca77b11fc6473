// Register map of schedule_engine_a2a (generated from the table in hls/schedule_engine_a2a.hpp
// by collnet_engine_registers --write; do not edit: tests/rtl/engine_registers_test.cpp
// fails when this file differs from the table).
package schedule_engine_a2a_regs_pkg;
  /* verilator lint_off UNUSEDPARAM */
  /// CONTROL [0]: bit 0: write 1 to start (ignored while busy)
  localparam logic [7:0] RegControl = 8'h00;
  localparam int unsigned RegControlWidth = 1;
  /// ALGORITHM [0]: 0 = spread (one dimension of size N), 1 = nd (dimension-wise odometer)
  localparam logic [7:0] RegAlgorithm = 8'h01;
  localparam int unsigned RegAlgorithmWidth = 1;
  /// NCT [2:0]: controllers kept busy, 1..4
  localparam logic [7:0] RegNct = 8'h02;
  localparam int unsigned RegNctWidth = 3;
  /// MESSAGE_WORDS [19:0]: m, words per message (1..2^19)
  localparam logic [7:0] RegMessageWords = 8'h03;
  localparam int unsigned RegMessageWordsWidth = 20;
  /// SIZE0..3 [15:0]: n_d, dimension sizes; 1 for unused dimensions
  localparam logic [7:0] RegSize0 = 8'h04;
  localparam int unsigned RegSizeCount = 4;
  localparam int unsigned RegSizeWidth = 16;
  /// COORD0..3 [15:0]: c_d, this node's coordinate, 0 <= c_d < n_d
  localparam logic [7:0] RegCoord0 = 8'h08;
  localparam int unsigned RegCoordCount = 4;
  localparam int unsigned RegCoordWidth = 16;
  /// GROUP_BARRIERS [0]: 1 = a BARRIER after every group
  localparam logic [7:0] RegGroupBarriers = 8'h0C;
  localparam int unsigned RegGroupBarriersWidth = 1;
  /* verilator lint_on UNUSEDPARAM */
endpackage
