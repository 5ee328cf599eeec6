// The e-graph: hash-consed e-nodes in e-classes, with egg's deferred rebuild.
//
// Storage is arenas: every e-node is a fixed record in one vector and its children a slice of
// another; an e-class's nodes and parents are intrusive lists threaded through arenas, so adding
// a node or merging two classes allocates nothing per node (vectors grow geometrically).
//
// Every id that `add` returns names one e-node, the node that created it, and (through `find`)
// the e-class holding it. With explanations on, an id also keeps the node's original children,
// and every union is an edge of an explanation forest (egg's design), so the chain of rewrites
// between any two equal terms can be recovered.
#pragma once

#include <algorithm>
#include <cassert>
#include <functional>
#include <optional>
#include <queue>
#include <string>
#include <vector>

#include "egraph/language.h"
#include "egraph/unionfind.h"
#include "ir/budget.h"
#include "ir/hashcons.h"

namespace keq::egraph {

// A term outside the e-graph, as a flat list whose children precede their parents (egg's RecExpr).
struct RecExpr {
  struct Node {
    OpCode op;
    uint32_t payload;
    std::vector<uint32_t> children;  // indices into nodes
  };
  std::vector<Node> nodes;  // the root is last
  uint32_t push(OpCode op, uint32_t payload, std::vector<uint32_t> kids = {}) {
    nodes.push_back(Node{op, payload, std::move(kids)});
    return static_cast<uint32_t>(nodes.size() - 1);
  }
};

template <class L>
class EGraph {
 public:
  using Data = typename L::Data;

  explicit EGraph(L lang, bool explanations = false)
      : lang_(std::move(lang)), explain_(explanations), memo_(this), orig_memo_(&orig_) {
    orig_.g = this;
    by_op_.resize(lang_.op_count());
    reserve(kInitialIds);
  }
  EGraph(const EGraph&) = delete;
  EGraph& operator=(const EGraph&) = delete;

  L& lang() { return lang_; }
  const L& lang() const { return lang_; }
  bool explanations_enabled() const { return explain_; }

  // ---- building ----------------------------------------------------------------------------

  EClassId add(OpCode op, uint32_t payload, std::span<const EClassId> children) {
    ir::Budget::tick();  // the run's --timeout and --max-memory reach into saturation too
    // Each table is probed once: the entry for the new id goes in as the lookup misses (a find,
    // then an insert in new_node, hashed and probed every new node twice per table).
    auto next = static_cast<EClassId>(nodes_.size());
    if (explain_) {
      auto [hit, fresh] = orig_memo_.find_or_insert(ENode{op, payload, children}, next);
      if (!fresh) return hit;
    }
    // Element by element: a node has one to three children, and assign's memmove call cost
    // more than the copy (3% of a mid-size workload). The scratch only grows: resizing it to
    // each node's arity was a call per add.
    if (scratch_.size() < children.size()) scratch_.resize(children.size());
    std::span<EClassId> canonical(scratch_.data(), children.size());
    for (size_t k = 0; k < children.size(); ++k) canonical[k] = find(children[k]);
    auto [hit, fresh] = memo_.find_or_insert(ENode{op, payload, canonical}, next);
    if (fresh) return make_class(new_node(op, payload, children, canonical));
    if (!explain_) return find(hit);
    // Explanations keep the term as written: a new id, congruent to the existing node.
    EClassId id = new_node(op, payload, children, std::nullopt);
    uf_.link(id, find(hit));
    forest_union(id, hit, Justification{});
    return id;
  }
  EClassId add(OpCode op, uint32_t payload, std::initializer_list<EClassId> kids) {
    return add(op, payload, std::span<const EClassId>(kids.begin(), kids.size()));
  }
  EClassId add_expr(const RecExpr& e) {
    std::vector<EClassId> ids(e.nodes.size());
    std::vector<EClassId> kids;
    for (size_t k = 0; k < e.nodes.size(); ++k) {
      kids.clear();
      for (uint32_t c : e.nodes[k].children) kids.push_back(ids[c]);
      ids[k] = add(e.nodes[k].op, e.nodes[k].payload, kids);
    }
    return ids.back();
  }
  // The class of a term already in the graph, without adding anything.
  std::optional<EClassId> lookup_expr(const RecExpr& e) const {
    std::vector<EClassId> ids(e.nodes.size());
    std::vector<EClassId> kids;
    for (size_t k = 0; k < e.nodes.size(); ++k) {
      kids.clear();
      for (uint32_t c : e.nodes[k].children) kids.push_back(find(ids[c]));
      auto hit = memo_.find(ENode{e.nodes[k].op, e.nodes[k].payload, kids});
      if (!hit) return std::nullopt;
      ids[k] = find(*hit);
    }
    return ids.back();
  }
  std::optional<EClassId> lookup(OpCode op, uint32_t payload,
                                 std::span<const EClassId> kids) const {
    auto hit = lookup_node(op, payload, kids);
    if (!hit) return std::nullopt;
    return find(*hit);
  }
  // The live node with this content (not its class).
  std::optional<EClassId> lookup_node(OpCode op, uint32_t payload,
                                      std::span<const EClassId> kids) const {
    return memo_.find(ENode{op, payload, kids});
  }

