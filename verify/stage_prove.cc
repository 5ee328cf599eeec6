// The proving stages: the probe, the e-graph, the witness search and Z3, and the replay every
// counterexample passes before it counts.
#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <set>

#include "ir/enclosure.h"
#include "ir/post_order.h"
#include "smt/smt.h"
#include "verify/pipeline.h"
#include "verify/shared_terms.h"

namespace keq::verify {

using namespace internal;

namespace {

// A float enclosure of surely finite values as the e-graph's interval: its bounds one ulp
// outward of the nearest doubles (sound; infinite bounds stay, meaning unbounded), or none.
std::optional<ir::Interval> shared_domain(const ir::Enclosure& e) {
  if (e.type != ir::Type::F32 || !e.real || e.nan || !e.surely_finite()) return std::nullopt;
  return ir::Interval{std::nextafter(e.lo.approx_double(), -INFINITY),
                      std::nextafter(e.hi.approx_double(), INFINITY), false, true};
}

// Whether a Z3 answer is "no answer in the time given" (smt.cc, batch.cc).
bool out_of_time(const std::string& reason) {
  return reason.find("timeout") != std::string::npos ||
         reason.find("overran its share") != std::string::npos ||
         reason.find("no time left") != std::string::npos;
}

// Z3 on the pairs that neither the e-graph nor the witness search settled. A model counts only
// when its point, rounded to the inputs' dtypes, replays as a difference.
template <typename Elapsed, typename Refute>
void smt_stage(const ir::TermStore& store, const std::vector<Pair>& pairs,
               const std::vector<size_t>& open, Witness& w, const Options& opt, Elapsed& elapsed,
               Report& r, std::string& reason, Refute& refute) {
  if (opt.nonfinite_inputs && opt.semantics == ir::Semantics::Real) {  // finite reals only
    reason = "the Z3 encoding covers finite inputs only (--nonfinite-inputs)";
    return;
  }
  auto range = [&](TermId v) {
    const Domain& d = w.domain(v);
    bool narrow = torch::is_float(d.dtype) && d.dtype != torch::DType::F32;
    if (d.nonfinite || !narrow) return smt::VarRange{d.lo, d.hi, d.hi_open, d.nonfinite};
    double top = max_finite(d.dtype);  // an fp8 input's values are finite fp8 values
    return smt::VarRange{std::max(d.lo, -top), std::min(d.hi, top), d.hi_open, false};
  };
  // The queries are independent (each has its own Z3 context and reads the store only): up to
  // opt.jobs run at once (smt::check_batch, in a child process killed at the deadline). Their
  // answers are then taken in order, so the verdict does not depend on the number of jobs.
  double left = opt.timeout_s - elapsed();
  if (left <= 0) {
    reason = reason.empty() ? "timeout" : reason;
    return;
  }
  smt::set_memory_limit(opt.max_memory_bytes);
  smt::Batch batch;
  for (size_t i : open) batch.pairs.emplace_back(pairs[i].ref, pairs[i].cand);
  batch.ieee = opt.semantics == ir::Semantics::Ieee;
  // The default bound's slice: a configuration where Z3 needs longer is run again once the
  // others have had their turn (a kernel's bug may show at the next sizes in milliseconds).
  const bool sliced = opt.smt_slice_s > 0 && left > opt.smt_slice_s;
  batch.seconds = sliced ? opt.smt_slice_s : left;
  batch.jobs = opt.jobs;
  std::vector<smt::BatchAnswer> answers = smt::check_batch(store, batch, range);
  bool split_noted = false;  // a proof evaluated both sides where a divisor is zero
  for (size_t n = 0; n < open.size(); ++n) {
    smt::Result& res = answers[n].result;
    r.stats.smt_seconds += answers[n].seconds;
    r.stats.smt_refinements += res.refinements;
    ++r.stats.smt_queries;
    if (res.outcome == smt::Outcome::Proved) {
      ++r.stats.smt_proved;
      if (res.split_points > 0 && !split_noted) {
        split_noted = true;
        r.notes.push_back(
            "Z3: a divisor is zero at one input only (a row of zeros, say); there both sides "
            "were evaluated exactly and agree, and the proof holds everywhere else");
      }
      continue;
    }
    if (res.outcome == smt::Outcome::Model) {
      Point p;
      std::mt19937_64 rng(opt.seed);
      std::map<TermId, double> model(res.model.begin(), res.model.end());  // in a fixed order
      for (auto [v, x] : model) p[v] = into_domain(x, w.domain(v), rng);
      if (w.differs(pairs[open[n]], p)) {
        ++r.stats.smt_refuted;
        refute(pairs[open[n]], p, "Z3 model, replayed");
        return;
      }
      res.reason = "a Z3 model that did not replay once rounded to the input dtypes";
    }
    if (sliced && out_of_time(res.reason)) r.smt_deferred = true;
    if (reason.empty()) reason = res.reason;
  }
}

constexpr const char* kBelowFloat32 = "counterexample: both sides round to the same float32 (";

// Where two different real values round to one float32, the note that says so: past float32's
// resolution, or past its range (two finite reals beyond its largest value, which real
// semantics does not overflow: a finite sentinel near FLT_MAX standing in for infinity).
std::optional<std::string> same_float32(const ir::RealValue& a, const ir::RealValue& b) {
  if (a.type != ir::Type::F32 || b.type != ir::Type::F32) return std::nullopt;
  float x = mpfr_get_flt(a.f.get(), MPFR_RNDN), y = mpfr_get_flt(b.f.get(), MPFR_RNDN);
  if (x != y) return std::nullopt;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(x));
  if (std::isfinite(x))
    return std::string(kBelowFloat32) + buf +
           "): the difference is one of real semantics, past float32's resolution at this "
           "point (a float32 run may still differ here, by its own roundings)";
  if (!mpfr_number_p(a.f.get()) || !mpfr_number_p(b.f.get())) return std::nullopt;
  return std::string(kBelowFloat32) + buf +
         "): both are finite reals past float32's largest value, where real semantics does not "
         "overflow (a finite sentinel near it, such as 3.4e38 standing in for infinity, differs "
         "from infinity only there)";
}

// A term printed in full can run to megabytes (a row's sum); --explain shows its start.
static std::string abbreviated(std::string s) {
  constexpr size_t kShown = 2000;
  if (s.size() > kShown) s = s.substr(0, kShown) + " ... (" + std::to_string(s.size()) + " chars)";
  return s;
}

}  // namespace

