#include "collectives/reduction_keys.hpp"

namespace collnet::collectives {

ReductionSetup read_reduction_setup(const Params& params) {
  ReductionSetup s;
  const auto c = params.choice("collective", "allreduce", {"reduce", "broadcast", "allreduce"});
  s.collective = c == "reduce" ? Collective::reduce : c == "broadcast" ? Collective::broadcast : Collective::allreduce;
  const auto op = params.choice("op", "sum", {"sum", "min", "max", "product"});
  s.op = op == "sum" ? ReceiveOp::sum : op == "min" ? ReceiveOp::min : op == "max" ? ReceiveOp::max : ReceiveOp::product;
  s.dtype = params.choice("dtype", "int64", {"int64", "float64"}) == "int64" ? DataType::int64 : DataType::float64;
  s.elements = static_cast<std::uint32_t>(params.integer("elements", 15, 1, 65536));
  s.blocks = static_cast<int>(params.integer("blocks", 4, 1, 1024));
  s.phase_barriers = params.boolean("phase_barriers", false);
  return s;
}

int read_processes(const Params& params, int endpoints) {
  return static_cast<int>(params.integer("processes", endpoints, 1, endpoints));
}

SpineChoice read_spine_choice(const Params& params) {
  const auto c = params.choice("spine_choice", "coloring", {"coloring", "sender_port", "receiver_port"});
  return c == "coloring" ? SpineChoice::coloring : c == "sender_port" ? SpineChoice::sender_port
                                                                      : SpineChoice::receiver_port;
}

Grouping read_grouping(const Params& params) {
  return params.choice("grouping", "spine_set", {"spine_set", "leaf"}) == "leaf" ? Grouping::leaf
                                                                                  : Grouping::spine_set;
}

std::vector<KeyDoc> reduction_key_docs() {
  return {
      {"collective", "which collective: reduce to rank 0, broadcast from rank 0, or allreduce", "allreduce",
       "reduce, broadcast, allreduce"},
      {"op", "reduction operator (receive operation of the combining SENDs)", "sum", "sum, min, max, product"},
      {"dtype", "element type of the data", "int64", "int64, float64"},
      {"elements", "data elements (words) per rank (two-trees: T1 carries the first ceil(L/2))", "15", "1..65536"},
      {"blocks", "pipeline blocks per tree (B); phases per stage 2(B+D-1)", "4", "1..1024"},
      {"processes", "processes P (ranks 0..P-1) placed on the servers", "every endpoint", "1..endpoints"},
      {"spine_choice", "spine of each cross-leaf transfer (route hint) on a leaf/spine fabric", "coloring",
       "coloring, sender_port, receiver_port"},
      {"phase_barriers",
       "a barrier after every phase on every endpoint, so that the phases run in lock step (the document's "
       "phase-time model); default: each node runs on as its data arrives",
       "false", "true, false"},
  };
}

KeyDoc grouping_key_doc() {
  return {"grouping", "twotree-hier groups: one per set of leaves with identical spine sets, or one per leaf",
          "spine_set", "spine_set, leaf"};
}

KeyDoc placement_key_doc() {
  return {"placement",
          "baselines: rank r on endpoint r (document placement 1), or the grouped placement of twotree-hier",
          "consecutive", "consecutive, grouped"};
}

}  // namespace collnet::collectives
