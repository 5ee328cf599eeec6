// Pair dedup: a canonical key of an output pair up to renaming of the input variables.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/node_hash_map.h"
#include "ir/budget.h"
#include "ir/term.h"
#include "verify/witness.h"

namespace keq::verify::internal {

using ir::TermId;

// Two pairs with equal keys are equivalent together or not at all: the key encodes the pair's
// DAG in visit order, variables numbered by first occurrence and tagged with their domain.
//
// Why it is not one walk per pair: the outputs of a softmax row all divide by one sum over the
// row, so walking each pair's whole DAG costs n per output, n^2 per row. Instead, terms that
// several pairs reach ("shared") are walked once per distinct tuple of them: a pair's key is its
// private part (up to the shared terms) plus the canonical id of the tuple of shared terms it
// reaches, with each private variable that occurs in the tuple named by its index there.
// Equal keys still mean isomorphic pairs: equal tuple ids give a renaming of the tuples, and the
// private parts agree under it (fresh private variables are numbered apart from the tuple's).
class PairKeys {
 public:
  // All the pairs, first: which terms more than one pair reaches is decided over all of them.
  PairKeys(const ir::TermStore& s, const Domains& d, const std::vector<Pair>& pairs);
  std::vector<uint64_t> operator()(TermId a, TermId b);
  uint64_t work() const { return work_; }  // steps taken so far, all pairs together

 private:
  // One canonical walk: its records, and its numbering of nodes and variables, kept by term in
  // arrays stamped with the walk's generation (a matmul's 16,384 pairs walk millions of nodes:
  // hash tables were most of the cost).
  struct Walk {
    bool stop_at_shared = false;  // a pair's private part; false: a tuple, walked whole
    TermId root = ~TermId{0};     // a shared term whose own part is walked: not a leaf
    std::vector<uint64_t> key;
    std::vector<TermId> leaves;       // the shared terms reached, in order
    std::vector<uint32_t> var_order;  // the variables numbered, in order
    uint64_t nodes = 0;
    uint32_t generation = 0;
  };
  struct SharedKey {
    uint64_t id;                 // equal ids: equal terms up to renaming of their variables
    std::vector<uint32_t> vars;  // their variables, numbered by first occurrence
    uint64_t vars_id = 0;        // equal ids: equal lists of variables
    absl::flat_hash_map<uint32_t, uint32_t> position;  // var -> index in vars, made when needed
  };
  // A tuple's variables by index. A shared term with many variables (a row's sum) whose
  // variables are all new to the tuple is a segment: its variables keep their order there, at
  // an offset, with no per-pair table. An RMSNorm output reaches its row's sum and its column's
  // weight: the row's 2 x 2048 variables, listed per pair, made dedup O(n * width).
  struct Segment {
    SharedKey* leaf;
    uint64_t offset;
  };
  struct Tuple {
    uint64_t id = 0;
    std::vector<Segment> segments;
    absl::flat_hash_map<uint32_t, uint64_t> vars;  // the others: variable -> index
    uint64_t count = 0;                            // variables numbered
    std::optional<uint64_t> index_of(uint32_t var) const;
    std::vector<uint32_t> order() const;  // the variables by index
  };
  static constexpr size_t kSegmentVars = 16;  // fewer are listed: a table costs more than a list
  enum LeafMode : uint64_t { kListed, kFresh, kSameAs };
  const absl::flat_hash_map<uint32_t, uint32_t>& positions(SharedKey& k);
  bool disjoint(SharedKey& a, SharedKey& b);
  bool fresh_in(const Tuple& t, SharedKey& k);
  void mark_shared(const std::vector<Pair>& pairs);
  void start(Walk& w, bool stop, TermId root = ~TermId{0});
  bool seen(const Walk& w, TermId t) const;
  uint64_t number(Walk& w, TermId t);
  const Tuple& tuple(const std::vector<TermId>& leaves);
  void make_tuple(const std::vector<TermId>& leaves, int depth, Tuple& out);
  SharedKey& shared_key(TermId t, int depth);
  void record(Walk& w, TermId t, const Tuple* outer);
  void record_var(Walk& w, uint32_t var, const Domain& d, const Tuple* outer);
  uint64_t walk(Walk& w, TermId root, const Tuple* outer);
  const Domain* domain_of(TermId var);
  void tick() {
    ++work_;
    ir::Budget::tick();
  }

  const ir::TermStore& s_;
  const Domains& d_;
  std::vector<std::optional<const Domain*>> domains_;  // by variable (payload); null: none
  Walk walks_[3];                                      // a pair's two walks, and a tuple's
  std::vector<bool> shared_;                           // by term
  std::vector<uint32_t> seen_in_, node_number_;        // by term: the walk that numbered it, how
  std::vector<uint32_t> var_seen_in_, var_number_;     // by variable (payload)
  uint32_t generation_ = 0;
  uint64_t work_ = 0;
  absl::flat_hash_map<std::vector<uint64_t>, uint64_t> tuple_ids_;
  absl::flat_hash_map<std::vector<uint64_t>, uint64_t> shared_ids_;  // shared_key's ids
  absl::node_hash_map<TermId, SharedKey> shared_keys_;               // stable: tuples point in
  absl::flat_hash_map<std::vector<uint32_t>, uint64_t> var_list_ids_;
  absl::flat_hash_map<std::pair<const SharedKey*, const SharedKey*>, bool> disjoint_memo_;
  std::vector<TermId> last_leaves_;  // consecutive pairs usually reach the same tuple
  Tuple last_tuple_;
};

// The pairs, each class of pairs equal up to renaming once, within `budget` steps of keying:
// past it, the pairs not yet keyed are kept as they are (stopped_at: how many were keyed then,
// else all). A DenseNet block's outputs each reach hundreds of earlier layers' outputs over the
// same variables, and their keys cost 1.4 billion steps (14 s) where checking all 1,440 pairs
// took 8 s; an unmerged pair only costs the later stages time.
std::vector<Pair> distinct_pairs(const ir::TermStore& s, const Domains& d,
                                 const std::vector<Pair>& all, uint64_t budget, size_t& stopped_at,
                                 uint64_t& work);

}  // namespace keq::verify::internal