// Every counterexample, from the witness search or from Z3, is replayed in real semantics.
void Pipeline::refute(const Pair& p, const Point& point, const std::string& how) {
  Counterexample c;
  c.output = p.output;
  c.index = unravel(p.element, ref_.outputs[p.output]->shape);
  for (auto [v, x] : point) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", x);
    c.inputs.push_back({store_.variable_of(v).name, buf});
  }
  std::sort(c.inputs.begin(), c.inputs.end());
  auto [ref_value, cand_value, difference] = witness_->describe(p, point);
  c.ref_value = ref_value, c.cand_value = cand_value, c.difference = difference;
  c.found_by = how;
  c.names = names_of(c);
  // Everything evaluated before the report changes: a deadline met here (probe() keeps the
  // counterexample in hand past it) leaves the last one whole, with its own note.
  std::optional<std::string> same;
  if (opt_.semantics == ir::Semantics::Real)
    same = same_float32(witness_->eval(p.ref, point), witness_->eval(p.cand, point));
  r_.counterexample = c;
  std::erase_if(r_.notes, [](const std::string& n) { return n.starts_with(kBelowFloat32); });
  if (same) r_.notes.push_back(*same);
  r_.verdict = Verdict::NotEquivalent;
  r_.reason = "a counterexample that replay confirms";
}

// Keeps the counterexample whose sides differ most, relative to their size (`shown`).
void Pipeline::offer_counterexample(const Pair& p, const Point& point, const std::string& how,
                                    double& shown) {
  double rel = witness_->relative(p, point);
  if (r_.counterexample && rel <= shown) return;
  shown = rel;
  refute(p, point, how);
}

// Where dedup left a few pairs, each gets the whole witness search (constant-guided points
// included) before any proof, within a small slice of --timeout: the shared points miss
// differences that only show near a constant (a bf16 GEMM + hardtanh + GELU that rounds once
// where torch rounds after each op, KernelAgent's L2 53), and the e-graph then ran its 30
// iterations (11 s; 42 s before powers were bounded tighter) before the search found one in
// 32 points. A pair the slice does not reach is searched again after the e-graph as before.
void Pipeline::search_few_pairs_early(double& shown) {
  constexpr size_t kFewPairs = 8;
  if (pairs_.size() > kFewPairs) return;
  const double slice = std::min(0.25, opt_.timeout_s / 40);
  ir::TighterDeadline end(std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(slice)));
  try {
    for (size_t k = 0; k < pairs_.size() && !r_.counterexample; ++k) {
      std::string how;
      if (auto point =
              witness_->search(pairs_[k], opt_.witness_points, how, r_.stats.witness_points)) {
        ++r_.stats.witness_refuted;
        offer_counterexample(pairs_[k], *point, how, shown);
      }
    }
  } catch (const ir::BudgetExceeded& e) {
    if (e.memory_exhausted || end.outer_passed()) throw;
  }
}

// A short probe before the e-graph: a wrong candidate usually differs at one of a few points of
// a few outputs, and then the e-graph need not saturate at all. Evaluating long terms is costly,
// so the probe samples at most kProbePairs pairs, spread over the outputs.
bool Pipeline::probe() {
  constexpr size_t kProbePairs = 8;
  size_t stride = std::max<size_t>(1, pairs_.size() / kProbePairs);
  double shown = -1;  // the relative difference of the counterexample kept
  std::vector<size_t> refuted;
  for (size_t k = 0; k < pairs_.size() && shown < kPlainDifference; k += stride) {
    std::string how;
    if (auto point = witness_->probe(pairs_[k], how, r_.stats.witness_points)) {
      ++r_.stats.witness_refuted;
      refuted.push_back(k);
      offer_counterexample(pairs_[k], *point, how, shown);
    }
  }
  if (!r_.counterexample) search_few_pairs_early(shown);
  if (!r_.counterexample) return true;
  // The probe's few shared points showed only a rounding's size: the search of those pairs looks
  // for a point that shows plainly (a cosine loss whose eps is added where torch clamps). It
  // only looks for a plainer one: at the deadline the confirmed counterexample in hand stands
  // (a KL-div row of 8,194 terms ran past the bound's share here, and the size was dropped).
  try {
    for (size_t k : refuted) {
      if (shown >= kPlainDifference) break;
      std::string how;
      if (auto point =
              witness_->search(pairs_[k], opt_.witness_points, how, r_.stats.witness_points))
        offer_counterexample(pairs_[k], *point, how, shown);
    }
  } catch (const ir::BudgetExceeded& e) {
    if (e.memory_exhausted) throw;
  }
  r_.stats.unknown = pairs_.size() + approximate_ - r_.stats.witness_refuted;
  r_.stats.seconds = elapsed();
  if (opt_.explain) r_.explanation = "nothing was proved: a counterexample came first";
  return false;
}

