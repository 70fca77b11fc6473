// `collnet export --format msccl [SCENARIO] [--set key=value ...] --out FILE`:
// builds the scenario's collective and writes it as MSCCL-IR
// (collectives/msccl_export.hpp, docs/guide/msccl.md "Export").
#pragma once

#include <string>
#include <vector>

namespace collnet::cli {

struct ExportOptions {
  std::string format;
  std::string scenario;
  std::vector<std::string> sets;
  std::string out;
};

/// Exit status: 0 written; ConfigError (exit 2) for bad input or an
/// algorithm that cannot be exported. Warnings go to stderr.
int run_export(const ExportOptions& options);

}  // namespace collnet::cli
