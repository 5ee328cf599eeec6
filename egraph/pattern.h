// Patterns and e-matching.
//
// A pattern is a term with variables (`?a`), stored flat with children before parents. Matching
// is a backtracking search: candidates for the root come from the per-op node index, and each
// child pattern is matched against the nodes of the child's class. A variable seen twice (a
// non-linear pattern such as `(- ?a ?a)`) must bind the same class both times. Leaf patterns
// (constants, symbols) are looked up in the hash-cons instead of scanned.
#pragma once

#include <absl/container/inlined_vector.h>

#include <string>
#include <vector>

#include "egraph/egraph_core.h"

namespace keq::egraph {

struct Pattern {
  struct Node {
    bool is_var;
    uint32_t var;  // for variables
    OpCode op;
    uint32_t payload;
    std::vector<uint32_t> children;  // indices into nodes
  };
  std::vector<Node> nodes;  // children before parents; the root is last
  std::vector<std::string> var_names;

  uint32_t var(const std::string& name) {
    uint32_t v = 0;
    while (v < var_names.size() && var_names[v] != name) ++v;
    if (v == var_names.size()) var_names.push_back(name);
    nodes.push_back(Node{true, v, 0, 0, {}});
    return static_cast<uint32_t>(nodes.size() - 1);
  }
  uint32_t node(OpCode op, uint32_t payload, std::vector<uint32_t> kids = {}) {
    nodes.push_back(Node{false, 0, op, payload, std::move(kids)});
    return static_cast<uint32_t>(nodes.size() - 1);
  }
  uint32_t root() const { return static_cast<uint32_t>(nodes.size() - 1); }
  uint32_t num_vars() const { return static_cast<uint32_t>(var_names.size()); }
  std::optional<uint32_t> var_index(const std::string& name) const {
    for (uint32_t v = 0; v < var_names.size(); ++v)
      if (var_names[v] == name) return v;
    return std::nullopt;
  }
};

// The matches of one pattern: for each, the root class and a substitution (num_vars classes).
struct Matches {
  uint32_t num_vars = 0;
  std::vector<EClassId> roots;
  std::vector<EClassId> substs;  // flat, num_vars per match
  // With a search that marks them (Matcher::search_into): 1 for a match that uses a node
  // changed since the epoch searched, 0 for one that search found already. Empty: all are new.
  std::vector<uint8_t> fresh;
  size_t size() const { return roots.size(); }
  bool is_fresh(size_t k) const { return fresh.empty() || fresh[k]; }
  std::span<const EClassId> subst(size_t k) const {
    return {substs.data() + k * num_vars, num_vars};
  }
};

template <class L>
class Matcher {
 public:
  Matcher(const EGraph<L>& g, const Pattern& p) : g_(g), p_(&p), subst_(p.num_vars(), kNoClass) {}
  // A matcher for any pattern (search_into names it): a runner keeps one for all its rules, so
  // the scratch buffers are allocated once per run, not once per rule (a light workload's run
  // was a fifth malloc and free).
  explicit Matcher(const EGraph<L>& g) : g_(g), p_(nullptr) {}

  // Every match, stopping once more than `limit` are found.
  Matches search(size_t limit = SIZE_MAX) {
    Matches out;
    search_into(out, limit);
    return out;
  }
  // The same into `out`, whose buffers are reused: a runner searches every rule every iteration,
  // and a light workload's searches were mostly allocation (perf). The matcher may be kept
  // across searches of one graph.
  // With `since` (an epoch, EGraph::begin_epoch), only the matches that use a node stamped at
  // or after it: a search at that epoch found the others (semi-naive e-matching). With
  // `Since::Mark`, every match, each marked in `out.fresh` by whether it uses such a node (a
  // scheduler that counts every match, and applies only the new ones).
  enum class Since { Only, Mark };
  void search_into(const Pattern& p, Matches& out, size_t limit = SIZE_MAX, uint16_t since = 0,
                   Since how = Since::Only) {
    p_ = &p;
    subst_.assign(p.num_vars(), kNoClass);
    search_into(out, limit, since, how);
  }
  void search_into(Matches& out, size_t limit = SIZE_MAX, uint16_t since = 0,
                   Since how = Since::Only) {
    since_ = p_->nodes[p_->root()].is_var ? 0 : since;  // a variable root binds no node
    mark_ = since_ && how == Since::Mark;
    last_bound_ = since_ && !mark_ ? last_bound(p_->root()) : kNoPattern;
    out_.num_vars = p_->num_vars();
    out_.roots.swap(out.roots);
    out_.substs.swap(out.substs);
    out_.fresh.swap(out.fresh);
    if (mark_) out_.fresh.resize(out_.roots.size());  // sized with roots, as record_match fills
    found_ = ids_ = 0;    // out_'s buffers are sized ahead; these count what is filled
    leaf_cache_.clear();  // classes merged since the last search
    limit_ = limit;
    search_all();
    out_.roots.resize(found_);
    out_.substs.resize(ids_);
    out_.fresh.resize(mark_ ? found_ : 0);
    out.num_vars = out_.num_vars;
    out.roots.swap(out_.roots);
    out.substs.swap(out_.substs);
    out.fresh.swap(out_.fresh);
  }

