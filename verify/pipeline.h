// The pipeline keq verify runs on one configuration (internal to verify/): its stages live in
// verify.cc (the order, the start and the verdict), stage_programs.cc (running the programs,
// shapes, dedup, names), stage_ieee.cc (what IEEE semantics sets aside, --exhaustive) and
// stage_prove.cc (probe, e-graph, witness search, Z3, replay), stage_cases.cc (the case split
// on thresholds) and stage_chains.cc (argmax and argmin chains).
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "rules/rules.h"
#include "verify/exhaust.h"
#include "verify/verify.h"
#include "verify/witness.h"

namespace keq::verify::internal {

using ir::TermId;
using torch::Program;

// The most pairings of parameters by shape verify() tries where creation order pairs none: each
// is a run of the whole pipeline.
constexpr size_t kMaxParameterPairings = 24;

// The index of flat element e in a tensor of this shape.
inline std::vector<int64_t> unravel(size_t e, const std::vector<int64_t>& shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t k = shape.size(); k-- > 0;) {
    idx[k] = static_cast<int64_t>(e) % shape[k];
    e /= static_cast<size_t>(shape[k]);
  }
  return idx;
}

// root rebuilt bottom-up, iteratively (terms can be as deep as a row is wide), into `memo`:
// `replace` may give a term's replacement before its children are visited; otherwise the term is
// `rebuild` of its rebuilt children (the same op by default, the term itself when none changed).
using TermReplacement = std::function<std::optional<TermId>(TermId)>;
using TermRebuild = std::function<TermId(TermId, std::span<const TermId>)>;
TermId rewrite_terms(ir::TermStore& s, TermId root, absl::flat_hash_map<TermId, TermId>& memo,
                     const TermReplacement& replace, const TermRebuild& rebuild = nullptr);

// One configuration's run: an ordered list of stages over one term store. Each stage settles
// what it can and says so in the report; one that decides the verdict (a program that cannot
// run, a shape mismatch, a confirmed counterexample) ends the run. Counterexamples from any
// stage are replayed (Witness::differs) before they count.
class Pipeline {
 public:
  Pipeline(const std::string& ref_path, const std::string& cand_path, const Options& options)
      : ref_path_(ref_path),
        cand_path_(cand_path),
        opt_(options),
        timing_(options.timing_choices) {}

  Report run();  // every stage in order, each ending the run when it decides it

 private:
  Report finished();  // the report, with the timing comparisons' record (once_each)
  // A note made at every launch of a kernel (64 program instances of one tl.dot) says it once.
  static Report once_each(Report r) {
    absl::flat_hash_set<std::string> seen;
    std::erase_if(r.notes, [&](const std::string& n) { return !seen.insert(n).second; });
    return r;
  }
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  void refute(const Pair& p, const Point& point, const std::string& how);
  std::vector<std::string> names_of(const Counterexample& c) const;
  // forward's argument each input tensor feeds: its name, whether it is the tensor itself, and
  // the other input tensors it is computed from.
  struct ArgumentSource {
    std::string argument;
    bool itself = false;
    std::string others;
  };
  std::map<std::string, ArgumentSource> argument_sources() const;
  void refute_on_device(const Pair& p, const internal::Exhaustion::Refuted& x,
                        const std::string& reason, size_t unknown);
  std::map<TermId, std::string> unfixed_terms(bool zero_sign = true) const;
  std::map<TermId, std::string> zero_sign_terms() const;
  Options time_left() const;

