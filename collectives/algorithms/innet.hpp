// The in-network collectives (innet.cpp): innet-allreduce, innet-reduce,
// innet-bcast, reduced and multicast by the switches' aggregation engines.
#pragma once

#include "collectives/algorithm.hpp"

namespace collnet::collectives {

Algorithm make_innet_allreduce();
Algorithm make_innet_reduce();
Algorithm make_innet_bcast();

}  // namespace collnet::collectives