// Memory findings decided the verdict (an out-of-bounds read, a masked lane without other=),
// but a bug in the values may sit beside them: a DLBlas GroupNorm reads gamma out of bounds on
// lanes it never stores, and its variance also counts every masked lane's (0 - mean)^2. The
// outputs whose terms read no undefined value are probed; a counterexample among them is real
// evidence and is shown with the findings.
bool Pipeline::findings_counterexample() {
  if (!decided_by_findings_) return true;
  absl::flat_hash_map<TermId, bool> memo;
  auto reads_undefined = [&](TermId root) {
    ir::post_order(store_, root, memo, [&](TermId t) {
      if (store_.op(t) == ir::Op::Var) return store_.variable_of(t).name.starts_with("undef@");
      bool any = false;
      for (TermId c : store_.children(t)) any |= memo.at(c);
      return any;
    });
    return memo.at(root);
  };
  constexpr size_t kProbePairs = 16;
  size_t stride = std::max<size_t>(1, pairs_.size() / kProbePairs);
  double shown = -1;
  for (size_t k = 0; k < pairs_.size() && shown < kPlainDifference; k += stride) {
    if (reads_undefined(pairs_[k].ref) || reads_undefined(pairs_[k].cand)) continue;
    std::string how;
    if (auto point = witness_->probe(pairs_[k], how, r_.stats.witness_points)) {
      ++r_.stats.witness_refuted;
      offer_counterexample(pairs_[k], *point, how, shown);
    }
  }
  if (r_.counterexample) {
    r_.reason = decided_by_findings_->reason +
                ", and outputs whose values are all defined differ: a counterexample that "
                "replay confirms";
  } else {
    Stats stats = r_.stats;
    r_ = *decided_by_findings_;
    r_.stats = stats;
  }
  r_.stats.unknown = pairs_.size() - r_.stats.witness_refuted;
  r_.stats.seconds = elapsed();
  return false;
}

// The element --explain names, as a pair of its own (dedup may have merged it with another).
void Pipeline::find_explained() {
  Report& r = r_;
  const Options& opt = opt_;
  const Program &ref = ref_, &cand = cand_;
  std::optional<Pair>& explained = explained_;
  if (opt.explain) {
    auto [o, index] = *opt.explain;
    std::optional<size_t> flat;
    if (o < ref.outputs.size() && index.size() == ref.outputs[o]->shape.size()) {
      size_t f = 0;
      bool inside = true;
      for (size_t d = 0; d < index.size(); ++d) {
        inside &= index[d] >= 0 && index[d] < ref.outputs[o]->shape[d];
        f = f * static_cast<size_t>(ref.outputs[o]->shape[d]) + static_cast<size_t>(index[d]);
      }
      if (inside) flat = f;
    }
    if (!flat)
      r.explanation = "--explain: output " + std::to_string(o) + " has no such element";
    else if (ref.outputs[o]->elems[*flat] == cand.outputs[o]->elems[*flat])
      r.explanation = "both programs build the same term: equal by construction";
    else
      explained = Pair{ref.outputs[o]->elems[*flat], cand.outputs[o]->elems[*flat], o, *flat};
    if (explained && !opt.use_egraph) r.explanation = "--no-egraph: the e-graph did not run";
  }
}

// The e-graph over `goals`, with the inputs' domains as facts.
std::unique_ptr<rules::Proof> Pipeline::prove_goals(const std::vector<rules::Goal>& goals,
                                                    size_t element_terms, double seconds,
                                                    size_t iterations) {
  rules::ProverOptions po;
  po.semantics = opt_.semantics;
  po.normal_forms = opt_.normal_forms;
  po.element_terms = element_terms;
  po.explanations = explained_.has_value();
  po.limits = {iterations, 500000, seconds};
  for (TermId id = 0; id < store_.size(); ++id) {
    // An integer input's range (torch.randint's [lo, hi)): a class index is never -100.
    if (store_.op(id) == ir::Op::Var && ir::is_int(store_.type(id))) {
      auto d = domains_.find(tensor_of(store_.variable_of(id).name));
      if (d != domains_.end() && std::isfinite(d->second.lo) && std::isfinite(d->second.hi)) {
        double hi = d->second.hi_open ? std::ceil(d->second.hi) - 1 : std::floor(d->second.hi);
        po.domains.push_back({id, {std::ceil(d->second.lo), hi, false, true}});
      }
      continue;
    }
    if (store_.op(id) == ir::Op::Var && shared_term(store_.variable_of(id).name)) {
      if (auto d = shared_domain(*input_range(store_.variable_of(id))))
        po.domains.push_back({id, *d});
      continue;
    }
    if (store_.op(id) == ir::Op::Var && store_.type(id) == ir::Type::F32) {
      // Inputs and parameters are values of their dtype (fp32 values), finite ones in their
      // range unless --nonfinite-inputs; anything else stays unknown.
      auto d = domains_.find(tensor_of(store_.variable_of(id).name));
      if (d == domains_.end()) continue;
      if (torch::is_float(d->second.dtype)) po.fp32_values.push_back(id);
      if (d->second.nonfinite) continue;
      double top = max_finite(d->second.dtype);
      po.domains.push_back(
          {id, {std::max(d->second.lo, -top), std::min(d->second.hi, top), false, true}});
    }
  }
  return rules::prove(store_, goals, {}, rules::RuleSet::defaults(), po);
}

