// Cross-validation against BookSim2: examples/booksim-iq-*.yaml
// model BookSim2's input-queued router; the figures below are BookSim2's own,
// measured with the configuration those files restate (source:
// shared/validation/booksim2.md, BookSim2 at commit 28f43299). Latency is the
// average packet latency in cycles, source queue included; saturation is the
// accepted rate at an offered load of 1.0, flits/node/cycle.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "booksim_points.hpp"

namespace collnet::test {
namespace {

using Point = BookSimPoint;

class BookSimLatency : public ::testing::TestWithParam<Point> {};

TEST_P(BookSimLatency, AverageLatencyWithinFivePercent) {
  const Point& p = GetParam();
  const auto j = run_example(p.example, p.offered);
  const double latency = j.at("avg_latency").get<double>();
  EXPECT_NEAR(latency, p.booksim, 0.05 * p.booksim) << p.example << " at " << p.offered;
  // Below saturation the network accepts what is offered.
  EXPECT_NEAR(j.at("accepted_rate").get<double>(), p.offered, 0.02 * p.offered + 0.002);
}

// Every load of the table at which both networks are below 90 % of their
// saturation, on the mesh and the torus. At 0.35 (97 % of the mesh's
// saturation, above the torus's) the average is set by a few long queues and
// moves by tens of percent between seeds of the same simulator (collnet's mesh,
// seeds 1..5: 77 to 141 cycles); there the check below is that the network is
// still stable, as BookSim2's is.
INSTANTIATE_TEST_SUITE_P(Table, BookSimLatency,
                         ::testing::Values(Point{"booksim-iq-mesh-8x8", 0.02, 36.5},
                                           Point{"booksim-iq-mesh-8x8", 0.10, 37.5},
                                           Point{"booksim-iq-mesh-8x8", 0.20, 40.4},
                                           Point{"booksim-iq-mesh-8x8", 0.30, 47.6},
                                           Point{"booksim-iq-torus-8x8", 0.02, 33.8},
                                           Point{"booksim-iq-torus-8x8", 0.10, 36.0},
                                           Point{"booksim-iq-torus-8x8", 0.20, 38.3},
                                           Point{"booksim-iq-torus-8x8", 0.30, 45.0}),
                         [](const ::testing::TestParamInfo<Point>& point) {
                           return point.param.example.substr(11, point.param.example.find("-8x8") - 11) + "_" +
                                  std::to_string(static_cast<int>(std::lround(point.param.offered * 100)));
                         });

// BookSim2's uniform traffic sends one packet in 64 to its own node (it never
// enters the network), collnet's none: BookSim2's network carries 63/64 of the
// offered 0.35. At that load both networks still accept what is offered.
class BookSimNearSaturation : public ::testing::TestWithParam<std::string> {};

TEST_P(BookSimNearSaturation, StableAtTheNetworkLoadOfOffered035) {
  const double network_load = 0.35 * 63.0 / 64.0;
  const auto j = run_example(GetParam(), network_load);
  EXPECT_NEAR(j.at("accepted_rate").get<double>(), network_load, 0.02 * network_load);
}

INSTANTIATE_TEST_SUITE_P(Table, BookSimNearSaturation,
                         ::testing::Values("booksim-iq-mesh-8x8", "booksim-iq-torus-8x8"),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           return p.param.substr(11, p.param.find("-8x8") - 11);
                         });

TEST(BookSimSaturation, MeshAcceptedRateAtFullLoadWithinFivePercent) {
  const auto j = run_example("booksim-iq-mesh-8x8", 1.0);
  EXPECT_NEAR(j.at("accepted_rate").get<double>(), 0.360, 0.05 * 0.360);
}

TEST(BookSimSaturation, TorusAcceptedRateAtFullLoadWithinFivePercent) {
  const auto j = run_example("booksim-iq-torus-8x8", 1.0);
  EXPECT_NEAR(j.at("accepted_rate").get<double>(), 0.324, 0.05 * 0.324);
}

}  // namespace
}  // namespace collnet::test
