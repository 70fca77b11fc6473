// A schedule engine as the NIC's descriptor source drives it: the interface
// (driver/engine_block.hpp) behind which the engine source
// (descriptor_source.cpp) runs either the HLS class or the Verilated RTL, so
// both see the same cycles.
#pragma once

#include <memory>

#include "driver/engine_block.hpp"
#include "driver/engine_loader.hpp"

namespace collnet::systemc {

using EngineInputs = driver::EngineInputs;
using EngineOutputs = driver::EngineOutputs;
using EngineBlock = driver::EngineBlock;

/// The HLS class of engine `kind`, after reset (its catalog entry; its RTL:
/// rtl_blocks.hpp).
std::unique_ptr<EngineBlock> make_hls_engine(driver::EngineKind kind);

}  // namespace collnet::systemc