 private:
  void search_all() {
    const Pattern::Node& root = p_->nodes[p_->root()];
    if (root.is_var) {
      g_.for_each_class([&](EClassId c) {
        if (found_ <= limit_) match_from(p_->root(), c);
      });
      return;
    }
    for (EClassId n : g_.nodes_with_op(root.op)) {
      if (found_ > limit_) break;
      if (!g_.is_live(n) || g_.is_pruned(n)) continue;
      const bool fresh = is_fresh(n);
      if (!fresh && must_be_fresh(p_->root())) continue;
      ENode e = g_.view(n);
      if (e.payload != root.payload || e.children.size() != root.children.size()) continue;
      if (!children_may_match(root, e)) continue;
      root_ = g_.find(n);
      for (size_t k = root.children.size(); k-- > 0;)
        goals_.push_back({root.children[k], g_.find(e.children[k])});
      fresh_bound_ = fresh;
      solve();
      fresh_bound_ = 0;
      goals_.clear();
    }
  }

  // A semi-naive search wants a node stamped at or after `since_` among a match's nodes; the
  // last pattern node bound (preorder, variables bind classes) takes only such nodes when none
  // is bound yet.
  bool is_fresh(EClassId n) const { return since_ != 0 && g_.stamp(n) >= since_; }
  uint32_t last_bound(uint32_t pat) const {
    const Pattern::Node& pn = p_->nodes[pat];
    if (pn.is_var) return kNoPattern;
    for (size_t k = pn.children.size(); k-- > 0;)
      if (uint32_t last = last_bound(pn.children[k]); last != kNoPattern) return last;
    return pat;
  }
  bool must_be_fresh(uint32_t pat) const { return pat == last_bound_ && fresh_bound_ == 0; }

  struct Goal {
    uint32_t pat;
    EClassId cls;
  };

  void match_from(uint32_t pat, EClassId c) {
    root_ = c;
    goals_.push_back({pat, c});
    solve();
    goals_.clear();
  }

  void solve() {
    if (found_ > limit_) return;
    if (goals_.empty()) {
      record_match();
      return;
    }
    Goal goal = goals_.back();
    goals_.pop_back();
    const Pattern::Node& pn = p_->nodes[goal.pat];
    if (pn.is_var) {
      EClassId& slot = subst_[pn.var];
      if (slot == kNoClass) {
        slot = goal.cls;
        solve();
        slot = kNoClass;
      } else if (g_.find(slot) == goal.cls) {
        solve();
      }
    } else if (pn.children.empty()) {
      // A leaf binds the node it names: merged into an older class, that node is what changed.
      if (leaf_class(goal.pat) == goal.cls) {
        if (!since_) {
          solve();
        } else {
          const bool fresh = is_fresh(leaf_node(goal.pat));
          if (fresh || !must_be_fresh(goal.pat)) {
            fresh_bound_ += fresh;
            solve();
            fresh_bound_ -= fresh;
          }
        }
      }
    } else {
      const bool only_fresh = must_be_fresh(goal.pat);
      for (EClassId n : candidates(pn, goal.cls)) {
        bool fresh = false;
        if (since_) {  // (a full search reads no stamp)
          fresh = is_fresh(n);
          if (only_fresh && !fresh) continue;
        }
        ENode e = g_.view(n);
        if (e.payload != pn.payload || e.children.size() != pn.children.size()) continue;
        if (!children_may_match(pn, e)) continue;
        size_t mark = goals_.size();
        for (size_t k = pn.children.size(); k-- > 0;)
          goals_.push_back({pn.children[k], g_.find(e.children[k])});
        if (fresh) ++fresh_bound_;
        solve();
        if (fresh) --fresh_bound_;
        goals_.erase(goals_.begin() + static_cast<ptrdiff_t>(mark), goals_.end());
      }
    }
    goals_.push_back(goal);
  }

