// Register map of schedule_engine_hopgroup (generated from the table in hls/schedule_engine_hopgroup.hpp
// by collnet_engine_registers --write; do not edit: tests/rtl/engine_registers_test.cpp
// fails when this file differs from the table).
package schedule_engine_hopgroup_regs_pkg;
  /* verilator lint_off UNUSEDPARAM */
  /// CONTROL [0]: bit 0: write 1 to start (ignored while busy)
  localparam logic [7:0] RegControl = 8'h00;
  localparam int unsigned RegControlWidth = 1;
  /// ALGORITHM [0]: 0 = hop groups, 1 = direct (the comparative example)
  localparam logic [7:0] RegAlgorithm = 8'h01;
  localparam int unsigned RegAlgorithmWidth = 1;
  /// MESSAGE_WORDS [19:0]: m (1..2^19)
  localparam logic [7:0] RegMessageWords = 8'h02;
  localparam int unsigned RegMessageWordsWidth = 20;
  /// OPTIONS [5:0]: [0] torus, [1] pacing, [2] hop_order descending, [3] directions both, [4] mode3d concurrent, [5] barriers
  localparam logic [7:0] RegOptions = 8'h03;
  localparam int unsigned RegOptionsWidth = 6;
  /// GAP_SLACK [7:0]: slack added to every paced gap
  localparam logic [7:0] RegGapSlack = 8'h04;
  localparam int unsigned RegGapSlackWidth = 8;
  /// DIMS [2:0]: number of dimensions of the grid (1..3 hop groups, 1..4 direct); 3 splits every area in pieces a, b, c
  localparam logic [7:0] RegDims = 8'h05;
  localparam int unsigned RegDimsWidth = 3;
  /// SIZE0..3 [6:0]: n_d, 1..64; 1 for unused dimensions
  localparam logic [7:0] RegSize0 = 8'h06;
  localparam int unsigned RegSizeCount = 4;
  localparam int unsigned RegSizeWidth = 7;
  /// COORD0..3 [5:0]: c_d < n_d
  localparam logic [7:0] RegCoord0 = 8'h0A;
  localparam int unsigned RegCoordCount = 4;
  localparam int unsigned RegCoordWidth = 6;
  /* verilator lint_on UNUSEDPARAM */
endpackage