  // ---- epochs: what changed since a search (semi-naive e-matching) -------------------------
  //
  // Every node carries the epoch in which it last changed: made, given new canonical children
  // by a rebuild, or moved into another class by a union. A match all of whose nodes are older
  // than a search was found by that search: nothing it depends on has changed since.
  // Epochs start once a runner asks for them; before, unions do not restamp (a class's nodes
  // are walked for it). The count saturates, which only makes more nodes count as new.
  uint16_t begin_epoch() {
    if (epoch_ < UINT16_MAX) ++epoch_;
    return epoch_;
  }
  uint16_t stamp(EClassId n) const { return nodes_[n].stamp; }

  // Merges the classes of a and b. Returns false when they were already one class.
  bool union_classes(EClassId a, EClassId b, Justification why) {
    EClassId ra = find(a), rb = find(b);
    if (ra == rb) return false;
    snapshot_dirty_ = true;
    if (explain_) forest_union(a, b, why);
    if (classes_[ra].n_parents < classes_[rb].n_parents) std::swap(ra, rb);
    ClassRec& into = classes_[ra];
    ClassRec& from = classes_[rb];
    for (uint32_t p = from.parent_head; p != kNone; p = parent_links_[p].next)
      pending_.push_back(parent_links_[p].node);
    DidMerge did = lang_.merge(*this, ra, into.data, from.data);
    if (did.into_changed) queue_parents(into);
    if (did.from_changed) queue_parents(from);
    uf_.link(rb, ra);
    if (epoch_)
      for (uint32_t n = from.node_head; n != kNone; n = node_next_[n]) nodes_[n].stamp = epoch_;
    splice(into.node_head, into.node_tail, from.node_head, from.node_tail, node_next_);
    splice_parents(into, from);
    into.n_nodes += from.n_nodes;
    into.n_parents += from.n_parents;
    from = ClassRec{};
    --n_classes_;
    lang_.modify(*this, ra);
    return true;
  }

  // Restores the invariants after unions: every live node canonical and unique in the memo
  // (congruence closure), and every class's fact up to date. egg's `rebuild`.
  size_t rebuild() {
    size_t unions = 0;
    while (!pending_.empty() || !analysis_pending_.empty()) {
      while (!pending_.empty()) {
        EClassId n = pending_.back();
        pending_.pop_back();
        if (!nodes_[n].live) continue;
        memo_.erase(n);
        bool changed = false;
        for (EClassId& c : child_span(n)) {
          EClassId f = find(c);
          changed |= f != c;
          c = f;
        }
        stale_entries_ += changed;  // egg would keep the old key in its memo
        if (changed) nodes_[n].stamp = epoch_;
        snapshot_dirty_ = true;
        if (auto other = memo_.insert(n)) {
          nodes_[n].live = false;  // a congruent duplicate: its twin carries on
          ++hidden_since_compaction_;
          unions += union_classes(n, *other, Justification{});
        }
      }
      while (!analysis_pending_.empty()) {
        EClassId n = analysis_pending_.top();
        analysis_pending_.pop();
        analysis_queued_[n] = false;
        if (!nodes_[n].live) continue;
        EClassId cls = find(n);
        Data fresh = lang_.make(*this, n, view(n));
        DidMerge did = lang_.merge(*this, cls, classes_[cls].data, fresh);
        if (did.into_changed) queue_parents(classes_[cls]);
        lang_.modify(*this, cls);
      }
    }
    compact_candidates();
    return unions;
  }

