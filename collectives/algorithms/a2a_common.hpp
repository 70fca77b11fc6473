// Shared by the all-to-all algorithms (documents 000 and 001): the data
// D(O->T), where it starts and where it must end, and the bisection bound.
//
// Memory of an all-to-all endpoint holds N areas of M words (M =
// message_flits); area L of a region starts at region_base + L*M. Before the
// collective, area T of node O's send region holds D(O->T); after it, area O
// of node T's result region holds D(O->T).
#pragma once

#include <cstdint>
#include <vector>

#include "collectives/algorithm.hpp"
#include "collectives/params.hpp"
#include "collectives/schedule.hpp"
#include "topology/grid.hpp"

namespace collnet::collectives {

/// Initial word at `address` of node `origin` when its areas start at
/// `send_base` (words outside the N areas are 0).
Word a2a_initial_word(EndpointId origin, std::uint32_t address, std::uint32_t send_base, std::int32_t nodes,
                      std::uint32_t message_words);

/// The single region node `target` must hold: area O = D(O->target) for every O.
std::vector<Region> a2a_expected(EndpointId target, std::uint32_t result_base, std::int32_t nodes,
                                 std::uint32_t message_words);

/// Bisection lower bound of an all-to-all on a mesh or torus in messages
/// (one message per ordered pair): max over dimensions d of
/// floor(n_d/2)*ceil(n_d/2)*(N/n_d), halved on a torus (the cut crosses the
/// wrap links too). 2-D with Nx >= Ny: Nx-dimension term = spec a2a-optimal.
/// Returned in flit times for messages of `message_words` words (rounded up).
std::int64_t a2a_bisection_bound(const topology::Grid& grid, std::uint32_t message_words);

/// The grid a mesh/torus algorithm runs on, or a ConfigError naming
/// `algorithm` and the accepted topologies.
const topology::Grid& require_grid(const topology::Topology& topology, const std::string& algorithm,
                                   int min_dims = 1, int max_dims = 4);

/// The `message_flits` key (words per message), checked against the
/// descriptor address width for `areas_per_node` areas.
std::uint32_t message_words(const Params& params, std::uint64_t areas_per_node);

/// An all-to-all endpoint: a send area and a receive area of N messages
/// (2 N M words, a2a_grouped.hpp), N - 1 SENDs. Reads `message_flits`
/// without the address-width check, so that a scenario too big for the
/// machine is refused for its size.
Footprint a2a_footprint(const topology::Topology& topology, const Params& params);

/// A registry entry of an all-to-all: its name, document, description and
/// topologies, and the all-to-all footprint.
Algorithm a2a_algorithm(std::string name, std::string document, std::string description, std::string topologies);

}  // namespace collnet::collectives