  // Appends the match found. The buffers grow in a cold path and the ids are copied one by one:
  // push_back, resize and copy_n were each an out-of-line call per match, a twentieth of an
  // associativity-heavy search (perf); a substitution is a few ids.
  void record_match() {
    size_t n = subst_.size();
    if (found_ == out_.roots.size() || ids_ + n > out_.substs.size()) grow_matches(n);
    if (mark_) out_.fresh[found_] = fresh_bound_ != 0;
    out_.roots[found_++] = root_;
    EClassId* to = out_.substs.data() + ids_;
    for (size_t k = 0; k < n; ++k) to[k] = subst_[k];
    ids_ += n;
  }
  [[gnu::noinline]] void grow_matches(size_t n) {
    out_.roots.resize(2 * found_ + 16);
    out_.substs.resize(2 * ids_ + 16 * n);
    if (mark_) out_.fresh.resize(out_.roots.size());
  }

  // The nodes of class c that may match pn: by op, and by first child when pn's first child is
  // known already (a bound variable or a leaf).
  std::span<const EClassId> candidates(const Pattern::Node& pn, EClassId c) {
    const Pattern::Node& first = p_->nodes[pn.children[0]];
    EClassId known = kNoClass;
    if (first.is_var)
      known = subst_[first.var];
    else if (first.children.empty() && (known = leaf_class(pn.children[0])) == kNoClass)
      return {};  // the leaf is nowhere in the graph
    if (known == kNoClass) return g_.class_nodes_with_op(c, pn.op);
    return g_.class_nodes_with_op(c, pn.op, g_.find(known));
  }

  // False when a child of candidate e contradicts a variable bound already or a leaf pattern.
  // Checked before descending: a non-linear pattern such as `(+ (* ?a ?b) (* ?a ?c))` otherwise
  // pays a full descent for every pair of candidates, and nearly every pair disagrees on ?a.
  bool children_may_match(const Pattern::Node& pn, const ENode& e) {
    for (size_t k = 0; k < pn.children.size(); ++k) {
      const Pattern::Node& c = p_->nodes[pn.children[k]];
      if (c.is_var) {
        EClassId bound = subst_[c.var];
        if (bound != kNoClass && g_.find(bound) != g_.find(e.children[k])) return false;
      } else if (c.children.empty()) {
        if (leaf_class(pn.children[k]) != g_.find(e.children[k])) return false;
      } else if (!g_.class_may_have_op(g_.find(e.children[k]), c.op)) {
        return false;
      }
    }
    return true;
  }

  // The class of a leaf pattern (a constant or symbol), looked up once per search.
  EClassId leaf_class(uint32_t pat) {
    if (leaf_cache_.empty()) leaf_cache_.assign(2 * p_->nodes.size(), kUnknown);
    EClassId& c = leaf_cache_[2 * pat];
    if (c == kUnknown) {
      auto hit = g_.lookup_node(p_->nodes[pat].op, p_->nodes[pat].payload, {});
      c = hit ? g_.find(*hit) : kNoClass;
      leaf_cache_[2 * pat + 1] = hit ? *hit : kNoClass;
    }
    return c;
  }
  EClassId leaf_node(uint32_t pat) {  // after leaf_class found it
    return leaf_cache_[2 * pat + 1];
  }
  static constexpr EClassId kUnknown = kNoClass - 1;
  static constexpr uint32_t kNoPattern = UINT32_MAX;

  const EGraph<L>& g_;
  const Pattern* p_;
  std::vector<EClassId> leaf_cache_;
  std::vector<EClassId> subst_;
  std::vector<Goal> goals_;
  EClassId root_ = kNoClass;
  Matches out_;
  size_t found_ = 0, ids_ = 0;  // matches and substitution ids in out_ so far
  size_t limit_ = SIZE_MAX;
  uint16_t since_ = 0;                // 0: every match
  bool mark_ = false;                 // every match, marked fresh or not (Since::Mark)
  uint32_t last_bound_ = kNoPattern;  // the pattern node bound last
  uint32_t fresh_bound_ = 0;          // nodes at or after since_ among those bound
};

// Adds the pattern's term under a substitution; returns its id. Runs once per applied match, so
// it keeps its scratch space inline (patterns are small) rather than on the heap.
template <class L>
EClassId instantiate(EGraph<L>& g, const Pattern& p, std::span<const EClassId> subst) {
  absl::InlinedVector<EClassId, 16> ids(p.nodes.size());
  absl::InlinedVector<EClassId, 4> kids;
  for (size_t k = 0; k < p.nodes.size(); ++k) {
    const Pattern::Node& n = p.nodes[k];
    if (n.is_var) {
      ids[k] = subst[n.var];
      continue;
    }
    kids.clear();
    for (uint32_t c : n.children) kids.push_back(ids[c]);
    ids[k] = g.add(n.op, n.payload, std::span<const EClassId>(kids.data(), kids.size()));
  }
  return ids.back();
}

}  // namespace keq::egraph