// The e-graph over the goals `which` (indices into pairs_, pairs_.size() for the explained one).
std::unique_ptr<rules::Proof> Pipeline::prove(const std::vector<size_t>& which,
                                              size_t element_terms, double seconds) {
  std::vector<rules::Goal> goals;
  for (size_t k : which) {
    const Pair& p = k < pairs_.size() ? pairs_[k] : *explained_;
    goals.push_back({p.ref, p.cand});
  }
  return prove_goals(goals, element_terms, seconds);
}

// The report's e-graph line: the last e-graph's iterations, nodes and why it stopped.
void Pipeline::egraph_stats(const rules::Proof& proof) {
  r_.stats.egraph_iterations = proof.report.iterations.size();
  r_.stats.egraph_nodes = proof.graph.memo_size();
  r_.stats.egraph_stop = egraph::stop_reason_name(proof.report.stop);
}

// Pairs whose sides are the same terms but for a few places (the torch layers around one
// activation a kernel replaces, LLMKernel L3 44's MiniGPT block): each place where they differ
// as a goal of its own, with the subterms both sides there contain and every leaf renamed to
// fresh variables, so that a block's 256 GELUs are one goal. A pair is proved when all its
// places are (congruence). The whole pairs' e-graph expanded the shared attention's normal forms
// until the 8 GiB budget stopped it.
void Pipeline::prove_differences(std::vector<size_t>& which, double seconds) {
  constexpr size_t kMostPlaces = 4096;
  std::vector<rules::Goal> goals;
  absl::flat_hash_map<std::pair<TermId, TermId>, size_t> goal_of;
  std::vector<std::pair<size_t, std::vector<size_t>>> places;  // pair, its goals
  for (size_t k : which) {
    if (k >= pairs_.size()) continue;
    auto diffs = differences(store_, pairs_[k].ref, pairs_[k].cand, kMostPlaces);
    if (!diffs || diffs->empty() ||
        (diffs->size() == 1 && diffs->front() == std::pair{pairs_[k].ref, pairs_[k].cand}))
      continue;  // nothing shared around the difference: the whole pair is the one goal
    // Places that are most of the pair (a cumsum's sums in another association) are no
    // smaller goals: the whole pair's e-graph, with its inputs' domains, does better there.
    // Sized before any term is made.
    size_t kept = 0;
    for (auto [a, b] : *diffs) kept += representative_size(store_, a, b);
    if (2 * kept > node_count(store_, pairs_[k].ref, pairs_[k].cand)) continue;
    std::vector<std::pair<TermId, TermId>> reps;
    for (auto [a, b] : *diffs) reps.push_back(representative(store_, a, b));
    // A place whose sides differ at a point (operands of a commutative op in the other order)
    // sinks the pair.
    if (std::any_of(reps.begin(), reps.end(),
                    [&](const auto& r) { return surely_differ(store_, r.first, r.second); }))
      continue;
    std::vector<size_t> its;
    for (const auto& rep : reps) {
      auto [it, fresh] = goal_of.try_emplace(rep, goals.size());
      if (fresh) goals.push_back({rep.first, rep.second});
      its.push_back(it->second);
    }
    places.push_back({k, std::move(its)});
  }
  if (goals.empty()) return;
  // A place that holds is a lemma of a few rewrites (the overflow-safe tanh: 9 iterations);
  // one that does not would spend the whole share on magnitude searches.
  constexpr size_t kPlaceIterations = 15;
  auto proof = prove_goals(goals, rules::kElementTerms, seconds, kPlaceIterations);
  if (!proof->report.canary.empty()) return;  // (the full e-graph says why)
  size_t n = 0;
  for (const auto& [k, its] : places)
    if (std::all_of(its.begin(), its.end(), [&](size_t g) { return proof->proved(g); }))
      proved_[k] = true, ++n;
  egraph_stats(*proof);  // the full e-graph's replace them, if it runs
  std::erase_if(which, [&](size_t k) { return k < pairs_.size() && proved_[k]; });
  if (n > 0)
    r_.notes.push_back("e-graph: " + std::to_string(n) + " of " + std::to_string(places.size()) +
                       " pairs that differ in a few places proved place by place (" +
                       std::to_string(goals.size()) + " distinct up to renaming)");
}

