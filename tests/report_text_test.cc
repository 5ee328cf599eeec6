// The text report's counterexample lines: a point's inputs in index order, blocks of one value
// compressed axis by axis, so a wide row of zeros with one 1 reads as a few lines.
#include <gtest/gtest.h>

#include "verify/verify.h"

namespace keq::verify {
namespace {

using Inputs = std::vector<std::pair<std::string, std::string>>;

std::string element(const std::string& t, std::vector<int> idx) {
  std::string s = t + "[";
  for (size_t k = 0; k < idx.size(); ++k) s += (k ? "," : "") + std::to_string(idx[k]);
  return s + "]";
}

TEST(CounterexampleLines, BlocksOfOneValueAreOneLineAxisByAxis) {
  Inputs in;
  for (int c = 0; c < 3; ++c)
    for (int h = 0; h < 4; ++h)
      for (int w = 0; w < 5; ++w)
        in.push_back({element("in0", {0, c, h, w}), c == 2 && h == 3 && w == 4 ? "1" : "0"});
  in.push_back({"p0[0]", "-1"});
  std::vector<std::string> want = {"in0[0, 0..1, 0..3, 0..4] = 0", "in0[0, 2, 0..2, 0..4] = 0",
                                   "in0[0, 2, 3, 0..3] = 0", "in0[0, 2, 3, 4] = 1", "p0[0] = -1"};
  EXPECT_EQ(input_lines(in), want);
}

TEST(CounterexampleLines, OnlyWholeRectanglesMerge) {
  // Rows 0 and 1 hold 0 over different column ranges: they stay two lines each side.
  Inputs in = {{"x[0,0]", "0"}, {"x[0,1]", "0"},  {"x[1,0]", "0"},
               {"x[1,1]", "2"}, {"x[10,0]", "0"}, {"s", "3"}};
  std::vector<std::string> want = {"s = 3", "x[0, 0..1] = 0", "x[1, 0] = 0", "x[1, 1] = 2",
                                   "x[10, 0] = 0"};
  EXPECT_EQ(input_lines(in), want);
}

}  // namespace
}  // namespace keq::verify
