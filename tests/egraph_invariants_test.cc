// Congruence closure and hash-cons invariants after rebuild, on random terms and unions,
// checked against a brute-force congruence closure.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <vector>

#include "tests/tiny_lang.h"

namespace keq::test {
namespace {

using egraph::EClassId;
using Graph = egraph::EGraph<TinyLang>;

struct Built {
  std::vector<std::tuple<egraph::OpCode, uint32_t, std::vector<EClassId>>> nodes;  // by id
};

// Naive congruence closure over the ids `add` returned: union the given pairs, then merge
// nodes with equal ops and equivalent children until nothing changes.
std::vector<int> brute_force_classes(const Built& b,
                                     const std::vector<std::pair<EClassId, EClassId>>& unions,
                                     size_t n) {
  std::vector<int> cls(n);
  for (size_t k = 0; k < n; ++k) cls[k] = static_cast<int>(k);
  auto relabel = [&](int from, int to) {
    for (int& c : cls)
      if (c == from) c = to;
  };
  for (auto [a, c] : unions)
    if (cls[a] != cls[c]) relabel(cls[a], cls[c]);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < n; ++i)
      for (size_t j = i + 1; j < n; ++j) {
        const auto& [oi, pi, ki] = b.nodes[i];
        const auto& [oj, pj, kj] = b.nodes[j];
        if (cls[i] == cls[j] || oi != oj || pi != pj || ki.size() != kj.size()) continue;
        bool same = true;
        for (size_t c = 0; c < ki.size(); ++c) same = same && cls[ki[c]] == cls[kj[c]];
        if (same) {
          relabel(cls[i], cls[j]);
          changed = true;
        }
      }
  }
  return cls;
}

class RandomUnions : public ::testing::TestWithParam<int> {};

TEST_P(RandomUnions, RebuildRestoresCongruenceAndHashcons) {
  for (bool explain : {false, true}) {
    std::mt19937 rng(GetParam());
    Graph g(TinyLang{}, explain);
    Built b;
    std::vector<EClassId> ids;
    auto pick = [&] { return ids[rng() % ids.size()]; };
    for (int k = 0; k < 6; ++k) ids.push_back(g.add(kLeaf, k, {}));
    for (int k = 0; k < 60; ++k) {
      EClassId id = rng() % 2 ? g.add(kG, 0, {pick()}) : g.add(kF, 0, {pick(), pick()});
      ids.push_back(id);
    }
    // Record what each id stands for, as added (its node, children as given).
    size_t n = g.num_ids();
    b.nodes.resize(n);
    for (EClassId id = 0; id < n; ++id) {
      egraph::ENode e = explain ? g.original(id) : g.view(id);
      b.nodes[id] = {e.op, e.payload, {e.children.begin(), e.children.end()}};
    }
    std::vector<std::pair<EClassId, EClassId>> unions;
    for (int k = 0; k < 12; ++k) {
      EClassId a = pick(), c = pick();
      unions.push_back({a, c});
      g.union_classes(a, c, {});
    }
    g.rebuild();
    if (explain) {  // explanation ids without own nodes stand for their original node
      for (EClassId id = 0; id < n; ++id) {
        egraph::ENode e = g.original(id);
        b.nodes[id] = {e.op, e.payload, {e.children.begin(), e.children.end()}};
      }
    }
    // 1. Same partition as the brute-force closure (over ids present before the unions).
    std::vector<int> expect = brute_force_classes(b, unions, n);
    for (EClassId i = 0; i < n; ++i)
      for (EClassId j = i + 1; j < n; ++j)
        ASSERT_EQ(expect[i] == expect[j], g.find(i) == g.find(j)) << "ids " << i << ", " << j;
    // 2. Every live node is canonical, unique, and found by lookup in its own class.
    std::set<std::tuple<egraph::OpCode, uint32_t, std::vector<EClassId>>> seen;
    size_t live = 0;
    for (EClassId id = 0; id < g.num_ids(); ++id) {
      if (!g.is_live(id)) continue;
      ++live;
      egraph::ENode e = g.view(id);
      std::vector<EClassId> kids(e.children.begin(), e.children.end());
      for (EClassId c : kids) ASSERT_EQ(c, g.find(c)) << "non-canonical child";
      ASSERT_TRUE(seen.insert({e.op, e.payload, kids}).second) << "duplicate live node";
      auto hit = g.lookup(e.op, e.payload, kids);
      ASSERT_TRUE(hit.has_value());
      ASSERT_EQ(*hit, g.find(id));
    }
    EXPECT_EQ(live, g.memo_size());
    // 3. Class count agrees with the roots that hold nodes.
    size_t roots = 0;
    g.for_each_class([&](EClassId) { ++roots; });
    EXPECT_EQ(roots, g.num_classes());
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomUnions, ::testing::Range(1, 41));

TEST(EGraph, AddIsHashConsed) {
  Graph g(TinyLang{});
  EClassId a = g.add(kLeaf, 0, {}), b = g.add(kLeaf, 1, {});
  EXPECT_EQ(g.add(kF, 0, {a, b}), g.add(kF, 0, {a, b}));
  EXPECT_NE(g.add(kF, 0, {a, b}), g.add(kF, 0, {b, a}));
  EXPECT_EQ(g.num_classes(), 4u);
}

TEST(EGraph, UnionPropagatesCongruenceUpward) {
  Graph g(TinyLang{});
  EClassId a = g.add(kLeaf, 0, {}), b = g.add(kLeaf, 1, {});
  EClassId ga = g.add(kG, 0, {a}), gb = g.add(kG, 0, {b});
  EClassId gga = g.add(kG, 0, {ga}), ggb = g.add(kG, 0, {gb});
  EXPECT_NE(g.find(gga), g.find(ggb));
  g.union_classes(a, b, {});
  g.rebuild();
  EXPECT_EQ(g.find(ga), g.find(gb));
  EXPECT_EQ(g.find(gga), g.find(ggb));
  EXPECT_EQ(g.num_classes(), 3u);
}

}  // namespace
}  // namespace keq::test
