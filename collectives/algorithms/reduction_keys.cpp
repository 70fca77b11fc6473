#include "collectives/algorithms/reduction_keys.hpp"

namespace collnet::collectives {

namespace {

// The keys of the tree reductions of document 002, declared once.
struct ReductionKeys {
  Key collective = Key::choice("collective", "which collective: reduce to rank 0, broadcast from rank 0, or allreduce",
                               "allreduce", {"reduce", "broadcast", "allreduce"});
  Key op = Key::choice("op", "reduction operator (receive operation of the combining SENDs)", "sum",
                       {"sum", "min", "max", "product"});
  Key dtype = Key::choice("dtype", "element type of the data", "int64", {"int64", "float64"});
  Key elements = Key::integer("elements", "data elements (words) per rank (two-trees: T1 carries the first ceil(L/2))",
                              15, 1, 65536, "words");
  Key blocks = Key::integer("blocks", "pipeline blocks per tree (B); phases per stage 2(B+D-1)", 4, 1, 1024);
  Key processes = Key::integer("processes", "processes P (ranks 0..P-1) placed on the servers", 1, 1,
                               std::numeric_limits<std::int32_t>::max())
                      .default_from("every endpoint")
                      .accepting("1..endpoints");
  Key spine_choice = Key::choice("spine_choice", "spine of each cross-leaf transfer (route hint) on a leaf/spine fabric",
                                 "coloring", {"coloring", "sender_port", "receiver_port"});
  Key phase_barriers = Key::boolean("phase_barriers",
                                    "a barrier after every phase on every endpoint, so that the phases run in lock "
                                    "step (the document's phase-time model); default: each node runs on as its data "
                                    "arrives; the two-tree engine emits none, so with it the reference programs run",
                                    false);
  Key stage_pipelining = Key::boolean(
      "stage_pipelining",
      "stage s+1 of block k starts as soon as block k is through stage s on the rank that sends it (twotree-hier: "
      "block k's global reduce as soon as it is reduced on its representative, the broadcasts likewise; the "
      "baselines: the broadcast of block k as soon as the root holds it); default: the stages run one after another, "
      "as the document composes them; the two-tree engine refuses it, so with it the reference programs run",
      false);
  Key grouping = Key::choice("grouping",
                             "twotree-hier groups: one per set of leaves with identical spine sets, or one per leaf",
                             "spine_set", {"spine_set", "leaf"});
  Key placement = Key::choice(
      "placement", "baselines: rank r on endpoint r (document placement 1), or the grouped placement of twotree-hier",
      "consecutive", {"consecutive", "grouped"});
};

const ReductionKeys& keys() { return declared<ReductionKeys>(); }

}  // namespace

ReductionSetup read_reduction_setup(const Params& params) {
  const ReductionKeys& k = keys();
  ReductionSetup s;
  const auto c = k.collective.choice(params);
  s.collective = c == "reduce" ? Collective::reduce : c == "broadcast" ? Collective::broadcast : Collective::allreduce;
  const auto op = k.op.choice(params);
  s.op = op == "sum" ? ReceiveOp::sum : op == "min" ? ReceiveOp::min : op == "max" ? ReceiveOp::max : ReceiveOp::product;
  s.dtype = k.dtype.choice(params) == "int64" ? DataType::int64 : DataType::float64;
  s.elements = static_cast<std::uint32_t>(k.elements.integer(params));
  s.blocks = static_cast<int>(k.blocks.integer(params));
  s.phase_barriers = k.phase_barriers.boolean(params);
  s.stage_pipelining = k.stage_pipelining.boolean(params);
  return s;
}

std::string reduction_collective_name(const Params& params) { return keys().collective.choice(params); }

int read_processes(const Params& params, int endpoints) {
  return static_cast<int>(keys().processes.integer(params, endpoints, 1, endpoints));
}

SpineChoice read_spine_choice(const Params& params) {
  const auto c = keys().spine_choice.choice(params);
  return c == "coloring" ? SpineChoice::coloring : c == "sender_port" ? SpineChoice::sender_port
                                                                      : SpineChoice::receiver_port;
}

Grouping read_grouping(const Params& params) {
  return keys().grouping.choice(params) == "leaf" ? Grouping::leaf : Grouping::spine_set;
}

bool read_grouped_placement(const Params& params) { return keys().placement.choice(params) == "grouped"; }

std::vector<Key> reduction_keys() {
  const ReductionKeys& k = keys();
  return {k.collective, k.op, k.dtype, k.elements, k.blocks, k.processes, k.spine_choice, k.phase_barriers,
          k.stage_pipelining};
}

const Key& grouping_key() { return keys().grouping; }

Footprint reduction_footprint(const topology::Topology&, const Params& params) {
  return Footprint{static_cast<std::uint64_t>(keys().elements.integer(params)), 1, "elements"};
}
const Key& placement_key() { return keys().placement; }
const Key& reduction_op_key() { return keys().op; }
const Key& reduction_dtype_key() { return keys().dtype; }
const Key& reduction_elements_key() { return keys().elements; }

}  // namespace collnet::collectives
