// The registry entries and their key declarations (collectives/algorithm.hpp,
// keys.hpp). Independent expectations: an algorithm built with every key
// set to the default its declaration documents emits exactly the programs
// it emits with no key set (the documented default is the one the code
// uses); a value outside the declared range is refused naming the key and
// listing the accepted values; the entries that name an engine can produce
// its loader values.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <any>
#include <map>
#include <set>
#include <typeindex>

#include "collectives/algorithm.hpp"
#include "collectives/algorithms/a2a_baselines.hpp"
#include "collectives/algorithms/a2a_hopgroup.hpp"
#include "collectives/algorithms/a2a_optimal.hpp"
#include "collectives/algorithms/hd_allreduce.hpp"
#include "collectives/algorithms/tree_collective.hpp"
#include "topology/topology.hpp"

using namespace collnet;
using namespace collnet::collectives;
using ::testing::HasSubstr;

namespace {

/// A topology each algorithm runs on.
std::string topology_for(const Algorithm& a) {
  if (a.name == "tree-bcast") return "tree:kary=2,n=7";
  if (a.name.rfind("hd-", 0) == 0) return "boards:2x2x1x1";
  if (a.name == "twotree-hier") return "leafspine:p=6";
  if (a.name.rfind("innet-", 0) == 0) return "fattree:k=4,n=2";
  return "torus:4x4";
}

/// The keys an algorithm cannot run without (msccl: its program file).
Params required(const Algorithm& a, Params p = {}) {
  if (a.name == "msccl") p.set("schedule", COLLNET_SOURCE_DIR "/examples/msccl/allreduce_ring_8.xml");
  return p;
}

std::vector<std::vector<DescriptorWord>> words(const Schedule& s) {
  std::vector<std::vector<DescriptorWord>> w;
  for (const auto& p : s.programs) {
    w.emplace_back();
    for (const auto& d : p) w.back().push_back(d.pack());
  }
  return w;
}

/// The value a declaration documents as its default, when it is a value
/// (not a rule such as "2 on a mesh, 4 on a torus").
bool literal_default(const Key& k) {
  switch (k.type()) {
    case Key::Type::integer: return k.default_value.find_first_not_of("-0123456789") == std::string::npos;
    case Key::Type::boolean: return true;
    case Key::Type::choice: {
      const auto& v = k.accepted_values();
      return std::find(v.begin(), v.end(), k.default_value) != v.end();
    }
    default: return false;
  }
}

}  // namespace

TEST(Registry, DeclaredDefaultsAreTheDefaultsTheBuildersUse) {
  int total = 0;
  for (const auto& a : algorithms()) {
    const auto topo = topology::make_topology(topology_for(a));
    Params with_defaults = required(a, {{"message_flits", message_flits_key().default_value}});
    int set = 0;
    for (const Key& k : a.keys)
      if (literal_default(k)) {
        with_defaults.set(k.name, k.default_value);
        ++set;
      }
    total += set;
    EXPECT_EQ(words(a.build(*topo, required(a))), words(a.build(*topo, with_defaults))) << a.name;
  }
  EXPECT_GE(total, 25);  // all but the scenario-dependent defaults (nct, root, elements of hd, ...)
}

TEST(Registry, EveryKeyIsDeclaredOncePerAlgorithmAndDocumented) {
  std::set<std::string> common;
  for (const Key& k : common_keys()) common.insert(k.name);
  for (const auto& a : algorithms()) {
    std::set<std::string> names;
    for (const Key& k : a.keys) {
      EXPECT_TRUE(names.insert(k.name).second) << a.name << " declares " << k.name << " twice";
      EXPECT_EQ(common.count(k.name), 0u) << a.name << " redeclares the common key " << k.name;
      EXPECT_FALSE(k.meaning.empty()) << k.name;
      EXPECT_FALSE(k.default_value.empty()) << k.name;
      EXPECT_FALSE(k.accepted.empty()) << k.name;
    }
  }
}

TEST(Registry, BadValuesAreRefusedNamingTheKeyAndTheAcceptedValues) {
  EXPECT_EQ(message_flits_key().problem(Params{{"message_flits", "16"}}), "");
  EXPECT_EQ(message_flits_key().problem(Params{}), "");
  EXPECT_THAT(message_flits_key().problem(Params{{"message_flits", "0"}}),
              HasSubstr("key 'message_flits': expected an integer from 1 to 65536"));
  EXPECT_THAT(controllers_key().problem(Params{{"controllers", "9"}}), HasSubstr("from 1 to 8"));
  EXPECT_THAT(dispatch_key().problem(Params{{"dispatch", "any"}}),
              HasSubstr("accepted values: auto, named, next-idle"));
  EXPECT_THAT(topology_key().problem(Params{{"topology", "ring:4"}}), HasSubstr("key 'topology'"));
  EXPECT_THAT(algorithm_key().problem(Params{{"algorithm", "a2a"}}), HasSubstr("a2a-optimal"));
  for (const auto& a : algorithms())
    for (const Key& k : a.keys) {
      const std::string p = k.problem(Params{{k.name, "not-a-value"}});
      if (k.type() == Key::Type::text) continue;
      EXPECT_THAT(p, HasSubstr("key '" + k.name + "'")) << a.name;
    }
  EXPECT_THROW((void)find_algorithm("none", "compare"), ConfigError);
  try {
    (void)find_algorithm("none", "compare");
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("key 'compare'"));
  }
}

