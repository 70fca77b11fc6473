// algorithm msccl: runs an MSCCL-IR program (the XML that MSCCLang writes and
// the MSCCL runtime executes: <algo> <gpu> <tb> <step>) on any topology.
// The file is parsed with pugixml, checked (step types, send/receive
// matching, chunk ranges, dependencies, placement) and translated into one
// descriptor program per endpoint. docs/guide/msccl.md gives the mapping.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collectives/params.hpp"
#include "collectives/schedule.hpp"
#include "topology/topology.hpp"

namespace collnet::collectives {

/// One <step> of an MSCCL-IR thread block.
struct MscclStep {
  int s = 0;
  std::string type;  // s, r, re, cpy, nop, rrc, rrs, rcs, rrcs
  char srcbuf = 'i', dstbuf = 'i';
  int srcoff = 0, dstoff = 0, cnt = 0;
  int depid = -1, deps = -1;
  int line = 0;  // line of the <step> element in the file
};

struct MscclThreadBlock {
  int id = 0, send = -1, recv = -1, chan = 0;
  int line = 0;
  std::vector<MscclStep> steps;
};

struct MscclGpu {
  int id = 0;
  int i_chunks = 0, o_chunks = 0, s_chunks = 0;
  int line = 0;
  std::vector<MscclThreadBlock> tbs;
};

struct MscclProgram {
  std::string name, coll, proto, file;
  int nchannels = 1, nchunksperloop = 0, ngpus = 0;
  bool inplace = false;
  /// <algo> attribute chunk_words (collnet's export writes it): the words of
  /// one chunk the file was written for; 0 where the file has none.
  int chunk_words = 0;
  int line = 0;  // line of the <algo> element
  std::vector<MscclGpu> gpus;  // index = gpu id
};

/// Reads and checks the file's structure (attributes, step types, ids).
/// Throws ConfigError naming key 'schedule', the file, the XML line, and the
/// gpu / thread block / step at fault.
MscclProgram parse_msccl(const std::string& path);
/// The same from the file's text (`file` names it in messages).
MscclProgram parse_msccl_text(const std::string& text, const std::string& file);

struct MscclOptions {
  std::uint32_t chunk_words = 16;
  std::vector<EndpointId> placement;  // rank -> endpoint; empty: identity
  int controllers = 0;                // 0: min(8, nchannels)
};

/// The schedule of a parsed program on `endpoints` endpoints (ConfigError for
/// an unmatched send, a dependency cycle, a chunk out of range, a placement
/// the topology cannot hold).
Schedule build_msccl(const MscclProgram& program, std::size_t endpoints, const MscclOptions& options);

}  // namespace collnet::collectives