  // Room for n ids without growing: each id appends to seven arrays, and growing them from empty
  // one doubling at a time was a fifth of a small workload's run (malloc and free, perf).
  void reserve(size_t n) {
    uf_.reserve(n);
    nodes_.reserve(n);
    node_next_.reserve(n);
    classes_.reserve(n);
    children_.reserve(2 * n);
    parent_links_.reserve(2 * n);
    memo_.reserve(n);
  }

  // ---- reading -----------------------------------------------------------------------------

  EClassId find(EClassId x) const { return uf_.find(x); }
  const Data& data(EClassId c) const { return classes_[find(c)].data; }
  Data& data_mut(EClassId c) { return classes_[find(c)].data; }
  // The node behind an id, with canonical children (after a rebuild).
  ENode view(EClassId n) const {
    const NodeRec& r = nodes_[n];
    return ENode{r.op, r.payload, {children_.data() + r.child_begin, r.arity}};
  }
  // Hash-cons entries: one per live node.
  size_t memo_size() const { return memo_.size(); }
  // What egg's memo would hold: egg never removes a node's key once rebuild re-keys it, so its
  // `total_size` (which its node limit counts) includes those stale keys.
  size_t egg_total_size() const { return memo_.size() + stale_entries_; }
  size_t num_ids() const { return nodes_.size(); }
  size_t num_classes() const { return n_classes_; }
  size_t num_nodes() const {  // nodes e-matching sees, egg's `total_number_of_nodes`
    size_t n = 0;
    for (EClassId id = 0; id < nodes_.size(); ++id) n += nodes_[id].live && !nodes_[id].pruned;
    return n;
  }
  bool is_live(EClassId n) const { return nodes_[n].live; }
  bool is_pruned(EClassId n) const { return nodes_[n].pruned; }

  // Calls f(node id) for each live node of class c.
  template <class F>
  void for_each_node(EClassId c, F&& f) const {
    for (EClassId n = classes_[find(c)].node_head; n != kNone; n = node_next_[n])
      if (nodes_[n].live) f(n);
  }
  // The live, unpruned nodes of class c with this op, from a snapshot of every class's nodes
  // sorted by op (egg keeps class nodes sorted for the same reason: e-matching finds a child's
  // candidates by binary search in contiguous memory instead of walking a list). The snapshot is
  // rebuilt on first use after any change, so searches between two changes share it.
  std::span<const EClassId> class_nodes_with_op(EClassId c, OpCode op) const {
    return class_nodes_where(c, Entry{op, 0}, Entry{op, kNone});
  }
  // False when class c surely has no live, unpruned node with this op (a one-word filter per
  // class, ops folded modulo 64): e-matching rejects a candidate by its children's ops before
  // descending into them.
  bool class_may_have_op(EClassId c, OpCode op) const {
    if (snapshot_dirty_) build_snapshot();
    return snap_ops_[c] >> (op % 64) & 1;
  }
  // Those whose first child is in class `first` (canonical): a non-linear pattern that has bound
  // its variable already, or a leaf, finds its candidates by binary search, not by a scan.
  std::span<const EClassId> class_nodes_with_op(EClassId c, OpCode op, EClassId first) const {
    return class_nodes_where(c, Entry{op, first}, Entry{op, first});
  }
  // Live, unpruned node ids with this op: the candidates of e-matching.
  const std::vector<EClassId>& nodes_with_op(OpCode op) const { return by_op_[op]; }
  template <class F>
  void for_each_class(F&& f) const {
    for (EClassId id = 0; id < nodes_.size(); ++id)
      if (uf_.is_root(id) && classes_[id].node_head != kNone) f(id);
  }

