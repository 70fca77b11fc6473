// Register map of schedule_engine_twotree (generated from the table in hls/schedule_engine_twotree.hpp
// by collnet_engine_registers --write; do not edit: tests/rtl/engine_registers_test.cpp
// fails when this file differs from the table).
package schedule_engine_twotree_regs_pkg;
  /* verilator lint_off UNUSEDPARAM */
  /// CONTROL [0]: bit 0: write 1 to start (ignored while busy)
  localparam logic [7:0] RegControl = 8'h00;
  localparam int unsigned RegControlWidth = 1;
  /// MODE [4:0]: [0] dtype (0 int64, 1 float64), [3:1] receive op (1 sum, 2 product, 3 max, 4 min), [4] single tree
  localparam logic [7:0] RegMode = 8'h01;
  localparam int unsigned RegModeWidth = 5;
  /// SELF [15:0]: this rank's endpoint
  localparam logic [7:0] RegSelf = 8'h02;
  localparam int unsigned RegSelfWidth = 16;
  /// ELEMENTS [16:0]: L (1..65536)
  localparam logic [7:0] RegElements = 8'h03;
  localparam int unsigned RegElementsWidth = 17;
  /// BLOCKS [10:0]: B (1..1024)
  localparam logic [7:0] RegBlocks = 8'h04;
  localparam int unsigned RegBlocksWidth = 11;
  /// STAGES [2:0]: stages this rank runs, 0..4 (0: END only)
  localparam logic [7:0] RegStages = 8'h05;
  localparam int unsigned RegStagesWidth = 3;
  /// STAGE0..3 [31:0]: stage s: [0] 1 = broadcast, [1] reduce index r (0/1), [31:16] first global phase
  localparam logic [7:0] RegStage0 = 8'h08;
  localparam int unsigned RegStageCount = 4;
  localparam int unsigned RegStageWidth = 32;
  /// ENTRY0..15 [31:0]: entry 4s + e of stage s, e = 0/1: send color 0/1, e = 2/3: receive color 0/1: [0] valid, [1] tree, [2] slot, [12:3] level, [31:16] partner endpoint
  localparam logic [7:0] RegEntry0 = 8'h10;
  localparam int unsigned RegEntryCount = 16;
  localparam int unsigned RegEntryWidth = 32;
  /// HINT_ADDR [9:0]: next hint table address
  localparam logic [7:0] RegHintAddr = 8'h30;
  localparam int unsigned RegHintAddrWidth = 10;
  /// HINT_DATA [7:0]: route hint; writes HINT[HINT_ADDR++]
  localparam logic [7:0] RegHintData = 8'h31;
  localparam int unsigned RegHintDataWidth = 8;
  /* verilator lint_on UNUSEDPARAM */
endpackage
