#include "frontends/python/timing.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

namespace keq::python {

namespace {

// Whether `x op y` holds.
bool holds(const std::string& op, double x, double y) {
  if (op == "<") return x < y;
  if (op == "<=") return x <= y;
  if (op == ">") return x > y;
  if (op == ">=") return x >= y;
  if (op == "==") return x == y;
  return x != y;
}

// The answer every timing t in [0, inf) gives to `t op c` (or `c op t`), if they all agree:
// checked at the ends and just inside them, which is enough for one comparison with a constant.
std::optional<bool> decided(const std::string& op, bool timing_left, double c) {
  const double inf = std::numeric_limits<double>::infinity();
  if (std::isnan(c)) return op == "!=";
  std::vector<double> probes = {0.0, std::nextafter(0.0, 1.0), std::numeric_limits<double>::max()};
  if (std::isfinite(c) && c > 0)
    for (double p : {std::nextafter(c, 0.0), c, std::nextafter(c, inf)}) probes.push_back(p);
  std::optional<bool> answer;
  for (double t : probes) {
    bool v = timing_left ? holds(op, t, c) : holds(op, c, t);
    if (answer && *answer != v) return std::nullopt;
    answer = v;
  }
  return answer;
}

// The same for a value computed from timings (a difference may be negative): only a comparison
// with an infinity or NaN is decided, as for any finite real.
std::optional<bool> decided_finite(const std::string& op, bool value_left, double c) {
  if (std::isnan(c)) return op == "!=";
  if (!std::isinf(c)) return std::nullopt;
  return value_left ? holds(op, 0.0, c) : holds(op, c, 0.0);
}

}  // namespace

std::optional<bool> TimingChoices::compare(const std::string& op, Side a, Side b,
                                           const std::string& where) {
  if (a.timing > 0 && a.timing == b.timing) return holds(op, 0.0, 0.0);  // one timing, itself
  if (a.timing < 0 || b.timing < 0) {                                    // one side a constant
    bool left = a.timing >= 0;
    double c = left ? b.constant : a.constant;
    bool derived = (left ? a.timing : b.timing) == 0;
    if (auto d = derived ? decided_finite(op, left, c) : decided(op, left, c)) return *d;
  }
  size_t k = made_.size();
  if (k >= kMax) return std::nullopt;
  if (a.timing == 0 || b.timing == 0) derived_ = true;
  bool outcome = (choices_ >> k) & 1;
  made_.push_back({a, b, op, outcome, where});
  return outcome;
}

bool TimingChoices::possible() const {
  // Nodes: each timing id, each constant, and 0 (timings are >= 0); rel[i][j]: 0 none, 1 i <= j,
  // 2 i < j. Over the reals such a system has a solution iff no cycle holds a strict edge.
  std::map<std::pair<int, double>, size_t> index;  // (0, id) for a timing, (1, value) a constant
  auto node = [&](const Side& s) {
    auto key = s.timing >= 0 ? std::make_pair(0, static_cast<double>(s.timing))
                             : std::make_pair(1, s.constant);
    return index.emplace(key, index.size()).first->second;
  };
  // A value computed from timings (id 0) has no node: its comparisons constrain nothing here
  // (derived() marks the outcomes unchecked), and two of them are not one value.
  auto checked = [](const Comparison& c) { return c.a.timing != 0 && c.b.timing != 0; };
  const size_t zero = node(Side{-1, 0.0});
  for (const Comparison& c : made_)
    if (checked(c)) node(c.a), node(c.b);
  const size_t n = index.size();
  std::vector<std::vector<int>> rel(n, std::vector<int>(n, 0));
  auto edge = [&](size_t i, size_t j, int strength) { rel[i][j] = std::max(rel[i][j], strength); };
  std::vector<std::pair<size_t, double>> constants;
  for (const auto& [key, i] : index)
    if (key.first == 1)
      constants.push_back({i, key.second});
    else
      edge(zero, i, 1);  // a timing is at least 0
  for (const auto& [i, x] : constants)
    for (const auto& [j, y] : constants)
      if (x < y) edge(i, j, 2);
  std::vector<std::pair<size_t, size_t>> apart;  // pairs an outcome says differ
  for (const Comparison& c : made_) {
    if (!checked(c)) continue;
    size_t i = node(c.a), j = node(c.b);
    std::string op = c.op;
    if (!c.outcome) {  // the negation, over the reals (no NaN: timings are numbers)
      static const std::map<std::string, std::string> negation = {
          {"<", ">="}, {"<=", ">"}, {">", "<="}, {">=", "<"}, {"==", "!="}, {"!=", "=="}};
      op = negation.at(op);
    }
    if (op == "<") edge(i, j, 2);
    if (op == "<=") edge(i, j, 1);
    if (op == ">") edge(j, i, 2);
    if (op == ">=") edge(j, i, 1);
    if (op == "==") edge(i, j, 1), edge(j, i, 1);
    if (op == "!=") apart.push_back({i, j});
  }
  for (size_t k = 0; k < n; ++k)
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j)
        if (rel[i][k] && rel[k][j]) edge(i, j, std::max(rel[i][k], rel[k][j]));
  for (size_t i = 0; i < n; ++i)
    if (rel[i][i] == 2) return false;
  for (const auto& [i, j] : apart)
    if (i == j || (rel[i][j] && rel[j][i])) return false;
  return true;
}

std::string TimingChoices::describe() const {
  std::string s;
  for (const Comparison& c : made_)
    s += (s.empty() ? "" : ", ") + c.where + " " + (c.outcome ? "true" : "false");
  return s;
}

}  // namespace keq::python