// Pairs whose sides share most of their terms otherwise (a sum of the places in another order):
// the largest shared subterms as variables, whose domains are the enclosures of the terms they
// stand for, through the case split and the e-graph.
void Pipeline::prove_shared_abstracted(std::vector<size_t>& which, double seconds,
                                       size_t& by_split) {
  // The abstracted pairs stand in for theirs while the case split and the e-graph run on them;
  // the originals come back whatever happens (a budget exception too), untried by the split.
  struct Restore {
    Pipeline& p;
    std::vector<std::pair<size_t, Pair>> originals;
    std::vector<bool> tried;
    ~Restore() {
      for (auto& [k, pair] : originals) p.pairs_[k] = pair;
      p.case_tried_ = tried;
    }
  } restore{*this, {}, case_tried_};
  std::vector<size_t> of;
  for (size_t k : which)
    if (k < pairs_.size())
      if (auto a = abstract_shared(store_, pairs_[k].ref, pairs_[k].cand)) {
        restore.originals.push_back({k, pairs_[k]});
        pairs_[k].ref = a->ref, pairs_[k].cand = a->cand;
        of.push_back(k);
      }
  if (of.empty()) return;
  size_t n = 0;
  for (size_t k : split_on_thresholds(of, seconds / 2)) proved_[k] = true, ++n, ++by_split;
  std::vector<size_t> rest;
  for (size_t k : of)
    if (!proved_[k]) rest.push_back(k);
  if (!rest.empty()) {
    auto proof = prove(rest, rules::kElementTerms, seconds / 2);
    if (proof->report.canary.empty())  // (the full e-graph says why)
      for (size_t g = 0; g < rest.size(); ++g)
        if (proof->proved(g)) proved_[rest[g]] = true, ++n;
    egraph_stats(*proof);
  }
  std::erase_if(which, [&](size_t k) { return k < pairs_.size() && proved_[k]; });
  if (n > 0)
    r_.notes.push_back("e-graph: " + std::to_string(n) + " of " + std::to_string(of.size()) +
                       " pairs whose sides share most of their terms proved with those shared "
                       "subterms as variables");
}

// Both, before the whole pairs' e-graph, within a sixteenth of --timeout. Real semantics only:
// there the same term is the same value on both sides; in IEEE torch's exp and Triton's are one
// term but not the same bits. Returns how many the case split proved.
size_t Pipeline::prove_around_shared_terms(std::vector<size_t>& which) {
  if (opt_.semantics != ir::Semantics::Real) return 0;
  // Each share is a deadline, not only the e-graphs' limit: one iteration's magnitude searches
  // ran 15 s past a 3.75 s limit (LLMKernel L3 50's attention).
  auto within = [&](double seconds, const std::function<void()>& pass) {
    ir::TighterDeadline end(std::chrono::steady_clock::now() +
                            std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                std::chrono::duration<double>(seconds)));
    try {
      pass();
    } catch (const ir::BudgetExceeded& e) {
      if (e.memory_exhausted || end.outer_passed()) throw;
      std::erase_if(which, [&](size_t k) { return k < pairs_.size() && proved_[k]; });
      r_.notes.push_back("e-graph: the pass over shared terms stopped at its share of --timeout");
    }
  };
  // The sweep has 1/16 of --timeout, and up to a quarter while every round proves every goal:
  // where a candidate rewrote several layers of a model (a Llama block's RMSNorm, attention and
  // SwiGLU), each round proves the next layer's nodes in small goals, which the e-graph over
  // whole pairs cannot; where it does not work (RegNet's convolutions), the e-graph gets the time.
  const double share = opt_.timeout_s / 16;
  within(opt_.timeout_s / 4, [&] { prove_by_sweeping(which, share, opt_.timeout_s / 4); });
  size_t by_split = 0;
  within(share, [&] {
    prove_differences(which, share / 2);
    prove_shared_abstracted(which, share / 2, by_split);
  });
  return by_split;
}

bool Pipeline::egraph() {
  Report& r = r_;
  const Options& opt = opt_;
  ir::TermStore& store = store_;
  std::vector<Pair>& pairs = pairs_;
  const std::optional<Pair>& explained = explained_;
  find_explained();
  std::vector<bool>& proved = proved_;
  if (proved.size() != pairs.size()) proved.assign(pairs.size(), false);
  const auto proved_before = std::ranges::count(proved, true);  // by the case split, earlier
  // The explained pair is a goal like the others, so the run goes on until it is proved too.
  std::vector<size_t> which;
  for (size_t k = 0; k < pairs.size() + (explained ? 1 : 0); ++k)
    if (k >= pairs.size() || !proved[k]) which.push_back(k);
  // (pairs the case split proves there count as its own, not the e-graph's)
  const size_t split_before = opt.use_egraph ? prove_around_shared_terms(which) : 0;
  if (opt.use_egraph && !which.empty()) {
    auto proof = prove(which, rules::kElementTerms, opt.timeout_s / 2);
    bool explained_proved = false;
    auto take = [&](rules::Proof& pr) {
      // A canary (two distinct constants merged) means some merge was wrong: none of this
      // e-graph's proofs is used, and the report says why.
      if (!pr.report.canary.empty()) {
        r.notes.push_back("the e-graph stopped: " + pr.report.canary +
                          "; none of its proofs is used");
        return;
      }
      for (size_t g = 0; g < which.size(); ++g) {
        if (!pr.proved(g)) continue;
        if (which[g] < pairs.size()) {
          proved[which[g]] = true;
        } else {
          explained_proved = true;
          r.explanation = "proved by the e-graph:\n" + pr.explain(g);
        }
      }
    };
    take(*proof);
    // Deviations of larger elements from a wide group's mean (a convolution output minus its
    // GroupNorm's mean) had no forms: where a goal is left, a second e-graph over those goals
    // gives them forms for elements of up to 64 terms (whose squares fit the product budget),
    // a cost (n k^2/2 terms for a group of n elements of k) paid only where congruence did not
    // already prove the pair.
    std::vector<size_t> left;
    for (size_t k : which)
      if (k < pairs.size() ? !proved[k] : !explained_proved) left.push_back(k);
    double remaining = opt.timeout_s / 2 - elapsed();
    if (!left.empty() && proof->graph.lang().normal_forms().wide_edits() > 0 && remaining > 0) {
      constexpr size_t kManyElementTerms = 64;
      proof = prove(left, kManyElementTerms, remaining);
      which = left;
      take(*proof);
    }
    if (explained && !explained_proved)
      r.explanation =
          "the e-graph did not prove it (see the verdict for what did):\n  reference: " +
          abbreviated(store.str(explained->ref)) +
          "\n  candidate: " + abbreviated(store.str(explained->cand));
    const auto& nfs = proof->graph.lang().normal_forms();
    // The normal form multiplies the wide factors of a product of two large sums, and the wide
    // side of a sum that edits a wide form, as atoms (its size guards): say so, since a proof
    // that needed the expansion then fails for that reason alone.
    if (size_t over = nfs.budget_exceeded())
      r.notes.push_back("normal forms: " + std::to_string(over) + " products of sums past the " +
                        std::to_string(nfs.budget()) +
                        "-term budget took their wide factors as atoms (not expanded)");
    bool all_proved = std::all_of(proved.begin(), proved.end(), [](bool b) { return b; });
    if (size_t wide = nfs.wide_edits(); wide && !all_proved)
      r.notes.push_back("normal forms: " + std::to_string(wide) +
                        " deviations from the mean of a wide group, of elements over " +
                        std::to_string(nfs.element_terms()) +
                        " terms, were left to congruence (not expanded)");
    if (size_t wide = nfs.wide_products(); wide && !all_proved)
      r.notes.push_back("normal forms: " + std::to_string(wide) +
                        " products of a form over 64 terms with its 17th or later one-term "
                        "factor were left to congruence (not expanded)");
    egraph_stats(*proof);
  }
  r.stats.egraph_proved += std::ranges::count(proved, true) - proved_before - split_before;

  return true;
}

