// Engine "programmable": schedule_engine_programmable
// (hls/schedule_engine_programmable.hpp, rtl/schedule_engine_programmable.sv)
// replays any schedule's programs from its descriptor memory. Its loader, the
// key program_depth and its registry entry.
#include "driver/engine_catalog.hpp"

#include "hls/schedule_engine_programmable.hpp"

namespace collnet::driver {

namespace {

/// The programmable engine replays every endpoint's program of the run's
/// schedule (built here when the run has none yet); each must fit the
/// descriptor memory the scenario gives it (key program_depth).
EndpointWrites programmable_loader(const LoadRequest& r) {
  std::shared_ptr<const collectives::Schedule> schedule;
  if (r.schedule != nullptr) {
    schedule = std::shared_ptr<const collectives::Schedule>(r.schedule, [](const collectives::Schedule*) {});
  } else {
    if (r.algorithm == nullptr) throw std::logic_error("programmable engine: neither a schedule nor an algorithm");
    schedule = std::make_shared<const collectives::Schedule>(r.algorithm->build(*r.topology, *r.params));
  }
  const auto depth = static_cast<std::size_t>(program_depth_key().integer(*r.params));
  for (std::size_t e = 0; e < schedule->programs.size(); ++e) {
    const collectives::Program& program = schedule->programs[e];
    if (program.size() > depth)
      throw ConfigError("key 'program_depth': schedule_engine_programmable holds " + std::to_string(depth) +
                        " descriptors (program_depth), endpoint " + std::to_string(e) + "'s program of " +
                        schedule->algorithm + " has " + std::to_string(program.size()) +
                        "; accepted: program_depth up to " +
                        std::to_string(hls::programmable_engine_reg::program_entries) +
                        " (the engine's descriptor memory), or schedule_engine: reference");
    if (program.empty() || program.back().opcode != Opcode::end)
      throw std::logic_error("programmable engine: endpoint " + std::to_string(e) + "'s program does not end with END");
  }
  return [schedule](topology::EndpointId e) {
    std::vector<DescriptorWord> words;
    for (const Descriptor& d : schedule->programs.at(static_cast<std::size_t>(e))) words.push_back(d.pack());
    return hls::programmable_engine_writes(words);
  };
}


}  // namespace

const Key& program_depth_key() {
  static const Key key =
      Key::integer("program_depth",
                   "schedule_engine programmable: descriptors the NIC's programmable engine holds (its descriptor "
                   "memory); a longer program is refused",
                   hls::programmable_engine_reg::program_entries, 1, hls::programmable_engine_reg::program_entries,
                   "descriptors");
  return key;
}

namespace engines {

EngineEntry programmable() {
  return {"programmable",
          "programs of up to " + std::to_string(hls::programmable_engine_reg::program_entries) +
              " descriptors (program_depth)",
          true, [](const std::string&, const topology::Topology&) { return std::string(); }, programmable_loader,
          make_hls_engine_of<hls::ProgrammableScheduleEngine>};
}

}  // namespace engines

}  // namespace collnet::driver