  bool start();
  bool run_programs();
  bool structure();
  bool proved_by_earlier_config();
  bool dedup();
  bool findings_counterexample();
  void keep_distinct_pairs(const std::vector<Pair>& all);
  void take_known_constants();
  bool exhaustive();
  bool set_aside_unfixed();
  bool probe();
  void search_few_pairs_early(double& shown);  // probe()'s: the whole search of a few pairs
  void offer_counterexample(const Pair& p, const Point& point, const std::string& how,
                            double& shown);
  bool egraph();
  void egraph_stats(const rules::Proof& proof);
  size_t prove_around_shared_terms(std::vector<size_t>& which);  // how many the split proved
  void prove_differences(std::vector<size_t>& which, double seconds);
  void prove_by_sweeping(std::vector<size_t>& which, double seconds, double earned_seconds);
  bool sweep_values(const std::vector<size_t>& which,
                    std::vector<absl::flat_hash_map<TermId, double>>& values);
  void prove_shared_abstracted(std::vector<size_t>& which, double seconds, size_t& by_split);
  std::unique_ptr<rules::Proof> prove(const std::vector<size_t>& which, size_t element_terms,
                                      double seconds);
  std::unique_ptr<rules::Proof> prove_goals(const std::vector<rules::Goal>& goals,
                                            size_t element_terms, double seconds,
                                            size_t iterations = 30);
  TermId without_negligible_exps(TermId root, absl::flat_hash_map<TermId, TermId>& memo,
                                 std::optional<TermId>& first);
  bool negligible_terms();
  TermId without_finite_sentinels(TermId root, absl::flat_hash_map<TermId, TermId>& memo,
                                  std::set<double>& dropped);
  bool sentinel_extrema();
  bool surely_bounded(TermId t, double c, bool at_least);
  bool sentinels_inert(TermId root);
  bool arg_chains();             // stage_chains.cc
  bool early_threshold_cases();  // stage_cases.cc
  bool inert_clamps();           // stage_clamps.cc
  bool sum_at_least_one(TermId sum);
  bool threshold_cases();
  bool branch_cases();
  // seconds: the e-graph's share (default: what is left of half the --timeout).
  std::set<size_t> split_on_thresholds(const std::vector<size_t>& which, double seconds = -1);
  bool reaches_threshold(TermId root);
  // What an input variable can be (its tensor's get_inputs() domain), for enclosures.
  std::optional<ir::Enclosure> input_range(const ir::Variable& v) const;
  // A shared subterm's variable (verify/shared_terms.h): the enclosure of the term it stands
  // for over the inputs; every subterm's is kept, once computed (shared terms share theirs).
  mutable ir::EnclosureMemo shared_ranges_;
  void find_explained();
  bool witness_search();
  bool smt();
  void conclude();

  const std::string& ref_path_;
  const std::string& cand_path_;
  Options opt_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  Report r_;
  ir::TermStore store_;
  python::TimingChoices timing_;  // the candidate's comparisons of GPU timings (run_programs)
  Program ref_, cand_;
  Domains domains_;
  std::vector<Pair> pairs_;
  std::vector<bool> proved_;
  std::vector<bool> case_tried_;  // pairs the case split on thresholds has tried
  absl::flat_hash_map<TermId, bool> reaches_threshold_;  // memo of reaches_threshold()
  // Nodes the case split may walk for thresholds in this configuration: a wide row whose every
  // element branches (thousands of pairs of large terms) must not cost more than the proof.
  size_t walk_budget_ = 4'000'000;
  std::vector<size_t> open_;  // after the witness search: the pairs Z3 gets
  std::unique_ptr<Witness> witness_;
  // The verdict the candidate's memory findings decide, kept while the outputs whose values are
  // all defined are probed for a counterexample as well (findings_counterexample).
  std::optional<Report> decided_by_findings_;
  size_t approximate_ = 0;             // IEEE pairs set aside
  std::vector<Pair> zero_sign_pairs_;  // of those, the ones the witness search may refute
  std::string approximate_why_, smt_reason_;
  std::string negligible_why_;  // why pairs negligible_terms() settled stay unknown
  std::string sentinel_why_;    // what sentinel_extrema() found of the pairs left to Z3
  bool timed_out_ = false;
  std::optional<Pair> explained_;  // the element --explain names
};

}  // namespace keq::verify::internal