bool Pipeline::witness_search() {
  // After a counterexample whose difference is a rounding's size, a few more pairs are searched
  // for a plainer one (a bug beside a rounding); the rest are left unchecked.
  constexpr size_t kMorePairs = 4;
  double shown = -1;
  size_t more = kMorePairs;
  for (size_t k = 0; k < pairs_.size() && shown < kPlainDifference; ++k) {
    if (proved_[k]) continue;
    if (r_.counterexample && more-- == 0) break;
    if ((timed_out_ = elapsed() > opt_.timeout_s)) break;
    std::string how;
    if (auto point =
            witness_->search(pairs_[k], opt_.witness_points, how, r_.stats.witness_points)) {
      ++r_.stats.witness_refuted;
      offer_counterexample(pairs_[k], *point, how, shown);
    } else if (!r_.counterexample) {
      open_.push_back(k);
    }
  }
  // IEEE pairs set aside for a zero's sign alone: refuted where no such term is zero (the
  // witness's differs() checks), never proved; they stay counted as set aside otherwise.
  for (const Pair& p : zero_sign_pairs_) {
    if (r_.counterexample || (timed_out_ = elapsed() > opt_.timeout_s)) break;
    std::string how;
    if (auto point = witness_->search(p, opt_.witness_points, how, r_.stats.witness_points)) {
      ++r_.stats.witness_refuted;
      refute(p, *point, how);
    }
  }
  return true;
}

namespace {
// What makes an exp's argument that low, for a report: the most negative constant near the top
// of the argument (a sentinel such as -1e30), else the start of the term.
std::string sentinel_of(const ir::TermStore& s, TermId e) {
  std::vector<TermId> frontier{e};
  double lowest = 0;
  for (size_t k = 0; k < frontier.size() && k < 64; ++k) {
    TermId t = frontier[k];
    if (s.op(t) == ir::Op::Const && s.type(t) == ir::Type::F32)
      lowest = std::min(lowest, s.constant_of(t).f);
    for (TermId c : s.children(t)) frontier.push_back(c);
  }
  if (lowest <= -1e4 && std::isfinite(lowest)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", lowest);
    return std::string("the constant ") + buf +
           " in the argument: a large finite sentinel where -inf would mask";
  }
  std::string text = s.str(e);
  return text.size() > 160 ? text.substr(0, 160) + " ..." : text;
}
}  // namespace

std::optional<ir::Enclosure> Pipeline::input_range(const ir::Variable& v) const {
  if (std::optional<TermId> t = shared_term(v.name)) {  // (the memo keeps every subterm's)
    auto range = [this](const ir::Variable& w) { return input_range(w); };
    return ir::evaluate_enclosure_over(store_, *t, range, shared_ranges_);
  }
  ir::Enclosure e = ir::Enclosure::any(v.type);
  auto d = domains_.find(tensor_of(v.name));
  if (d == domains_.end() || v.type != ir::Type::F32 || d->second.nonfinite) return e;
  double top = max_finite(d->second.dtype);
  e.lo = ir::Real(std::max(d->second.lo, -top));
  e.hi = ir::Real(std::min(d->second.hi, top));
  e.nan = false;
  return e;
}

// Below this, e^x lies thousands of binades under every float format's least value (fp64's least
// subnormal is e^-744.4): no kernel can tell such a term from 0.
constexpr double kNegligibleExponent = -1e4;

