// Cross-validation of adaptive routing against BookSim2 on the 8x8 torus with
// transpose traffic (shared/validation/booksim2.md, "Adaptive routing on a
// torus"): dim_order is examples/booksim-iq-torus-8x8.yaml with transpose
// traffic and BookSim2's self packets, min_adapt is
// examples/booksim-torus-8x8-adaptive.yaml. Latency (cycles, source queue
// included) at the loads below saturation of the table, and the accepted
// rate at an offered load of 1.0, within 5 % of BookSim2's: dim_order at
// every point. min_adapt is not yet within 5 % (docs/validation.md: the
// mechanism that differs is not found yet); its points check that it
// stays stable below saturation and accepts more than BookSim2's in saturation.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "booksim_points.hpp"

namespace collnet::test {
namespace {

struct Point {
  std::string routing;  // BookSim2's name
  double offered;       // flits/node/cycle; 1.0: saturation
  double booksim;       // latency (offered < 1) or accepted rate (offered = 1)
};

void PrintTo(const Point& p, std::ostream* os) { *os << p.routing << " at " << p.offered; }

nlohmann::json run_point(const Point& p) {
  const bool adaptive = p.routing == "min_adapt";
  const std::string example = adaptive ? "booksim-torus-8x8-adaptive" : "booksim-iq-torus-8x8";
  if (adaptive) return run_example(example, p.offered);
  return run_example(example, p.offered, {"--set", "traffic=transpose", "--set", "self_packets=inject"});
}

class BookSimAdaptive : public ::testing::TestWithParam<Point> {};

TEST_P(BookSimAdaptive, WithinFivePercentOfBookSim2) {
  const Point& p = GetParam();
  const auto j = run_point(p);
  if (p.routing == "min_adapt") {
    // Not yet within 5 % of BookSim2 (see above): collnet's min-adaptive
    // accepts more than dim_order and stays stable where BookSim2's does.
    if (p.offered >= 1.0) EXPECT_GT(j.at("accepted_rate").get<double>(), p.booksim);
    else EXPECT_NEAR(j.at("accepted_rate").get<double>(), p.offered, 0.02 * p.offered + 0.002);
    return;
  }
  if (p.offered >= 1.0) {
    EXPECT_NEAR(j.at("accepted_rate").get<double>(), p.booksim, 0.05 * p.booksim);
    return;
  }
  EXPECT_NEAR(j.at("avg_latency").get<double>(), p.booksim, 0.05 * p.booksim);
  EXPECT_NEAR(j.at("accepted_rate").get<double>(), p.offered, 0.02 * p.offered + 0.002);  // below saturation
}

INSTANTIATE_TEST_SUITE_P(Table, BookSimAdaptive,
                         ::testing::Values(Point{"dim_order", 0.05, 35.5}, Point{"dim_order", 0.10, 37.4},
                                           Point{"dim_order", 1.0, 0.303}, Point{"min_adapt", 0.05, 35.2},
                                           Point{"min_adapt", 0.10, 36.1}, Point{"min_adapt", 0.20, 47.9},
                                           Point{"min_adapt", 1.0, 0.352}),
                         [](const ::testing::TestParamInfo<Point>& p) {
                           return p.param.routing + "_" +
                                  (p.param.offered >= 1.0 ? std::string("saturation")
                                                          : std::to_string(std::lround(p.param.offered * 100)));
                         });

}  // namespace
}  // namespace collnet::test
