// Cross-validation of the fat tree and the dragonfly against BookSim2:
// examples/booksim-fattree-k4n3.yaml and examples/booksim-dragonfly-p2.yaml
// restate BookSim2's configuration; the figures below are BookSim2's own
// (shared/validation/booksim2.md, "Fat tree" and "Dragonfly", BookSim2 at
// commit 28f43299). Latency is the average packet latency in cycles, source
// queue included; saturation is the accepted rate at an offered load of 1.0,
// flits/node/cycle.
//
// Both examples attach their endpoints as BookSim2's terminals are attached
// (endpoint_attach: direct, straight into the router's terminal port), so
// the latency the example prints is compared with BookSim2's as it is.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "booksim_points.hpp"

namespace collnet::test {
namespace {

using Point = BookSimPoint;

class BookSimFabricLatency : public ::testing::TestWithParam<Point> {};

TEST_P(BookSimFabricLatency, AverageLatencyWithinFivePercent) {
  const Point& p = GetParam();
  const auto j = run_example(p.example, p.offered);
  EXPECT_NEAR(j.at("avg_latency").get<double>(), p.booksim, 0.05 * p.booksim) << p.example << " at " << p.offered;
  // Below saturation the network accepts what is offered.
  EXPECT_NEAR(j.at("accepted_rate").get<double>(), p.offered, 0.02 * p.offered + 0.002);
}

// Every load of the tables below 90 % of the network's saturation (fat tree
// 0.665, dragonfly 0.514); at 0.50 the dragonfly is at 97 % of it, where the
// average is set by a few long queues.
INSTANTIATE_TEST_SUITE_P(Table, BookSimFabricLatency,
                         ::testing::Values(Point{"booksim-fattree-k4n3", 0.05, 27.3},
                                           Point{"booksim-fattree-k4n3", 0.10, 27.8},
                                           Point{"booksim-fattree-k4n3", 0.20, 29.5},
                                           Point{"booksim-fattree-k4n3", 0.30, 31.4},
                                           Point{"booksim-fattree-k4n3", 0.40, 34.8},
                                           Point{"booksim-fattree-k4n3", 0.50, 40.6},
                                           Point{"booksim-dragonfly-p2", 0.05, 123.5},
                                           Point{"booksim-dragonfly-p2", 0.10, 122.3},
                                           Point{"booksim-dragonfly-p2", 0.20, 125.6},
                                           Point{"booksim-dragonfly-p2", 0.30, 130.6},
                                           Point{"booksim-dragonfly-p2", 0.40, 139.4}),
                         [](const ::testing::TestParamInfo<Point>& point) {
                           const std::string& e = point.param.example;
                           return e.substr(8, e.rfind('-') - 8) + "_" +
                                  std::to_string(static_cast<int>(std::lround(point.param.offered * 100)));
                         });

TEST(BookSimFabricSaturation, FatTreeAcceptedRateAtFullLoadWithinFivePercent) {
  const auto j = run_example("booksim-fattree-k4n3", 1.0);
  EXPECT_NEAR(j.at("accepted_rate").get<double>(), 0.665, 0.05 * 0.665);
}

TEST(BookSimFabricSaturation, DragonflyAcceptedRateAtFullLoadWithinFivePercent) {
  const auto j = run_example("booksim-dragonfly-p2", 1.0);
  EXPECT_NEAR(j.at("accepted_rate").get<double>(), 0.514, 0.05 * 0.514);
}

// UGAL on the dragonfly under BookSim2's bad_dragon (collnet's group-shift:
// every packet to a random node of the next group), 3 VCs. BookSim2
// (commit 28f43299): min_dragonflynew saturates at 0.082; ugal_dragonflynew
// takes 163.5 cycles at 0.05 (docs/validation.md, "UGAL on the dragonfly").
// collnet's ugal with BookSim2's decision rule (ugal_rule booksim2: decided
// once at the source router, minimal while its queue <= 2 x the other's + 30)
// is compared at that load; its saturation is not BookSim2's (the page says
// why). ugal-booksim2 adds BookSim2's paths (the intermediate a random router
// of the whole network; 4 VC classes where BookSim2 has 3): with the rule its
// latency at 0.05 and its accepted rate at full load are BookSim2's.
TEST(BookSimFabricUgal, MinUnderGroupShiftSaturatesAsBookSim2s) {
  const auto j = run_example("booksim-dragonfly-p2", 1.0, {"--set", "vcs=3", "--set", "traffic=group-shift"});
  EXPECT_NEAR(j.at("accepted_rate").get<double>(), 0.082, 0.05 * 0.082);
}

TEST(BookSimFabricUgal, BookSim2RuleLatencyUnderGroupShiftAtLowLoadWithinFivePercent) {
  const auto j = run_example("booksim-dragonfly-p2", 0.05,
                             {"--set", "vcs=3", "--set", "traffic=group-shift", "--set", "routing=ugal", "--set",
                              "ugal_rule=booksim2", "--set", "ugal_threshold=30"});
  EXPECT_NEAR(j.at("avg_latency").get<double>(), 163.5, 0.05 * 163.5);
  EXPECT_NEAR(j.at("accepted_rate").get<double>(), 0.05, 0.02 * 0.05 + 0.002);
}

TEST(BookSimFabricUgal, BookSim2PathsLatencyAtLowLoadAndSaturationAsBookSim2s) {
  const std::vector<std::string> keys = {"--set", "vcs=4", "--set", "traffic=group-shift", "--set",
                                         "routing=ugal-booksim2", "--set", "ugal_rule=booksim2", "--set",
                                         "ugal_threshold=30"};
  EXPECT_NEAR(run_example("booksim-dragonfly-p2", 0.05, keys).at("avg_latency").get<double>(), 163.5, 0.05 * 163.5);
  // BookSim2 0.150; within 10 % (4 VCs against its 3, the rest of the
  // router as the preset's).
  EXPECT_NEAR(run_example("booksim-dragonfly-p2", 1.0, keys).at("accepted_rate").get<double>(), 0.150, 0.10 * 0.150);
}

}  // namespace
}  // namespace collnet::test
