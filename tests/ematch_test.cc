// E-matching checked against a brute-force matcher on random small e-graphs, including
// non-linear patterns such as (f ?a ?a).
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <set>
#include <vector>

#include "tests/tiny_lang.h"

namespace keq::test {
namespace {

using egraph::EClassId;
using egraph::Pattern;
using Graph = egraph::EGraph<TinyLang>;
using Match = std::pair<EClassId, std::vector<EClassId>>;

// Does class c represent pattern node p under substitution s?
bool represents(const Graph& g, const Pattern& p, uint32_t node, EClassId c,
                const std::vector<EClassId>& s) {
  const Pattern::Node& pn = p.nodes[node];
  if (pn.is_var) return g.find(s[pn.var]) == g.find(c);
  bool found = false;
  g.for_each_node(c, [&](EClassId n) {
    egraph::ENode e = g.view(n);
    if (found || e.op != pn.op || e.payload != pn.payload ||
        e.children.size() != pn.children.size())
      return;
    bool all = true;
    for (size_t k = 0; k < pn.children.size() && all; ++k)
      all = represents(g, p, pn.children[k], e.children[k], s);
    found = all;
  });
  return found;
}

std::set<Match> brute_force(const Graph& g, const Pattern& p) {
  std::vector<EClassId> classes;
  g.for_each_class([&](EClassId c) { classes.push_back(c); });
  std::set<Match> out;
  std::vector<EClassId> s(p.num_vars());
  std::function<void(size_t)> assign = [&](size_t v) {
    if (v == s.size()) {
      for (EClassId c : classes)
        if (represents(g, p, p.root(), c, s)) out.insert({c, s});
      return;
    }
    for (EClassId c : classes) {
      s[v] = c;
      assign(v + 1);
    }
  };
  assign(0);
  return out;
}

std::vector<Pattern> patterns() {
  std::vector<Pattern> ps;
  Pattern p1;  // (f ?a ?b)
  p1.node(kF, 0, {p1.var("?a"), p1.var("?b")});
  ps.push_back(p1);
  Pattern p2;  // (f ?a ?a): non-linear
  uint32_t a = p2.var("?a");
  p2.node(kF, 0, {a, p2.var("?a")});
  ps.push_back(p2);
  Pattern p3;  // (g (f ?a a0))
  uint32_t x = p3.var("?a");
  uint32_t leaf = p3.node(kLeaf, 0);
  uint32_t f = p3.node(kF, 0, {x, leaf});
  p3.node(kG, 0, {f});
  ps.push_back(p3);
  Pattern p4;  // (f (g ?a) (g ?a))
  uint32_t v = p4.var("?a");
  uint32_t g1 = p4.node(kG, 0, {v});
  uint32_t v2 = p4.var("?a");
  uint32_t g2 = p4.node(kG, 0, {v2});
  p4.node(kF, 0, {g1, g2});
  ps.push_back(p4);
  Pattern p5;  // ?a: every class
  p5.var("?a");
  ps.push_back(p5);
  // Candidates found by first child: a bound variable (egg's factor rule), a leaf, a leaf that is
  // nowhere in the graph; and a child whose op the class filter must admit.
  Pattern p6;  // (f (f ?a ?b) (f ?a ?c))
  uint32_t pa = p6.var("?a");
  uint32_t left = p6.node(kF, 0, {pa, p6.var("?b")});
  uint32_t right = p6.node(kF, 0, {p6.var("?a"), p6.var("?c")});
  p6.node(kF, 0, {left, right});
  ps.push_back(p6);
  Pattern p7;  // (f a0 (g ?x))
  uint32_t l0 = p7.node(kLeaf, 0);
  uint32_t gx = p7.node(kG, 0, {p7.var("?x")});
  p7.node(kF, 0, {l0, gx});
  ps.push_back(p7);
  Pattern p8;  // (f a7 ?x): no leaf a7 is ever added
  uint32_t l7 = p8.node(kLeaf, 7);
  p8.node(kF, 0, {l7, p8.var("?x")});
  ps.push_back(p8);
  return ps;
}

class RandomGraphs : public ::testing::TestWithParam<int> {};

// Random terms over leaves a0..a2, g and f, drawn from a seed: the ids of every node added.
struct RandomTerms {
  std::mt19937 rng;
  std::vector<EClassId> ids;
  RandomTerms(Graph& g, int seed) : rng(seed) {
    for (int k = 0; k < 3; ++k) ids.push_back(g.add(kLeaf, k, {}));
  }
  EClassId pick() { return ids[rng() % ids.size()]; }
  void grow(Graph& g, int n) {
    for (int k = 0; k < n; ++k)
      ids.push_back(rng() % 2 ? g.add(kG, 0, {pick()}) : g.add(kF, 0, {pick(), pick()}));
  }
};

TEST_P(RandomGraphs, MatcherAgreesWithBruteForce) {
  Graph g(TinyLang{});
  RandomTerms t(g, GetParam());
  t.grow(g, 14);
  for (int k = 0; k < 4; ++k) g.union_classes(t.pick(), t.pick(), {});
  g.rebuild();
  std::vector<Pattern> ps = patterns();
  for (size_t pi = 0; pi < ps.size(); ++pi) {
    const Pattern& p = ps[pi];
    egraph::Matches ms = egraph::Matcher<TinyLang>(g, p).search();
    std::set<Match> got;
    for (size_t k = 0; k < ms.size(); ++k) {
      auto s = ms.subst(k);
      got.insert({ms.roots[k], {s.begin(), s.end()}});
    }
    EXPECT_EQ(got, brute_force(g, p)) << "pattern " << pi;
  }
}

// Semi-naive e-matching: after an epoch begins and the graph changes (new nodes, new leaves
// merged into older classes, unions, a rebuild), a search since that epoch finds every match that
// the search at the epoch did not, and only real matches.
std::set<Match> canonical(const Graph& g, const egraph::Matches& ms) {
  std::set<Match> out;
  for (size_t k = 0; k < ms.size(); ++k) {
    std::vector<EClassId> s;
    for (EClassId c : ms.subst(k)) s.push_back(g.find(c));
    out.insert({g.find(ms.roots[k]), s});
  }
  return out;
}

TEST_P(RandomGraphs, SearchSinceAnEpochMissesOnlyMatchesFoundThen) {
  Graph g(TinyLang{});
  RandomTerms t(g, GetParam());
  t.grow(g, 14);
  g.union_classes(t.pick(), t.pick(), {});
  g.rebuild();
  std::vector<Pattern> ps = patterns();
  Pattern late;  // (f ?x a5): a5 appears only after the epoch
  late.node(kF, 0, {late.var("?x"), late.node(kLeaf, 5)});
  ps.push_back(late);
  const uint16_t epoch = g.begin_epoch();
  std::vector<egraph::Matches> before;
  for (const Pattern& p : ps) before.push_back(egraph::Matcher<TinyLang>(g, p).search());
  t.grow(g, 4);
  for (int k = 3; k < 6; ++k) {  // new leaves, merged into classes made before the epoch
    EClassId leaf = g.add(kLeaf, k, {});
    if (t.rng() % 2) g.union_classes(t.ids[3 + t.rng() % 14], leaf, {});
    t.ids.push_back(leaf);
  }
  for (int k = 0; k < 3; ++k) g.union_classes(t.pick(), t.pick(), {});
  g.rebuild();
  for (size_t pi = 0; pi < ps.size(); ++pi) {
    std::set<Match> all = canonical(g, egraph::Matcher<TinyLang>(g, ps[pi]).search());
    std::set<Match> then = canonical(g, before[pi]);
    egraph::Matches since;
    egraph::Matcher<TinyLang>(g).search_into(ps[pi], since, SIZE_MAX, epoch);
    std::set<Match> fresh = canonical(g, since);
    for (const Match& m : fresh) EXPECT_TRUE(all.count(m)) << "pattern " << pi;
    for (const Match& m : all)
      EXPECT_TRUE(fresh.count(m) || then.count(m)) << "pattern " << pi << ": a match missed";
    // Marking (the backoff scheduler's search): every match, and those marked old were found then.
    egraph::Matches marked;
    egraph::Matcher<TinyLang>(g).search_into(ps[pi], marked, SIZE_MAX, epoch,
                                             egraph::Matcher<TinyLang>::Since::Mark);
    EXPECT_EQ(canonical(g, marked), all) << "pattern " << pi;
    for (size_t k = 0; k < marked.size(); ++k) {
      egraph::Matches one;
      one.num_vars = marked.num_vars;
      one.roots.push_back(marked.roots[k]);
      one.substs.assign(marked.subst(k).begin(), marked.subst(k).end());
      Match m = *canonical(g, one).begin();
      if (marked.is_fresh(k))
        EXPECT_TRUE(fresh.count(m)) << "pattern " << pi;
      else
        EXPECT_TRUE(then.count(m)) << "pattern " << pi << ": marked old, not found then";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomGraphs, ::testing::Range(1, 61));

TEST(EMatch, SearchLimitStopsEarly) {
  Graph g(TinyLang{});
  for (int k = 0; k < 10; ++k) g.add(kG, 0, {g.add(kLeaf, k, {})});
  g.rebuild();
  Pattern p;
  p.node(kG, 0, {p.var("?a")});
  EXPECT_EQ(egraph::Matcher<TinyLang>(g, p).search().size(), 10u);
  EXPECT_LE(egraph::Matcher<TinyLang>(g, p).search(3).size(), 4u);
}

// E-matching finds the same matches every iteration; one whose union is done is not applied
// again (Rewrite::apply), so a rule's condition runs once per distinct match. Commutativity on
// (f a0 a1): iteration 1 applies (f a0 a1), iteration 2 finds it again with (f a1 a0) and
// applies only the new one, and the run saturates.
TEST(Runner, AMatchAppliedOnceIsNotInstantiatedAgain) {
  Graph g(TinyLang{});
  EClassId a0 = g.add(kLeaf, 0, {}), a1 = g.add(kLeaf, 1, {});
  EClassId root = g.add(kF, 0, {a0, a1});
  egraph::Rewrite<TinyLang> comm;
  comm.name = "comm";
  comm.lhs.node(kF, 0, {comm.lhs.var("?a"), comm.lhs.var("?b")});
  uint32_t a = comm.rhs.var("?a"), b = comm.rhs.var("?b");  // numbered as on the left
  comm.rhs.node(kF, 0, {b, a});
  int checked = 0;
  comm.conditions.push_back([&](const Graph&, std::span<const EClassId>) { return ++checked > 0; });
  egraph::RunReport rep =
      egraph::Runner<TinyLang>({10, 10000, 5.0}, egraph::SchedulerKind::Simple).run(g, {comm});
  EXPECT_EQ(rep.stop, egraph::StopReason::Saturated);
  EXPECT_EQ(rep.iterations.size(), 2u);
  EXPECT_EQ(checked, 2);  // 3 before: iteration 2 applied (f a0 a1) again
  EXPECT_EQ(g.find(root), g.find(g.add(kF, 0, {a1, a0})));
}

// Both schedulers apply semi-naively (the Simple one searches only for matches using a node
// changed since the rule's last search; the backoff one marks those and applies only them); the
// graph each reaches must be the one full searches reach, iteration by iteration.
egraph::Rewrite<TinyLang> rule(const char* name, std::function<void(Pattern&)> lhs,
                               std::function<void(Pattern&)> rhs) {
  egraph::Rewrite<TinyLang> r;
  r.name = name;
  lhs(r.lhs);
  rhs(r.rhs);
  return r;
}

TEST_P(RandomGraphs, SemiNaiveRunsReachTheGraphFullSearchesReach) {
  std::vector<egraph::Rewrite<TinyLang>> rules;
  rules.push_back(rule(
      "comm",
      [](Pattern& p) {
        p.node(kF, 0, {p.var("?a"), p.var("?b")});
      },
      [](Pattern& p) {
        uint32_t a = p.var("?a"), b = p.var("?b");
        p.node(kF, 0, {b, a});
      }));
  rules.push_back(rule(
      "assoc",
      [](Pattern& p) {
        uint32_t a = p.var("?a");
        p.node(kF, 0, {a, p.node(kF, 0, {p.var("?b"), p.var("?c")})});
      },
      [](Pattern& p) {
        uint32_t a = p.var("?a"), b = p.var("?b"), c = p.var("?c");
        p.node(kF, 0, {p.node(kF, 0, {a, b}), c});
      }));
  rules.push_back(rule(
      "g-g", [](Pattern& p) { p.node(kG, 0, {p.node(kG, 0, {p.var("?a")})}); },
      [](Pattern& p) { p.var("?a"); }));
  rules.push_back(rule(
      "unit",
      [](Pattern& p) {
        p.node(kF, 0, {p.var("?a"), p.node(kLeaf, 0)});
      },
      [](Pattern& p) { p.var("?a"); }));
  auto build = [&](Graph& g) {
    RandomTerms t(g, GetParam());
    t.grow(g, 8);
    return t.ids;
  };
  Graph full(TinyLang{});
  std::vector<EClassId> ids = build(full);
  full.rebuild();
  absl::flat_hash_set<uint64_t> applied;
  for (size_t iters = 1; iters <= 4; ++iters) {
    std::vector<egraph::Matches> ms;  // egg's Simple scheduler: search every rule, then apply
    for (const auto& r : rules) ms.push_back(egraph::Matcher<TinyLang>(full, r.lhs).search());
    for (size_t r = 0; r < rules.size(); ++r) rules[r].apply(full, ms[r], r, &applied);
    full.rebuild();
    for (auto sched : {egraph::SchedulerKind::Simple, egraph::SchedulerKind::Backoff}) {
      Graph semi(TinyLang{});  // a fresh run from the start, one iteration longer each time
      build(semi);
      // (Comparable with backoff too: these graphs stay under its threshold, nothing is banned.)
      egraph::Runner<TinyLang>({iters, 100000, 5.0}, sched).run(semi, rules);
      const char* which = sched == egraph::SchedulerKind::Simple ? "simple" : "backoff";
      ASSERT_EQ(semi.num_classes(), full.num_classes()) << which << ", iteration " << iters;
      ASSERT_EQ(semi.memo_size(), full.memo_size()) << which << ", iteration " << iters;
      for (EClassId a : ids)
        for (EClassId b : ids)
          ASSERT_EQ(semi.find(a) == semi.find(b), full.find(a) == full.find(b)) << which;
    }
  }
}

// A rule the backoff scheduler bans has its matches dropped, not applied: when the ban ends, its
// search must apply every match, the ones its banned search found included (none is marked old).
TEST(Runner, ABannedRuleAppliesEveryMatchOnceTheBanEnds) {
  Graph g(TinyLang{});
  std::vector<EClassId> gs;
  for (uint32_t k = 0; k < 1001; ++k) gs.push_back(g.add(kG, 0, {g.add(kLeaf, k, {})}));
  egraph::Rewrite<TinyLang> widen = rule(
      "widen", [](Pattern& p) { p.node(kG, 0, {p.var("?a")}); },
      [](Pattern& p) {
        uint32_t a = p.var("?a");
        p.node(kF, 0, {a, a});
      });
  // 1,001 matches: over the threshold of 1,000, banned at iteration 0; admitted once it doubles.
  egraph::Runner<TinyLang>({12, 100000, 5.0}, egraph::SchedulerKind::Backoff).run(g, {widen});
  for (uint32_t k = 0; k < 1001; ++k) {
    EClassId leaf = g.add(kLeaf, k, {});
    ASSERT_EQ(g.find(gs[k]), g.find(g.add(kF, 0, {leaf, leaf}))) << "leaf " << k;
  }
}

// A match whose condition is false is not recorded as applied (its key goes in as it is looked up
// and out again): a condition false now may hold in a later iteration, which must apply it.
TEST(Runner, AMatchWhoseConditionFailedIsTriedAgain) {
  Graph g(TinyLang{});
  EClassId a0 = g.add(kLeaf, 0, {}), a1 = g.add(kLeaf, 1, {});
  EClassId root = g.add(kF, 0, {a0, a1});
  EClassId swapped = g.add(kF, 0, {a1, a0});
  egraph::Rewrite<TinyLang> comm;
  comm.name = "comm";
  comm.lhs.node(kF, 0, {comm.lhs.var("?a"), comm.lhs.var("?b")});
  uint32_t a = comm.rhs.var("?a"), b = comm.rhs.var("?b");
  comm.rhs.node(kF, 0, {b, a});
  int calls = 0;  // false for the first three matches it sees, true after
  comm.conditions.push_back([&](const Graph&, std::span<const EClassId>) { return ++calls > 3; });
  egraph::Rewrite<TinyLang> grow;  // keeps the run going: (f ?a ?b) -> (f ?a (f ?a ?b))
  grow.name = "grow";
  uint32_t ga = grow.lhs.var("?a"), gb = grow.lhs.var("?b");
  grow.lhs.node(kF, 0, {ga, gb});
  ga = grow.rhs.var("?a"), gb = grow.rhs.var("?b");
  grow.rhs.node(kF, 0, {ga, grow.rhs.node(kF, 0, {ga, gb})});
  egraph::Runner<TinyLang>({3, 10000, 5.0}, egraph::SchedulerKind::Simple).run(g, {comm, grow});
  EXPECT_GE(calls, 4);
  EXPECT_EQ(g.find(root), g.find(swapped));
}

// prune_non_leaves walks only the nodes past a class's pruned prefix (egg's constant folding
// prunes a class after every union into it). Nodes merged in later are pruned by the next call,
// whichever side of the union kept its list first.
TEST(EGraph, PruningAfterAUnionReachesTheMergedNodes) {
  Graph g(TinyLang{});
  EClassId leaf = g.add(kLeaf, 0, {});
  EClassId f = g.add(kF, 0, {leaf, leaf});
  g.union_classes(f, leaf, {});
  g.prune_non_leaves(leaf);
  EXPECT_TRUE(g.is_pruned(f));
  EXPECT_FALSE(g.is_pruned(leaf));
  // A class with more parents keeps its list first: the merged list is its nodes, then these.
  EClassId busy = g.add(kG, 0, {g.add(kLeaf, 1, {})});
  for (uint32_t k = 2; k < 6; ++k) g.add(kF, 0, {busy, g.add(kLeaf, k, {})});
  g.union_classes(leaf, busy, {});
  g.rebuild();
  g.prune_non_leaves(leaf);
  EXPECT_TRUE(g.is_pruned(busy));
  EXPECT_TRUE(g.is_pruned(f));
}

// Searches walk a rule's root op's node list: nodes pruned or made dead (congruent duplicates
// after a union) leave it at the next rebuild once they are an eighth of the graph, and the
// matches found stay the same.
TEST(EGraph, HiddenNodesLeaveTheCandidateLists) {
  Graph g(TinyLang{});
  std::vector<EClassId> leaves, fs;
  for (uint32_t k = 0; k < 8; ++k) leaves.push_back(g.add(kLeaf, k, {}));
  for (uint32_t k = 0; k < 8; ++k) fs.push_back(g.add(kF, 0, {leaves[k], leaves[0]}));
  egraph::Pattern p;
  p.node(kF, 0, {p.var("?a"), p.var("?b")});
  size_t before = egraph::Matcher<TinyLang>(g, p).search().size();
  EXPECT_EQ(before, 8u);
  // Merging the leaves makes the f nodes congruent: seven become dead duplicates.
  for (uint32_t k = 1; k < 8; ++k) g.union_classes(leaves[0], leaves[k], {});
  g.rebuild();
  EXPECT_EQ(g.nodes_with_op(kF).size(), 1u);
  EXPECT_EQ(egraph::Matcher<TinyLang>(g, p).search().size(), 1u);
  g.prune_non_leaves(fs[0]);
  g.rebuild();
  EXPECT_TRUE(g.nodes_with_op(kF).empty());
  EXPECT_EQ(egraph::Matcher<TinyLang>(g, p).search().size(), 0u);
}

}  // namespace
}  // namespace keq::test
