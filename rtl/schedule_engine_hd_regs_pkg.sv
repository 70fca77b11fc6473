// Register map of schedule_engine_hd (generated from the table in hls/schedule_engine_hd.hpp
// by collnet_engine_registers --write; do not edit: tests/rtl/engine_registers_test.cpp
// fails when this file differs from the table).
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