  // Hides c's non-leaf nodes from e-matching (they stay in the memo). egg's math analysis
  // does this once a class is known to be a constant.
  // Walks only the nodes past the class's pruned prefix: a constant class (0, 1) is pruned again
  // after every union into it, and walking all its nodes each time was 12% of egg's integration
  // workloads (perf). Unions append the merged class's nodes at the tail.
  void prune_non_leaves(EClassId c) {
    ClassRec& cls = classes_[find(c)];
    if (cls.pruned_tail == cls.node_tail) return;
    snapshot_dirty_ = true;
    uint32_t n = cls.pruned_tail == kNone ? cls.node_head : node_next_[cls.pruned_tail];
    for (; n != kNone; n = node_next_[n])
      if (nodes_[n].arity > 0 && !nodes_[n].pruned) {
        nodes_[n].pruned = true;
        ++hidden_since_compaction_;
      }
    cls.pruned_tail = cls.node_tail;
  }

  // ---- explanations ------------------------------------------------------------------------

  // The node as it was added, children as given (explanations only).
  ENode original(EClassId n) const {
    const NodeRec& r = nodes_[n];
    return ENode{r.op, r.payload, {orig_children_.data() + r.child_begin, r.arity}};
  }
  struct ForestEdge {
    EClassId from, to;
    Justification why;
    bool forward;  // the justification's rewrite went from `from` to `to`
  };
  // The edges of the explanation forest from a to b (same class, explanations on).
  std::vector<ForestEdge> forest_path(EClassId a, EClassId b) const {
    std::vector<ForestEdge> up, down;
    auto depth = [&](EClassId x) {
      int d = 0;
      for (; forest_[x].parent != x; x = forest_[x].parent) ++d;
      return d;
    };
    int da = depth(a), db = depth(b);
    auto step = [&](EClassId x) {
      const ForestLink& l = forest_[x];
      return ForestEdge{x, l.parent, l.why, l.forward};
    };
    while (da > db) up.push_back(step(a)), a = forest_[a].parent, --da;
    while (db > da) down.push_back(step(b)), b = forest_[b].parent, --db;
    while (a != b) {
      up.push_back(step(a)), a = forest_[a].parent;
      down.push_back(step(b)), b = forest_[b].parent;
    }
    for (auto it = down.rbegin(); it != down.rend(); ++it)
      up.push_back(ForestEdge{it->to, it->from, it->why, !it->forward});
    return up;
  }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  static constexpr size_t kInitialIds = 64;
  struct NodeRec {
    OpCode op;
    uint32_t payload;
    uint32_t child_begin;
    uint32_t arity;
    uint16_t stamp;  // the epoch of its last change (begin_epoch)
    bool live;       // in the memo: the canonical representative of its content
    bool pruned;     // hidden from e-matching
  };
  struct ClassRec {
    uint32_t node_head = kNone, node_tail = kNone, n_nodes = 0;
    uint32_t pruned_tail = kNone;  // the nodes up to it are pruned (prune_non_leaves)
    uint32_t parent_head = kNone, parent_tail = kNone, n_parents = 0;
    Data data{};
  };
  struct ParentLink {
    EClassId node;
    uint32_t next;
  };
  struct ForestLink {
    EClassId parent;
    Justification why;
    bool forward;
  };
  struct OrigOwner {  // the memo of terms as written, for explanations
    const EGraph* g;
    ENode view(uint32_t id) const { return g->original(id); }
  };
  friend struct OrigOwner;

  std::span<EClassId> child_span(EClassId n) {
    return {children_.data() + nodes_[n].child_begin, nodes_[n].arity};
  }