// t with every exp (or exp2) whose argument stays below kNegligibleExponent over the inputs'
// domains replaced by 0; `first` gets the first such term. Iterative: terms can be as deep as a
// row is wide.
TermId Pipeline::without_negligible_exps(TermId root, absl::flat_hash_map<TermId, TermId>& memo,
                                         std::optional<TermId>& first) {
  auto range = [this](const ir::Variable& v) { return input_range(v); };
  auto negligible = [&](TermId arg) {
    ir::Enclosure e = ir::evaluate_enclosure_over(store_, arg, range);
    return e.real && !e.nan && e.hi.approx_double() < kNegligibleExponent;
  };
  TermId zero = store_.constant(ir::Constant::of_float(0));
  return rewrite_terms(store_, root, memo, [&](TermId t) -> std::optional<TermId> {
    ir::Op op = store_.op(t);
    if ((op != ir::Op::Exp && op != ir::Op::Exp2) || !negligible(store_.children(t)[0]))
      return std::nullopt;
    if (!first) first = t;
    return zero;
  });
}

TermId internal::rewrite_terms(ir::TermStore& s, TermId root,
                               absl::flat_hash_map<TermId, TermId>& memo,
                               const TermReplacement& replace, const TermRebuild& rebuild) {
  std::vector<std::pair<TermId, bool>> stack{{root, false}};
  std::vector<TermId> next;
  while (!stack.empty()) {
    ir::Budget::tick();
    auto [t, expanded] = stack.back();
    if (memo.contains(t)) {
      stack.pop_back();
      continue;
    }
    if (!expanded) {
      if (auto r = replace(t)) {
        memo[t] = *r;
        stack.pop_back();
        continue;
      }
      stack.back().second = true;
      for (TermId k : s.children(t))
        if (!memo.contains(k)) stack.push_back({k, false});
      continue;
    }
    stack.pop_back();
    auto kids = s.children(t);
    next.assign(kids.begin(), kids.end());
    bool same = true;
    for (size_t i = 0; i < next.size(); ++i) same &= (next[i] = memo.at(next[i])) == kids[i];
    memo[t] = rebuild ? rebuild(t, next) : same ? t : s.make(s.op(t), next);
  }
  return memo.at(root);
}

// Open pairs whose sides differ only through exp of arguments below kNegligibleExponent (a
// finite sentinel such as -1e30 in masked lanes, where the reference masks with -inf or not at
// all): over the reals those terms are positive, so no proof exists, and no enclosure at any
// precision tells e^-1e30 from 0 beside the rest, so no counterexample can be confirmed either;
// Z3 would spend the timeout on them. With those terms at 0 the e-graph proves the rest: such a
// pair stays UNKNOWN with that reason and skips Z3.
bool Pipeline::negligible_terms() {
  if (!opt_.use_egraph || open_.empty() || r_.counterexample || timed_out_ ||
      opt_.semantics != ir::Semantics::Real)
    return true;
  absl::flat_hash_map<TermId, TermId> memo;
  std::vector<rules::Goal> goals;
  std::vector<size_t> which;
  std::optional<TermId> first;
  for (size_t k : open_) {
    // The memo is shared, so a pair whose terms changed is one whose roots did.
    TermId a = without_negligible_exps(pairs_[k].ref, memo, first),
           b = without_negligible_exps(pairs_[k].cand, memo, first);
    if (a == pairs_[k].ref && b == pairs_[k].cand) continue;
    goals.push_back({a, b});
    which.push_back(k);
  }
  if (goals.empty()) return true;
  double remaining = opt_.timeout_s / 2 - elapsed();
  if (remaining <= 0) return true;
  auto proof = prove_goals(goals, rules::kElementTerms, remaining);
  if (!proof->report.canary.empty()) return true;
  std::set<size_t> settled;
  for (size_t g = 0; g < goals.size(); ++g)
    if (proof->proved(g)) settled.insert(which[g]);
  if (settled.empty()) return true;
  std::erase_if(open_, [&](size_t k) { return settled.contains(k); });
  negligible_why_ = "the two sides differ only by exp of arguments below -1e4 over every input (" +
                    sentinel_of(store_, *first) +
                    "): positive over the reals, so no proof exists, and below every float "
                    "format, so no counterexample can be confirmed; masking with -inf decides it";
  r_.notes.push_back(std::to_string(settled.size()) +
                     " output pairs differ only by exp of "
                     "arguments below -1e4 (left to no solver)");
  return true;
}

// A constant this large in a min (or this negative in a max) stands in for infinity: a running
// minimum started at 1e30, masked lanes loaded as 1e30 (LLMKernel L2 25, L2 75).
constexpr double kSentinelMagnitude = 1e20;

bool is_finite_sentinel(const ir::TermStore& s, TermId c, bool in_max) {
  if (s.op(c) != ir::Op::Const || s.type(c) != ir::Type::F32) return false;
  double v = s.constant_of(c).f;
  return std::isfinite(v) && (in_max ? v <= -kSentinelMagnitude : v >= kSentinelMagnitude);
}

// Every finite sentinel under root cannot win its extremum: another operand of it is at least
// the sentinel (in a max) or at most it (in a min) for every input, so dropping it changes no
// value (-1e30 before a max-pool of hardswish outputs, which are at least -3/8).
bool Pipeline::sentinels_inert(TermId root) {
  constexpr size_t kMaxWalk = 20000;
  std::vector<TermId> stack{root};
  absl::flat_hash_set<TermId> seen;
  while (!stack.empty()) {
    TermId t = stack.back();
    stack.pop_back();
    if (!seen.insert(t).second) continue;
    if (seen.size() > kMaxWalk) return false;
    auto kids = store_.children(t);
    const ir::OpInfo& info = ir::op_info(store_.op(t));
    if (info.normal_form == ir::NormalFormRole::Extremum)
      for (TermId c : kids) {
        if (!is_finite_sentinel(store_, c, info.is_max)) continue;
        double v = store_.constant_of(c).f;
        if (std::none_of(kids.begin(), kids.end(), [&](TermId o) {
              return !is_finite_sentinel(store_, o, info.is_max) &&
                     surely_bounded(o, v, info.is_max);
            }))
          return false;
      }
    for (TermId k : kids) stack.push_back(k);
  }
  return true;
}

