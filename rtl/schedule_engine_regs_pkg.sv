// The register maps of the schedule engines, one package per engine, rendered
// from the tables in hls/schedule_engine_registers.hpp by
// `collnet_engine_registers --write .`; do not edit (tests/rtl/engine_registers_test.cpp
// fails when this file differs from the tables).
/* verilator lint_off DECLFILENAME */

// schedule_engine_a2a: the table a2a_engine_registers.
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

// schedule_engine_a2at: the table a2at_engine_registers.
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

// schedule_engine_hopgroup: the table hopgroup_engine_registers.
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

// schedule_engine_hd: the table hd_engine_registers.
package schedule_engine_hd_regs_pkg;
  /* verilator lint_off UNUSEDPARAM */
  /// CONTROL [0]: bit 0: write 1 to start (ignored while busy)
  localparam logic [7:0] RegControl = 8'h00;
  localparam int unsigned RegControlWidth = 1;
  /// VARIANT [0]: 0 = hierarchical, 1 = conventional
  localparam logic [7:0] RegVariant = 8'h01;
  localparam int unsigned RegVariantWidth = 1;
  /// DIM_ORDER [0]: 0 = wxyz, 1 = bandwidth
  localparam logic [7:0] RegDimOrder = 8'h02;
  localparam int unsigned RegDimOrderWidth = 1;
  /// OP [2:0]: 0 sum, 1 product, 2 max, 3 min, 4 average
  localparam logic [7:0] RegOp = 8'h03;
  localparam int unsigned RegOpWidth = 3;
  /// DTYPE [0]: 0 int64, 1 float64
  localparam logic [7:0] RegDtype = 8'h04;
  localparam int unsigned RegDtypeWidth = 1;
  /// UNIT [3:0]: endpoint mod 12: 0..7 main unit m, 8..11 aggregation unit a+8
  localparam logic [7:0] RegUnit = 8'h05;
  localparam int unsigned RegUnitWidth = 4;
  /// ELEMENTS [19:0]: L, a multiple of A x boards
  localparam logic [7:0] RegElements = 8'h06;
  localparam int unsigned RegElementsWidth = 20;
  /// AGG_UNITS [2:0]: A = 1, 2 or 4
  localparam logic [7:0] RegAggUnits = 8'h07;
  localparam int unsigned RegAggUnitsWidth = 3;
  /// SIZE0..3 [2:0]: board sizes W, X, Y, Z: 1, 2 or 4
  localparam logic [7:0] RegSize0 = 8'h08;
  localparam int unsigned RegSizeCount = 4;
  localparam int unsigned RegSizeWidth = 3;
  /// COORD0..3 [1:0]: this board's coordinate
  localparam logic [7:0] RegCoord0 = 8'h0C;
  localparam int unsigned RegCoordCount = 4;
  localparam int unsigned RegCoordWidth = 2;
  /* verilator lint_on UNUSEDPARAM */
endpackage

// schedule_engine_twotree: the table twotree_engine_registers.
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