  // The analysis of a new node's class.
  EClassId make_class(EClassId id) {
    classes_[id].data = lang_.make(*this, id, view(id));
    lang_.modify(*this, id);
    return id;
  }
  // A live node has its canonical children given too; a node without them is a duplicate kept
  // for explanations. The new id's memo entries (orig_memo_'s, and memo_'s for a live node) are
  // in already: add made them as its lookups missed.
  EClassId new_node(OpCode op, uint32_t payload, std::span<const EClassId> given,
                    std::optional<std::span<const EClassId>> canonical) {
    const bool live = canonical.has_value();
    snapshot_dirty_ = true;
    EClassId id = uf_.make_set();
    assert(id == nodes_.size());  // add's memo entry named the id before it existed
    // Four times the room when full: doubling copied the arrays and faulted fresh pages in at
    // every step, 8% of the integration workloads (perf); their graphs grow past 10,000 ids.
    if (nodes_.size() == nodes_.capacity()) reserve(nodes_.size() * 4);
    uint32_t begin = static_cast<uint32_t>(children_.size());
    nodes_.push_back(
        NodeRec{op, payload, begin, static_cast<uint32_t>(given.size()), epoch_, live, false});
    node_next_.push_back(kNone);
    classes_.emplace_back();
    if (explain_) {
      orig_children_.insert(orig_children_.end(), given.begin(), given.end());
      forest_.push_back(ForestLink{id, Justification{}, true});
    }
    if (!live) {  // a duplicate id for explanations: content as given, no class of its own
      children_.insert(children_.end(), given.begin(), given.end());
      return id;
    }
    for (EClassId child : *canonical) children_.push_back(child);
    ClassRec& c = classes_[id];
    c.node_head = c.node_tail = id;
    c.n_nodes = 1;
    ++n_classes_;
    for (EClassId child : *canonical) {
      ClassRec& cc = classes_[child];
      uint32_t link = static_cast<uint32_t>(parent_links_.size());
      parent_links_.push_back(ParentLink{id, kNone});
      if (cc.parent_tail == kNone)
        cc.parent_head = link;
      else
        parent_links_[cc.parent_tail].next = link;
      cc.parent_tail = link;
      ++cc.n_parents;
    }
    by_op_[op].push_back(id);
    return id;
  }

  // Drops dead and pruned nodes from the per-op candidate lists once they are an eighth of them:
  // every search of a rule walks its root op's list, and in the integration workloads merges
  // and constant pruning leave many such entries that each search skipped one by one.
  void compact_candidates() {
    if (hidden_since_compaction_ * 8 < nodes_.size()) return;
    for (std::vector<EClassId>& ids : by_op_)
      std::erase_if(ids, [&](EClassId id) { return !nodes_[id].live || nodes_[id].pruned; });
    hidden_since_compaction_ = 0;
  }

  // Parents whose facts must be re-made, each queued once and taken lowest id first: a node is
  // made after its children, so a sum whose n operands all changed is re-made once, not n
  // times (its normal form is replaced a bounded number of times: rules/keq_language.h).
  void queue_parents(const ClassRec& c) {
    for (uint32_t p = c.parent_head; p != kNone; p = parent_links_[p].next) {
      EClassId n = parent_links_[p].node;
      if (n >= analysis_queued_.size()) analysis_queued_.resize(nodes_.size(), false);
      if (analysis_queued_[n]) continue;
      analysis_queued_[n] = true;
      analysis_pending_.push(n);
    }
  }
  static void splice(uint32_t& head, uint32_t& tail, uint32_t from_head, uint32_t from_tail,
                     std::vector<uint32_t>& next) {
    if (from_head == kNone) return;
    if (head == kNone)
      head = from_head;
    else
      next[tail] = from_head;
    tail = from_tail;
  }
  void splice_parents(ClassRec& into, const ClassRec& from) {
    if (from.parent_head == kNone) return;
    if (into.parent_head == kNone)
      into.parent_head = from.parent_head;
    else
      parent_links_[into.parent_tail].next = from.parent_head;
    into.parent_tail = from.parent_tail;
  }