// t with every such sentinel dropped from the extrema it is an operand of; `dropped` gets their
// values. An extremum left with one operand is that operand.
TermId Pipeline::without_finite_sentinels(TermId root, absl::flat_hash_map<TermId, TermId>& memo,
                                          std::set<double>& dropped) {
  auto sentinel = [this](TermId c, bool in_max) { return is_finite_sentinel(store_, c, in_max); };
  auto keep = [](TermId) { return std::optional<TermId>(); };
  return rewrite_terms(
      store_, root, memo, keep, [&](TermId t, std::span<const TermId> kids) -> TermId {
        const ir::OpInfo& info = ir::op_info(store_.op(t));
        bool same = std::equal(kids.begin(), kids.end(), store_.children(t).begin());
        if (info.normal_form != ir::NormalFormRole::Extremum)
          return same ? t : store_.make(store_.op(t), {kids.begin(), kids.end()});
        std::vector<TermId> rest;
        for (TermId k : kids) {
          if (!sentinel(k, info.is_max))
            rest.push_back(k);
          else
            dropped.insert(store_.constant_of(k).f);
        }
        if (rest.empty()) {                         // sentinels alone: the extreme one, exactly
          auto extreme = [&](TermId a, TermId b) {  // a strict order, the extreme first
            double x = store_.constant_of(a).f, y = store_.constant_of(b).f;
            return info.is_max ? x > y : x < y;
          };
          return *std::min_element(kids.begin(), kids.end(), extreme);
        }
        if (rest.size() == kids.size())
          return same ? t : store_.make(store_.op(t), {kids.begin(), kids.end()});
        if (rest.size() == 1) return rest[0];
        return info.variadic || rest.size() == 2 ? store_.make(store_.op(t), rest) : t;
      });
}

// Open pairs whose sides differ only where a value passes a finite sentinel (a min over 1e30
// where the reference has no such operand): read as infinity, the e-graph proves them equal.
// Past the sentinel they may differ, by as much as a row minimum of 2e30 against 1e30 (the
// witness search refutes that) or by less than any float shows under a saturating tanh: the
// pairs stay for Z3, and the reason, when they stay unknown, says this instead of Z3's alone.
bool Pipeline::sentinel_extrema() {
  if (!opt_.use_egraph || open_.empty() || r_.counterexample || timed_out_ ||
      opt_.semantics != ir::Semantics::Real)
    return true;
  absl::flat_hash_map<TermId, TermId> memo;
  std::vector<rules::Goal> goals;
  std::vector<size_t> goal_pair;
  std::set<double> dropped;
  for (size_t k : open_) {
    TermId a = without_finite_sentinels(pairs_[k].ref, memo, dropped),
           b = without_finite_sentinels(pairs_[k].cand, memo, dropped);
    if (a == pairs_[k].ref && b == pairs_[k].cand) continue;
    goals.push_back({a, b});
    goal_pair.push_back(k);
  }
  double remaining = opt_.timeout_s / 2 - elapsed();
  if (goals.empty() || remaining <= 0) return true;
  auto proof = prove_goals(goals, rules::kElementTerms, remaining);
  if (!proof->report.canary.empty()) return true;
  size_t proved = 0;
  std::set<size_t> settled;  // proved, and no sentinel in them can win: proved as they are
  for (size_t g = 0; g < goals.size(); ++g) {
    if (!proof->proved(g)) continue;
    const Pair& p = pairs_[goal_pair[g]];
    if (sentinels_inert(p.ref) && sentinels_inert(p.cand))
      settled.insert(goal_pair[g]);
    else
      ++proved;
  }
  std::string c;
  for (double v : dropped) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    c += (c.empty() ? "" : ", ") + std::string(buf);
  }
  if (!settled.empty()) {
    for (size_t k : settled) proved_[k] = true;
    std::erase_if(open_, [&](size_t k) { return settled.contains(k); });
    r_.stats.egraph_proved += settled.size();
    r_.notes.push_back(std::to_string(settled.size()) + " output pairs hold the finite sentinel " +
                       c + " in a min or max where another operand bounds it for every input " +
                       "(it cannot win): read without it, the e-graph proves them");
  }
  if (proved == 0) return true;
  sentinel_why_ = std::to_string(proved) + " of them differ only where values pass the finite " +
                  "sentinel " + c + " (a stand-in for infinity in a min or max): read as " +
                  "infinity the e-graph proves them, and no counterexample was found past it";
  r_.notes.push_back(std::to_string(proved) + " output pairs differ only where values pass the " +
                     "finite sentinel " + c + " (Z3 tries them)");
  return true;
}

bool Pipeline::smt() {
  if (opt_.use_smt && !r_.counterexample && !timed_out_) {
    auto elapsed = [this] { return this->elapsed(); };
    auto refute = [this](const Pair& p, const Point& point, const std::string& how) {
      this->refute(p, point, how);
    };
    smt_stage(store_, pairs_, open_, *witness_, opt_, elapsed, r_, smt_reason_, refute);
  }
  return true;
}

}  // namespace keq::verify
