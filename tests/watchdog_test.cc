// keq verify's watchdog (cli/watchdog.h): a run still going past --timeout plus grace is
// stopped with the overrun report and its exit code; a run that finishes in time hears nothing.
#include "cli/watchdog.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

namespace keq::cli {
namespace {

int say_overrun(const char* stage, double over_s) {
  std::fprintf(stderr, "overran in %s by %.1f s\n", stage, over_s);
  return 2;
}

TEST(WatchdogDeathTest, StopsARunStuckPastItsDeadlineNamingTheStage) {
  EXPECT_EXIT(
      {
        Watchdog w(0.05, say_overrun, 0.05);
        w.stage().store("Z3");
        std::this_thread::sleep_for(std::chrono::seconds(30));  // a stage that never polls
      },
      testing::ExitedWithCode(2), "overran in Z3 by 0\\.[0-9] s");
}

TEST(WatchdogDeathTest, IsQuietWhenTheRunFinishesInTime) {
  EXPECT_EXIT(
      {
        {
          Watchdog w(0.05, say_overrun, 0.05);
          auto printing = w.finish();
          std::fprintf(stderr, "report\n");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(300));  // past deadline + grace
        std::exit(0);
      },
      testing::ExitedWithCode(0), "^report\n$");
}

TEST(Watchdog, AnUnboundedTimeoutStartsNoThread) {
  Watchdog w(INFINITY, say_overrun);
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_STREQ(w.stage().load(), "start");
}

TEST(Watchdog, GraceIsAQuarterOfTheTimeoutAndAtLeastFiveSeconds) {
  EXPECT_EQ(Watchdog::grace_s(1), 5);
  EXPECT_EQ(Watchdog::grace_s(60), 15);
}

}  // namespace
}  // namespace keq::cli