  struct Entry {  // a snapshot key: op, then the first child's class (kNone for a leaf)
    OpCode op;
    EClassId first;
    bool operator<(const Entry& o) const { return op != o.op ? op < o.op : first < o.first; }
  };
  // The nodes of class c whose key lies in [lo, hi].
  std::span<const EClassId> class_nodes_where(EClassId c, Entry lo, Entry hi) const {
    if (snapshot_dirty_) build_snapshot();
    const Entry* b = snap_entries_.data() + snap_begin_[c];
    const Entry* e = snap_entries_.data() + snap_begin_[c + 1];
    const Entry* from = std::lower_bound(b, e, lo);
    const Entry* to = from;
    while (to != e && !(hi < *to)) ++to;
    return {snap_nodes_.data() + (from - snap_entries_.data()), static_cast<size_t>(to - from)};
  }
  // Counting sort by class, filled op by op, then each class's slice sorted by key.
  void build_snapshot() const {
    size_t n = nodes_.size();
    snap_begin_.assign(n + 2, 0);
    for (EClassId id = 0; id < n; ++id)
      if (nodes_[id].live && !nodes_[id].pruned) ++snap_begin_[find(id) + 2];
    for (size_t k = 2; k < snap_begin_.size(); ++k) snap_begin_[k] += snap_begin_[k - 1];
    size_t total = snap_begin_.back();
    snap_keyed_.resize(total);
    snap_ops_.assign(n, 0);
    for (OpCode op = 0; op < by_op_.size(); ++op) {
      for (EClassId id : by_op_[op]) {
        if (!nodes_[id].live || nodes_[id].pruned) continue;
        EClassId cls = find(id);
        uint32_t slot = snap_begin_[cls + 1]++;
        snap_ops_[cls] |= uint64_t{1} << (op % 64);
        EClassId first = nodes_[id].arity ? find(children_[nodes_[id].child_begin]) : kNone;
        snap_keyed_[slot] = {Entry{op, first}, id};
      }
    }
    for (size_t c = 0; c < n; ++c) {
      auto b = snap_keyed_.begin() + snap_begin_[c], e = snap_keyed_.begin() + snap_begin_[c + 1];
      if (e - b > 1) std::sort(b, e, [](const Keyed& x, const Keyed& y) { return x.key < y.key; });
    }
    snap_entries_.resize(total);
    snap_nodes_.resize(total);
    for (size_t k = 0; k < total; ++k) {
      snap_entries_[k] = snap_keyed_[k].key;
      snap_nodes_[k] = snap_keyed_[k].node;
    }
    snapshot_dirty_ = false;
  }

  // Adds the edge a - b to the explanation forest: reroot a's tree at a, then hang it under b.
  void forest_union(EClassId a, EClassId b, Justification why) {
    EClassId prev = a;
    ForestLink carried = forest_[a];
    forest_[a].parent = a;
    while (carried.parent != prev) {
      EClassId next = carried.parent;
      ForestLink saved = forest_[next];
      forest_[next] = ForestLink{prev, carried.why, !carried.forward};
      prev = next;
      carried = saved;
    }
    forest_[a] = ForestLink{b, why, true};
  }

  L lang_;
  bool explain_;
  UnionFind uf_;
  std::vector<NodeRec> nodes_;
  std::vector<EClassId> children_;       // canonical after rebuild
  std::vector<EClassId> orig_children_;  // as added (explanations only)
  std::vector<uint32_t> node_next_;      // class node lists
  std::vector<ClassRec> classes_;        // indexed by id; meaningful at roots
  std::vector<ParentLink> parent_links_;
  std::vector<std::vector<EClassId>> by_op_;
  std::vector<ForestLink> forest_;
  std::vector<EClassId> pending_;
  std::priority_queue<EClassId, std::vector<EClassId>, std::greater<EClassId>> analysis_pending_;
  std::vector<bool> analysis_queued_;  // by node id: in analysis_pending_
  std::vector<EClassId> scratch_;
  size_t n_classes_ = 0;
  uint16_t epoch_ = 0;
  size_t stale_entries_ = 0;
  size_t hidden_since_compaction_ = 0;  // nodes made dead or pruned since compact_candidates
  mutable bool snapshot_dirty_ = true;
  mutable std::vector<uint32_t> snap_begin_;  // per id: where its class's slice starts
  struct Keyed {
    Entry key;
    EClassId node;
  };
  mutable std::vector<Keyed> snap_keyed_;   // scratch of build_snapshot
  mutable std::vector<uint64_t> snap_ops_;  // per class: bit op % 64 set for each op it has
  mutable std::vector<Entry> snap_entries_;
  mutable std::vector<EClassId> snap_nodes_;
  ir::HashCons<EGraph> memo_;
  OrigOwner orig_;
  ir::HashCons<OrigOwner> orig_memo_;
};

}  // namespace keq::egraph
