// The register maps of the schedule engines, one table per engine
// (EngineRegisterMap, hls/schedule_engine.hpp), and the constants the engines
// and their loader (driver/engine_loader.cpp) take from them. The SystemVerilog
// packages (rtl/schedule_engine_regs_pkg.sv) and docs/engine_registers.md are
// rendered from these tables (testbench/engine_registers.hpp,
// collnet_engine_registers --write); tests/rtl/engine_registers_test.cpp fails
// when either differs from them or an RTL engine does not decode a register.
#pragma once

#include <cstdint>

#include "hls/schedule_engine.hpp"

namespace collnet::hls {

/// The configuration registers of schedule_engine_a2a (hls/schedule_engine_a2a.hpp).
inline constexpr EngineRegisterMap a2a_engine_registers{
    "schedule_engine_a2a",
    {{"CONTROL", 0x0, 1, 1, "bit 0: write 1 to start (ignored while busy)"},
     {"ALGORITHM", 0x1, 1, 1, "0 = spread (one dimension of size N), 1 = nd (dimension-wise odometer)"},
     {"NCT", 0x2, 1, 3, "controllers kept busy, 1..4"},
     {"MESSAGE_WORDS", 0x3, 1, 20, "m, words per message (1..2^19)"},
     {"SIZE", 0x4, 4, 16, "n_d, dimension sizes; 1 for unused dimensions"},
     {"COORD", 0x8, 4, 16, "c_d, this node's coordinate, 0 <= c_d < n_d"},
     {"GROUP_BARRIERS", 0xC, 1, 1, "1 = a BARRIER after every group"}}};

/// Register addresses of the engine's configuration port.
namespace a2a_engine_reg {
inline constexpr std::uint8_t control = a2a_engine_registers.address("CONTROL");
inline constexpr std::uint8_t algorithm = a2a_engine_registers.address("ALGORITHM");
inline constexpr std::uint8_t nct = a2a_engine_registers.address("NCT");
inline constexpr std::uint8_t message_words = a2a_engine_registers.address("MESSAGE_WORDS");
inline constexpr std::uint8_t size0 = a2a_engine_registers.address("SIZE");    // size0 + d
inline constexpr std::uint8_t coord0 = a2a_engine_registers.address("COORD");  // coord0 + d
inline constexpr std::uint8_t group_barriers = a2a_engine_registers.address("GROUP_BARRIERS");
inline constexpr std::uint8_t algorithm_spread = 0;
inline constexpr std::uint8_t algorithm_nd = 1;
}  // namespace a2a_engine_reg

/// The configuration registers of schedule_engine_a2at (hls/schedule_engine_a2at.hpp).
inline constexpr EngineRegisterMap a2at_engine_registers{
    "schedule_engine_a2at",
    {{"CONTROL", 0x0, 1, 1, "bit 0: write 1 to start (ignored while busy)"},
     {"MESSAGE_WORDS", 0x1, 1, 20, "m, words per message (1..2^19)"},
     {"SIZE_X", 0x2, 1, 7, "Nx, 1..64"},
     {"SIZE_Y", 0x3, 1, 7, "Ny, 1..64"},
     {"COORD_X", 0x4, 1, 6, "x < Nx"},
     {"COORD_Y", 0x5, 1, 6, "y < Ny"},
     {"TORUS", 0x6, 1, 1, "1 = torus (route hints for half-ring offsets)"},
     {"TABLE_COUNT", 0x7, 1, 9, "entries in the offset table, 0..256 (= N-1)"},
     {"TABLE_ADDR", 0x8, 1, 8, "write pointer of the offset table"},
     {"TABLE_DATA", 0x9, 1, 17,
      "[7:0] dx, [15:8] dy (two's complement, |d| < size), [16] last entry of its group; written at TABLE_ADDR, "
      "which then increments"},
     {"GROUP_BARRIERS", 0xA, 1, 1, "1 = a BARRIER after every group"}}};

namespace a2at_engine_reg {
inline constexpr std::uint8_t control = a2at_engine_registers.address("CONTROL");
inline constexpr std::uint8_t message_words = a2at_engine_registers.address("MESSAGE_WORDS");
inline constexpr std::uint8_t size_x = a2at_engine_registers.address("SIZE_X");
inline constexpr std::uint8_t size_y = a2at_engine_registers.address("SIZE_Y");
inline constexpr std::uint8_t coord_x = a2at_engine_registers.address("COORD_X");
inline constexpr std::uint8_t coord_y = a2at_engine_registers.address("COORD_Y");
inline constexpr std::uint8_t torus = a2at_engine_registers.address("TORUS");
inline constexpr std::uint8_t table_count = a2at_engine_registers.address("TABLE_COUNT");
inline constexpr std::uint8_t table_addr = a2at_engine_registers.address("TABLE_ADDR");
inline constexpr std::uint8_t table_data = a2at_engine_registers.address("TABLE_DATA");
inline constexpr std::uint8_t group_barriers = a2at_engine_registers.address("GROUP_BARRIERS");
inline constexpr unsigned table_entries = 256;
inline constexpr unsigned max_size = 64;

/// TABLE_DATA word of one offset.
constexpr std::uint32_t table_word(int dx, int dy, bool last) {
  return (static_cast<std::uint32_t>(dx) & 0xffu) | ((static_cast<std::uint32_t>(dy) & 0xffu) << 8) |
         (last ? 1u << 16 : 0u);
}
}  // namespace a2at_engine_reg

/// The configuration registers of schedule_engine_hopgroup (hls/schedule_engine_hopgroup.hpp).
inline constexpr EngineRegisterMap hopgroup_engine_registers{
    "schedule_engine_hopgroup",
    {{"CONTROL", 0x0, 1, 1, "bit 0: write 1 to start (ignored while busy)"},
     {"ALGORITHM", 0x1, 1, 1, "0 = hop groups, 1 = direct (the comparative example)"},
     {"MESSAGE_WORDS", 0x2, 1, 20, "m (1..2^19)"},
     {"OPTIONS", 0x3, 1, 6,
      "[0] torus, [1] pacing, [2] hop_order descending, [3] directions both, [4] mode3d concurrent, [5] barriers"},
     {"GAP_SLACK", 0x4, 1, 8, "slack added to every paced gap"},
     {"DIMS", 0x5, 1, 3,
      "number of dimensions of the grid (1..3 hop groups, 1..4 direct); 3 splits every area in pieces a, b, c"},
     {"SIZE", 0x6, 4, 7, "n_d, 1..64; 1 for unused dimensions"},
     {"COORD", 0xA, 4, 6, "c_d < n_d"}}};

namespace hopgroup_engine_reg {
inline constexpr std::uint8_t control = hopgroup_engine_registers.address("CONTROL");
inline constexpr std::uint8_t algorithm = hopgroup_engine_registers.address("ALGORITHM");
inline constexpr std::uint8_t message_words = hopgroup_engine_registers.address("MESSAGE_WORDS");
inline constexpr std::uint8_t options = hopgroup_engine_registers.address("OPTIONS");
inline constexpr std::uint8_t gap_slack = hopgroup_engine_registers.address("GAP_SLACK");
inline constexpr std::uint8_t dims = hopgroup_engine_registers.address("DIMS");
inline constexpr std::uint8_t size0 = hopgroup_engine_registers.address("SIZE");    // size0 + d
inline constexpr std::uint8_t coord0 = hopgroup_engine_registers.address("COORD");  // coord0 + d
inline constexpr std::uint8_t algorithm_hopgroup = 0;
inline constexpr std::uint8_t algorithm_direct = 1;
inline constexpr std::uint32_t opt_torus = 1u << 0;
inline constexpr std::uint32_t opt_pacing = 1u << 1;
inline constexpr std::uint32_t opt_descending = 1u << 2;
inline constexpr std::uint32_t opt_both = 1u << 3;
inline constexpr std::uint32_t opt_concurrent = 1u << 4;
inline constexpr std::uint32_t opt_barriers = 1u << 5;
inline constexpr unsigned max_size = 64;
}  // namespace hopgroup_engine_reg

/// The configuration registers of schedule_engine_hd (hls/schedule_engine_hd.hpp).
inline constexpr EngineRegisterMap hd_engine_registers{
    "schedule_engine_hd",
    {{"CONTROL", 0x0, 1, 1, "bit 0: write 1 to start (ignored while busy)"},
     {"VARIANT", 0x1, 1, 1, "0 = hierarchical, 1 = conventional"},
     {"DIM_ORDER", 0x2, 1, 1, "0 = wxyz, 1 = bandwidth"},
     {"OP", 0x3, 1, 3, "0 sum, 1 product, 2 max, 3 min, 4 average"},
     {"DTYPE", 0x4, 1, 1, "0 int64, 1 float64"},
     {"UNIT", 0x5, 1, 4, "endpoint mod 12: 0..7 main unit m, 8..11 aggregation unit a+8"},
     {"ELEMENTS", 0x6, 1, 20, "L, a multiple of A x boards"},
     {"AGG_UNITS", 0x7, 1, 3, "A = 1, 2 or 4"},
     {"SIZE", 0x8, 4, 3, "board sizes W, X, Y, Z: 1, 2 or 4"},
     {"COORD", 0xC, 4, 2, "this board's coordinate"}}};

/// Register addresses of the engine's configuration port.
namespace hd_engine_reg {
inline constexpr std::uint8_t control = hd_engine_registers.address("CONTROL");
inline constexpr std::uint8_t variant = hd_engine_registers.address("VARIANT");
inline constexpr std::uint8_t dim_order = hd_engine_registers.address("DIM_ORDER");
inline constexpr std::uint8_t op = hd_engine_registers.address("OP");
inline constexpr std::uint8_t dtype = hd_engine_registers.address("DTYPE");
inline constexpr std::uint8_t unit = hd_engine_registers.address("UNIT");
inline constexpr std::uint8_t elements = hd_engine_registers.address("ELEMENTS");
inline constexpr std::uint8_t agg_units = hd_engine_registers.address("AGG_UNITS");
inline constexpr std::uint8_t size0 = hd_engine_registers.address("SIZE");    // size0 + d
inline constexpr std::uint8_t coord0 = hd_engine_registers.address("COORD");  // coord0 + d
inline constexpr std::uint32_t op_sum = 0, op_product = 1, op_max = 2, op_min = 3, op_average = 4;
}  // namespace hd_engine_reg

/// The configuration registers of schedule_engine_twotree (hls/schedule_engine_twotree.hpp).
inline constexpr EngineRegisterMap twotree_engine_registers{
    "schedule_engine_twotree",
    {{"CONTROL", 0x00, 1, 1, "bit 0: write 1 to start (ignored while busy)"},
     {"MODE", 0x01, 1, 5,
      "[0] dtype (0 int64, 1 float64), [3:1] receive op (1 sum, 2 product, 3 max, 4 min), [4] single tree"},
     {"SELF", 0x02, 1, 16, "this rank's endpoint"},
     {"ELEMENTS", 0x03, 1, 17, "L (1..65536)"},
     {"BLOCKS", 0x04, 1, 11, "B (1..1024)"},
     {"STAGES", 0x05, 1, 3, "stages this rank runs, 0..4 (0: END only)"},
     {"STAGE", 0x08, 4, 32, "stage s: [0] 1 = broadcast, [1] reduce index r (0/1), [31:16] first global phase"},
     {"ENTRY", 0x10, 16, 32,
      "entry 4s + e of stage s, e = 0/1: send color 0/1, e = 2/3: receive color 0/1: [0] valid, [1] tree, [2] slot, "
      "[12:3] level, [31:16] partner endpoint"},
     {"HINT_ADDR", 0x30, 1, 10, "next hint table address"},
     {"HINT_DATA", 0x31, 1, 8, "route hint; writes HINT[HINT_ADDR++]"}}};

namespace twotree_engine_reg {
inline constexpr std::uint8_t control = twotree_engine_registers.address("CONTROL");
inline constexpr std::uint8_t mode = twotree_engine_registers.address("MODE");
inline constexpr std::uint8_t self = twotree_engine_registers.address("SELF");
inline constexpr std::uint8_t elements = twotree_engine_registers.address("ELEMENTS");
inline constexpr std::uint8_t blocks = twotree_engine_registers.address("BLOCKS");
inline constexpr std::uint8_t stages = twotree_engine_registers.address("STAGES");
inline constexpr std::uint8_t stage0 = twotree_engine_registers.address("STAGE");  // stage0 + s
inline constexpr std::uint8_t entry0 = twotree_engine_registers.address("ENTRY");  // entry0 + 4s + e
inline constexpr std::uint8_t hint_addr = twotree_engine_registers.address("HINT_ADDR");
inline constexpr std::uint8_t hint_data = twotree_engine_registers.address("HINT_DATA");
}  // namespace twotree_engine_reg

}  // namespace collnet::hls
