// egg's math workload on keq's engine: every goal egg proves is proved, math_fail is not, and
// math_associate_adds ends with exactly 127 classes (every nonempty subset of seven constants).
#include "bench/egg_workload.h"

#include <gtest/gtest.h>

namespace keq::bench {
namespace {

const MathRules& rules() {
  static const MathRules r(KEQ_SOURCE_DIR "/bench/math.rules");
  return r;
}

TEST(EggWorkload, RuleFileHasEggsThirtySixRules) {
  EXPECT_EQ(rules().all.size(), 36u);
}

TEST(EggWorkload, GoalsProvedAsEggProvesThem) {
  for (const Workload& w : egg_workloads()) {
    if (w.goal.empty()) continue;
    SCOPED_TRACE(w.name);
    WorkloadResult r = run_workload(w, rules(), rules().select(w.only_rules));
    EXPECT_EQ(r.proved, w.must_prove) << egraph::stop_reason_name(r.report.stop);
    EXPECT_TRUE(r.report.canary.empty()) << r.report.canary;
  }
}

TEST(EggWorkload, AssociateAddsEndsWith127Classes) {
  Workload w = egg_workloads().front();
  ASSERT_EQ(w.name, "math_associate_adds");
  WorkloadResult r = run_workload(w, rules(), rules().select(w.only_rules));
  EXPECT_EQ(r.classes, 127u);
  EXPECT_EQ(r.report.iterations.size(), 7u);
}

TEST(EggWorkload, MathFailSaturatesWithoutProof) {
  for (const Workload& w : egg_workloads()) {
    if (w.name != "math_fail") continue;
    WorkloadResult r = run_workload(w, rules(), rules().select(w.only_rules));
    EXPECT_FALSE(r.proved);
    EXPECT_EQ(r.report.stop, egraph::StopReason::Saturated);
  }
}

TEST(EggWorkload, HeavyRunsStopAtTheirLimits) {
  for (const Workload& w : egg_workloads()) {
    if (!w.goal.empty()) continue;
    if (w.name == "math_associate_adds") continue;
    SCOPED_TRACE(w.name);
    WorkloadResult r = run_workload(w, rules(), rules().select(w.only_rules));
    EXPECT_TRUE(r.report.stop == egraph::StopReason::NodeLimit ||
                r.report.stop == egraph::StopReason::IterationLimit);
  }
}

}  // namespace
}  // namespace keq::bench