TEST(Registry, EngineEntriesReadTheirLoaderValues) {
  // Every algorithm an engine runs hands it the struct its header declares:
  // one type per engine, shared by the algorithms of that engine.
  std::map<std::string, std::type_index> values_of_engine;
  for (const auto& a : algorithms()) {
    EXPECT_EQ(!a.engine.empty(), static_cast<bool>(a.engine_params)) << a.name;
    if (a.engine.empty()) continue;
    const auto topo = topology::make_topology(topology_for(a));
    const std::any p = a.engine_params(*topo, Params{});
    ASSERT_TRUE(p.has_value()) << a.name;
    const auto [it, first] = values_of_engine.emplace(a.engine, std::type_index(p.type()));
    EXPECT_EQ(it->second, std::type_index(p.type())) << a.name << " hands engine " << a.engine << " another struct";
  }
  // Every engine but the programmable one (it runs any schedule's programs)
  // runs registered algorithms, each with loader values of its own type.
  const std::map<std::string, std::type_index> expected{{"a2a", typeid(A2aEngineParams)},
                                                        {"a2at", typeid(A2atEngineParams)},
                                                        {"hd", typeid(HdEngineParams)},
                                                        {"hopgroup", typeid(HopgroupEngineParams)},
                                                        {"twotree", typeid(TwotreeEngineParams)}};
  EXPECT_EQ(values_of_engine, expected);
  // The document-001 algorithms dispatch to the next idle controller
  // (spec a2a-optimal: "an idle controller takes the next queued send").
  for (const char* name : {"a2a-optimal", "a2a-spread", "a2a-nd"})
    EXPECT_EQ(find_algorithm(name).nic.dispatch, Dispatch::next_idle) << name;
  EXPECT_EQ(find_algorithm("a2a-hopgroup").nic.dispatch, Dispatch::named);
  // a2a-nd and a2a-spread share an engine and differ in one loader value.
  const auto topo = topology::make_topology("torus:4x4");
  const auto values = [&](const char* name, const Params& params) {
    return std::any_cast<A2aEngineParams>(find_algorithm(name).engine_params(*topo, params));
  };
  EXPECT_TRUE(values("a2a-nd", Params{}).nd);
  EXPECT_FALSE(values("a2a-spread", Params{}).nd);
  EXPECT_EQ(values("a2a-spread", Params{{"nct", "3"}}).nct, 3);
}

// The size check before a run (systemc/memory_estimate) takes an endpoint's
// memory and program size from the entry's footprint, without building the
// schedule; it must be a lower estimate of what the built schedule needs, so
// that a refusal never refuses a run that would fit.
TEST(Registry, FootprintIsALowerEstimateOfTheBuiltSchedule) {
  for (const auto& a : algorithms()) {
    ASSERT_TRUE(static_cast<bool>(a.footprint)) << a.name;
    const auto topo = topology::make_topology(topology_for(a));
    for (const char* m : {"4", "16"}) {
      const Params params = required(a, {{"message_flits", m}, {"elements", "64"}});
      const Schedule s = a.build(*topo, params);
      const Footprint f = a.footprint(*topo, params);
      EXPECT_GT(f.words, 0u) << a.name;
      EXPECT_LE(f.words, s.memory_words) << a.name << " message_flits " << m;
      std::uint64_t total_words = 0;  // what the NICs allocate
      for (std::size_t e = 0; e < s.endpoints(); ++e) total_words += s.memory_of(static_cast<EndpointId>(e));
      EXPECT_LE(f.words * s.endpoints(), total_words) << a.name << " message_flits " << m;
      std::uint64_t most_sends = 0;
      for (const auto& p : s.programs) {
        std::uint64_t sends = 0;
        for (const auto& d : p) sends += d.opcode == Opcode::send ? 1 : 0;
        most_sends = std::max(most_sends, sends);
      }
      EXPECT_GE(f.sends, 1u) << a.name;
      EXPECT_LE(f.sends, std::max<std::uint64_t>(most_sends, 1)) << a.name;
      EXPECT_FALSE(f.keys.empty()) << a.name;
    }
  }
}
