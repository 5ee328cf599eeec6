#include "verify/verify.h"

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <absl/hash/hash.h>
#include <mpfr.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numeric>
#include <random>
#include <set>
#include <thread>

#include "frontends/python/python.h"
#include "ir/budget.h"
#include "ir/enclosure.h"
#include "rules/rules.h"
#include "smt/smt.h"
#include "verify/exhaust.h"
#include "verify/index_overflow.h"
#include "verify/known_constants.h"
#include "verify/pair_key.h"
#include "verify/witness.h"

namespace keq::verify {

using namespace internal;

using ir::TermId;
using torch::Program;

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Equivalent:
      return "EQUIVALENT";
    case Verdict::NotEquivalent:
      return "NOT_EQUIVALENT";
    case Verdict::Unknown:
      return "UNKNOWN";
    case Verdict::Unsupported:
      return "UNSUPPORTED";
    case Verdict::Error:
      return "ERROR";
  }
  return "?";
}

int exit_code(Verdict v) {
  return static_cast<int>(v);
}

Verdict combine(Verdict a, Verdict b) {
  auto rank = [](Verdict v) {
    switch (v) {
      case Verdict::NotEquivalent:
        return 4;
      case Verdict::Error:
        return 3;
      case Verdict::Unsupported:
        return 2;
      case Verdict::Unknown:
        return 1;
      case Verdict::Equivalent:
        return 0;
    }
    return 0;
  };
  return rank(a) >= rank(b) ? a : b;
}

namespace {

std::vector<int64_t> unravel(size_t e, const std::vector<int64_t>& shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t k = shape.size(); k-- > 0;) {
    idx[k] = static_cast<int64_t>(e) % shape[k];
    e /= static_cast<size_t>(shape[k]);
  }
  return idx;
}

bool is_note(const std::string& f) {
  return f.find(": note: ") != std::string::npos;
}

// A frontend's "file:line: note: text" as a report note, which is printed after "note: ".
std::string as_note(std::string f) {
  if (size_t at = f.find(": note: "); at != std::string::npos) f.replace(at, 8, ": ");
  return f;
}

// Shapes, dtypes and findings: verdicts that need no proof.
std::optional<Report> structural(const Program& ref, const Program& cand, Report r) {
  for (const auto& f : cand.state.findings)
    is_note(f) ? r.notes.push_back(as_note(f)) : r.findings.push_back(f);
  auto shape = [](const torch::Tensor& t) {
    std::string s = std::string(torch::dtype_name(t.dtype)) + "[";
    for (size_t k = 0; k < t.shape.size(); ++k) s += (k ? ", " : "") + std::to_string(t.shape[k]);
    return s + "]";
  };
  if (ref.outputs.size() != cand.outputs.size()) {
    r.verdict = Verdict::NotEquivalent;
    r.reason = "the reference returns " + std::to_string(ref.outputs.size()) +
               " tensors, the candidate " + std::to_string(cand.outputs.size());
    return r;
  }
  for (size_t o = 0; o < ref.outputs.size(); ++o)
    if (ref.outputs[o]->shape != cand.outputs[o]->shape ||
        ref.outputs[o]->dtype != cand.outputs[o]->dtype) {
      r.verdict = Verdict::NotEquivalent;
      r.reason = "output " + std::to_string(o) + ": the reference gives " + shape(*ref.outputs[o]) +
                 ", the candidate " + shape(*cand.outputs[o]);
      return r;
    }
  if (!r.findings.empty()) {
    r.verdict = Verdict::NotEquivalent;
    r.reason = "the candidate's kernels access memory wrongly (findings below)";
    return r;
  }
  if (auto m = torch::parameter_mismatch(ref, cand)) {
    r.verdict = Verdict::Unknown;
    r.reason = "parameters are matched by creation order and these differ: " + *m;
    return r;
  }
  return std::nullopt;
}

}  // namespace

// Transcendentals and the approximate Triton ops are approximations (op table's ieee_exact;
// SEMANTICS-FACTS.md measures each); sums and products of three or more terms have no fixed
// order, and a reduction of two products may be one fma (cuDNN's: tests/fixtures/gpu/ops).
std::string ieee_approximation(const ir::TermStore& s, TermId t,
                               const std::map<TermId, std::string>& unfixed,
                               absl::flat_hash_map<TermId, std::string>& memo, bool pinned_ok) {
  if (auto it = memo.find(t); it != memo.end()) return it->second;
  ir::Op op = s.op(t);
  size_t arity = s.children(t).size();
  std::string why;
  auto product = [&](TermId c) { return s.op(c) == ir::Op::Mul; };
  if (op == ir::Op::Sum || op == ir::Op::Prod) {
    if (arity > 2)
      why = std::string(ir::op_name(op)) + " of " + std::to_string(arity) +
            " terms (order unspecified)";
    else if (op == ir::Op::Sum && std::ranges::any_of(s.children(t), product))
      why = "a reduction of products (may be one fma)";
  } else if (!ir::op_info(op).ieee_exact && !(pinned_ok && ir::op_info(op).gpu_pinned)) {
    why = std::string(ir::op_name(op)) + " (an approximation)";
  } else if (auto it = unfixed.find(t); it != unfixed.end()) {
    why = it->second;
  }
  // A term depends on whatever any of its subterms depends on.
  for (TermId c : s.children(t)) {
    if (!why.empty()) break;
    why = ieee_approximation(s, c, unfixed, memo, pinned_ok);
  }
  memo.emplace(t, why);
  return why;
}

// The largest finite value of a float dtype (its elements are fp32 values at most this large).
static double max_finite(torch::DType d) {
  switch (d) {
    case torch::DType::F16:
      return ir::format_info(ir::FloatFormat::F16).max_finite;
    case torch::DType::BF16:
      return ir::format_info(ir::FloatFormat::BF16).max_finite;
    case torch::DType::E4M3:
      return ir::format_info(ir::FloatFormat::E4M3FN).max_finite;
    case torch::DType::E5M2:
      return ir::format_info(ir::FloatFormat::E5M2).max_finite;
    default:
      return ir::format_info(ir::FloatFormat::F32).max_finite;
  }
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
  batch.seconds = left;
  batch.jobs = opt.jobs;
  std::vector<smt::BatchAnswer> answers = smt::check_batch(store, batch, range);
  for (size_t n = 0; n < open.size(); ++n) {
    smt::Result& res = answers[n].result;
    r.stats.smt_seconds += answers[n].seconds;
    r.stats.smt_refinements += res.refinements;
    ++r.stats.smt_queries;
    if (res.outcome == smt::Outcome::Proved) {
      ++r.stats.smt_proved;
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
    if (reason.empty()) reason = res.reason;
  }
}

namespace {
Report verify_configuration(const std::string& ref_path, const std::string& cand_path,
                            const Options& options);
}  // namespace

Report verify(const std::string& ref_path, const std::string& cand_path, const Options& options) {
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                      std::chrono::duration<double>(std::max(0.0, options.timeout_s)));
  if (options.deadline) deadline = std::min(deadline, *options.deadline);
  ir::BudgetScope budget(deadline, options.max_memory_bytes);
  try {
    return verify_configuration(ref_path, cand_path, options);
  } catch (const ir::BudgetExceeded& e) {
    Report r;
    r.bound = dims_str(options.dims) + (options.default_bound ? " (default bound)" : "");
    r.semantics = options.semantics;
    r.verdict = Verdict::Unknown;
    r.reason = std::string("stopped: ") + e.what() + " before this configuration was decided";
    r.out_of_time = !e.memory_exhausted;
    return r;
  } catch (const std::bad_alloc&) {
    Report r;
    r.bound = dims_str(options.dims);
    r.verdict = Verdict::Unknown;
    r.reason = "the memory budget was exhausted";
    return r;
  } catch (const std::runtime_error& e) {  // a rules folder that cannot be read, and the like
    Report r;
    r.bound = dims_str(options.dims);
    r.verdict = Verdict::Error;
    r.reason = e.what();
    return r;
  }
}

namespace {

// One configuration's run: an ordered list of stages over one term store. Each stage settles
// what it can and says so in the report; one that decides the verdict (a program that cannot
// run, a shape mismatch, a confirmed counterexample) ends the run. Counterexamples from any
// stage are replayed (Witness::differs) before they count.
class Pipeline {
 public:
  Pipeline(const std::string& ref_path, const std::string& cand_path, const Options& options)
      : ref_path_(ref_path), cand_path_(cand_path), opt_(options) {}

  Report run() {
    struct Stage {
      bool (Pipeline::*run)();  // false: the report is final
      const char* name;         // for --timeout's watchdog (Options::stage)
    };
    static constexpr Stage kStages[] = {
        {&Pipeline::start, "start"},  // the configuration's share of the run's --timeout
        {&Pipeline::run_programs, "running the programs"},  // DESIGN.md's table if they cannot
        {&Pipeline::structure, "structure"},                // shapes, dtypes, memory findings
        {&Pipeline::dedup, "dedup"},                  // pairs equal up to renaming are checked once
        {&Pipeline::exhaustive, "exhaustive sweep"},  // --exhaustive: every value of one input
        {&Pipeline::set_aside_unfixed, "set-aside"},  // IEEE: pairs whose bits no one fixes
        {&Pipeline::probe, "probe"},                  // a few witness points before any proof
        {&Pipeline::egraph, "e-graph"},               // rewrites and normal forms
        {&Pipeline::witness_search, "witness search"},  // the residue, point by point
        {&Pipeline::smt, "Z3"},                         // what is left
    };
    for (const Stage& stage : kStages) {
      if (opt_.stage) opt_.stage->store(stage.name);
      double began = elapsed();
      bool go_on = true;
      try {
        go_on = (this->*stage.run)();
      } catch (const ir::BudgetExceeded& e) {
        // The report says where the time went: the stages so far and the one it stopped in.
        r_.stats.stage_seconds.push_back({stage.name, elapsed() - began});
        r_.verdict = Verdict::Unknown;
        r_.reason = std::string("stopped: ") + e.what() + " in the " + stage.name +
                    " stage, before this configuration was decided";
        r_.out_of_time = !e.memory_exhausted;
        r_.counterexample.reset();  // one not yet replayed in full is no verdict
        r_.stats.unknown = pairs_.size() + approximate_ - r_.stats.egraph_proved -
                           r_.stats.witness_refuted - r_.stats.smt_proved - r_.stats.smt_refuted;
        r_.stats.seconds = elapsed();
        return once_each(std::move(r_));
      }
      r_.stats.stage_seconds.push_back({stage.name, elapsed() - began});
      if (!go_on) return once_each(std::move(r_));
    }
    conclude();
    return once_each(std::move(r_));
  }

 private:
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
  bool dedup();
  void take_known_constants();
  bool exhaustive();
  bool set_aside_unfixed();
  bool probe();
  bool egraph();
  std::unique_ptr<rules::Proof> prove(const std::vector<size_t>& which, size_t element_terms,
                                      double seconds);
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
  Program ref_, cand_;
  Domains domains_;
  std::vector<Pair> pairs_;
  std::vector<bool> proved_;
  std::vector<size_t> open_;  // after the witness search: the pairs Z3 gets
  std::unique_ptr<Witness> witness_;
  size_t approximate_ = 0;             // IEEE pairs set aside
  std::vector<Pair> zero_sign_pairs_;  // of those, the ones the witness search may refute
  std::string approximate_why_, smt_reason_;
  bool timed_out_ = false;
  std::optional<Pair> explained_;  // the element --explain names
};

bool Pipeline::start() {
  // This configuration's budget: its own timeout, within what the whole run has left.
  if (opt_.deadline)
    opt_.timeout_s =
        std::min(opt_.timeout_s, std::chrono::duration<double>(*opt_.deadline - start_).count());
  r_.dims = opt_.dims;
  r_.bound = dims_str(opt_.dims) + (opt_.default_bound ? " (default bound)" : "");
  r_.nonfinite_inputs = opt_.nonfinite_inputs;
  r_.semantics = opt_.semantics;
  if (opt_.timeout_s > 0) return true;
  r_.verdict = Verdict::Unknown;
  r_.reason = "the run's --timeout was spent before this configuration started";
  r_.not_started = true;
  return false;
}

// DESIGN.md, "When a program cannot run": what keq does not model is UNSUPPORTED; a missing or
// unreadable file is an ERROR; a reference Python or torch rejects is an ERROR; a candidate
// they reject at a configuration the reference runs is NOT_EQUIVALENT.
bool Pipeline::run_programs() {
  Report& r = r_;
  const Options& opt = opt_;
  ir::TermStore& store = store_;
  Program &ref = ref_, &cand = cand_;
  const std::string &ref_path = ref_path_, &cand_path = cand_path_;
  bool ran_reference = false;
  try {
    ref = torch::run_program(ref_path, store, "Model", opt.dims, opt.params_initial, opt.eval_mode);
    ran_reference = true;
    cand = torch::run_candidate(cand_path, ref_path, store, opt.dims, opt.params_initial,
                                "ModelNew", opt.autotune_config, opt.eval_mode);
    r.autotune_configs = cand.state.autotune_configs;
    r.autotune_signatures = cand.state.autotune_signatures;
    for (const auto& c : cand.state.autotune_used) r.bound += "; autotune: " + c;
  } catch (const python::Unsupported& e) {
    r.verdict = Verdict::Unsupported, r.reason = e.what();
    return false;
  } catch (const python::FileUnreadable& e) {
    r.verdict = Verdict::Error, r.reason = e.what();
    return false;
  } catch (const ir::SyntaxError& e) {
    if (!ran_reference) {
      r.verdict = Verdict::Error, r.reason = std::string("the reference: ") + e.what();
    } else {
      r.verdict = Verdict::NotEquivalent;
      r.reason = std::string("the candidate does not run: Python rejects it: ") + e.what();
      r.cannot_run = true;
    }
    return false;
  } catch (const python::ProgramError& e) {
    if (e.assertion) {  // DESIGN.md: an assert rejects a configuration; the bound chooses others
      r.verdict = Verdict::Unknown;
      r.reason = std::string(ran_reference ? "the candidate's" : "the reference's") +
                 " assert rejects this configuration: " + e.what();
      r.assert_rejected = true;
      return false;
    }
    r.reference_stopped = !ran_reference;
    if (!e.confirmed) {  // keq's model refuses the arguments: maybe keq's gap, so no verdict
      r.verdict = Verdict::Unsupported;
      r.reason = std::string(ran_reference ? "the candidate" : "the reference") +
                 " stops in keq's model, which torch/Triton may not do: " + e.what();
      return false;
    }
    if (!ran_reference) {
      r.verdict = Verdict::Error, r.reason = std::string("the reference raises: ") + e.what();
    } else {
      r.verdict = Verdict::NotEquivalent;
      r.reason = std::string(
                     "the candidate raises at this configuration, where the reference "
                     "runs: ") +
                 e.what();
      r.cannot_run = true;
    }
    return false;
  }
  return true;
}

bool Pipeline::structure() {
  for (const auto* st : {&ref_.state, &cand_.state})
    r_.flattened.insert(r_.flattened.end(), st->flattened.begin(), st->flattened.end());
  if (opt_.stop_if_flattened && !r_.flattened.empty()) {
    r_.verdict = Verdict::Unknown;
    r_.reason = "not verified: these sizes flatten " + r_.flattened[0];
    return false;
  }
  r_.masks = cand_.state.mask_coverage;
  r_.loops = cand_.state.loop_trips;
  r_.blocks = cand_.state.block_sizes;
  r_.mask_limits = cand_.state.mask_limits;
  r_.loop_steps = cand_.state.loop_steps;
  if (!cand_.state.int32_offsets.empty()) {
    torch::Dims file = torch::file_dims(ref_path_);
    r_.file_size_findings = int32_offset_findings(cand_.state.int32_offsets,
                                                  opt_.dims.empty() ? file : opt_.dims, file);
  }
  r_.coverage = coverage_warnings({r_});
  for (const auto* st : {&ref_.state, &cand_.state})
    for (const auto& a : st->host_assumptions) r_.notes.push_back("host assumption: " + a);
  if (auto s = structural(ref_, cand_, r_)) {
    r_ = *s;
    return false;
  }
  for (const auto& f : cand_.state.findings) r_.notes.push_back(as_note(f));
  if (auto m = torch::unmatched_parameters(ref_, cand_)) r_.notes.push_back("parameters: " + *m);
  return true;
}

bool Pipeline::dedup() {
  if (opt_.semantics == ir::Semantics::Real) take_known_constants();
  domains_ = domains_of(ref_, cand_, opt_.nonfinite_inputs);
  std::vector<Pair> all;
  // The same term is equal by construction, except in IEEE where its bits are not fixed: torch's
  // sum and tl.sum of three terms are one term that the two frameworks add in different orders,
  // and an approximation one term that each framework lowers its own way. Those are set aside.
  bool ieee = opt_.semantics == ir::Semantics::Ieee;
  std::map<TermId, std::string> unfixed = ieee ? unfixed_terms() : std::map<TermId, std::string>{};
  absl::flat_hash_map<TermId, std::string> memo;
  for (size_t o = 0; o < ref_.outputs.size(); ++o)
    for (size_t e = 0; e < ref_.outputs[o]->elems.size(); ++e) {
      ++r_.stats.pairs;
      Pair p{ref_.outputs[o]->elems[e], cand_.outputs[o]->elems[e], o, e};
      if (p.ref != p.cand ||
          (ieee && !ieee_approximation(store_, p.ref, unfixed, memo, /*pinned_ok=*/true).empty()))
        all.push_back(p);
    }
  PairKeys key(store_, domains_, all);
  absl::flat_hash_map<std::vector<uint64_t>, size_t> first;
  for (const Pair& p : all)
    if (first.try_emplace(key(p.ref, p.cand), pairs_.size()).second) pairs_.push_back(p);
  r_.stats.deduped = pairs_.size();
  witness_ = std::make_unique<Witness>(store_, domains_, opt_.seed, opt_.semantics);
  return true;
}

// Real semantics: literals within an fp32 ulp of log2 e, ln 2, sqrt 2, 1/sqrt 2 are those
// constants, on both sides alike, and the report lists each as an assumption.
void Pipeline::take_known_constants() {
  std::vector<TermId> roots;
  for (const Program* p : {&ref_, &cand_})
    for (const auto& out : p->outputs)
      roots.insert(roots.end(), out->elems.begin(), out->elems.end());
  for (const std::string& a : internal::take_known_constants(store_, roots))
    r_.notes.push_back("assumption: " + a);
  size_t k = 0;
  for (Program* p : {&ref_, &cand_})
    for (auto& out : p->outputs)
      for (TermId& e : out->elems) e = roots[k++];
}

// --exhaustive: pairs of one input element settled by evaluating every value of it.
bool Pipeline::exhaustive() {
  if (!opt_.exhaustive) return true;
  internal::Exhaustion x =
      internal::exhaust(store_, pairs_, domains_, time_left(), unfixed_terms());
  if (!x.note.empty()) r_.notes.push_back(x.note);
  if (x.refuted) {
    refute_on_device(pairs_[x.refuted->pair], *x.refuted, "a counterexample found by exhaustion",
                     pairs_.size() - 1);
    return false;
  }
  r_.stats.exhaustion_proved = x.proved.size();
  std::vector<bool> drop(pairs_.size(), false);
  for (size_t k : x.proved) drop[k] = true;
  std::vector<Pair> rest;
  for (size_t k = 0; k < pairs_.size(); ++k)
    if (!drop[k]) rest.push_back(pairs_[k]);
  pairs_ = std::move(rest);
  return true;
}

// IEEE semantics: a pair whose bits depend on an approximation or on a reduction order is
// neither proved nor refuted (the bits of neither side are known); the rest go on. A pair whose
// only unknown is the sign of a zero (TorchState::ieee_zero_sign) is not proved either, but the
// witness search may refute it at a point where none of those terms is zero.
bool Pipeline::set_aside_unfixed() {
  if (opt_.semantics != ir::Semantics::Ieee) return true;
  absl::flat_hash_map<TermId, std::string> memo, zero_memo;
  std::map<TermId, std::string> unfixed = unfixed_terms(false), zero_sign = zero_sign_terms();
  std::vector<Pair> exact, aside;
  auto why_of = [&](const Pair& p, const std::map<TermId, std::string>& terms,
                    absl::flat_hash_map<TermId, std::string>& m) {
    std::string why = ieee_approximation(store_, p.ref, terms, m);
    return why.empty() ? ieee_approximation(store_, p.cand, terms, m) : why;
  };
  for (const Pair& p : pairs_) {
    std::string why = why_of(p, unfixed, memo);
    bool zero_only = why.empty() && !(why = why_of(p, zero_sign, zero_memo)).empty();
    if (why.empty()) {
      exact.push_back(p);
      continue;
    }
    (zero_only ? zero_sign_pairs_ : aside).push_back(p);
    if (approximate_++ == 0) approximate_why_ = why;
  }
  std::vector<TermId> zero_terms;
  for (const auto& [t, why] : zero_sign) zero_terms.push_back(t);
  witness_->set_zero_sign_terms(std::move(zero_terms));
  pairs_ = std::move(exact);
  if (approximate_)
    r_.notes.push_back(
        "ieee: " + std::to_string(approximate_) +
        " output pairs depend on what keq does not model bit for bit, first: " + approximate_why_);
  if (opt_.device != runner::Device::Cuda || aside.empty()) return true;
  // With a GPU, the pairs whose approximations are all pinned lowerings are sampled there.
  internal::Replay replay = internal::gpu_replay(store_, aside, domains_, time_left(), unfixed);
  if (!replay.note.empty()) r_.notes.push_back(replay.note);
  if (!replay.refuted) return true;
  refute_on_device(aside[replay.refuted->pair], *replay.refuted,
                   "a counterexample replayed on the GPU", pairs_.size() + approximate_ - 1);
  return false;
}

// A counterexample from generated code: the device's values, confirmed as exhaust.h says.
void Pipeline::refute_on_device(const Pair& p, const internal::Exhaustion::Refuted& x,
                                const std::string& reason, size_t unknown) {
  Counterexample c;
  c.output = p.output;
  c.index = unravel(p.element, ref_.outputs[p.output]->shape);
  c.inputs = x.inputs;
  c.ref_value = x.ref_value, c.cand_value = x.cand_value;
  c.difference = "different bits";
  c.found_by = x.how;
  r_.counterexample = c;
  r_.verdict = Verdict::NotEquivalent;
  r_.reason = reason;
  r_.stats.unknown = unknown;
  r_.stats.seconds = elapsed();
}

// The terms the frontends know the frameworks round otherwise, both programs (one store); with
// zero_sign, also those whose zero's sign alone is the kernel's.
std::map<TermId, std::string> Pipeline::unfixed_terms(bool zero_sign) const {
  std::map<TermId, std::string> unfixed = ref_.state.ieee_unfixed;
  unfixed.insert(cand_.state.ieee_unfixed.begin(), cand_.state.ieee_unfixed.end());
  if (zero_sign) unfixed.merge(zero_sign_terms());
  return unfixed;
}

std::map<TermId, std::string> Pipeline::zero_sign_terms() const {
  std::map<TermId, std::string> terms = ref_.state.ieee_zero_sign;
  terms.insert(cand_.state.ieee_zero_sign.begin(), cand_.state.ieee_zero_sign.end());
  return terms;
}

// These options with what the configuration has left of --timeout (generated code's limit).
Options Pipeline::time_left() const {
  Options left = opt_;
  left.timeout_s = std::max(1.0, opt_.timeout_s - elapsed());
  return left;
}

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
  r_.counterexample = c;
  r_.verdict = Verdict::NotEquivalent;
  r_.reason = "a counterexample that replay confirms";
}

// The symbolic tensors each of forward's tensor arguments comes from, and whether it is that
// tensor itself (an argument get_inputs() computed, randint(0, 2) * 2 - 1, is not).
std::map<std::string, Pipeline::ArgumentSource> Pipeline::argument_sources() const {
  std::map<std::string, ArgumentSource> out;
  for (size_t j = 0; j < ref_.forward_args.size() && j < ref_.forward_params.size(); ++j) {
    const python::Ref& a = ref_.forward_args[j];
    if (a->kind != python::Value::Kind::Tensor || a->tensor->elems.empty()) continue;
    TermId first = a->tensor->elems[0];
    if (first == torch::Tensor::kUninit) continue;
    absl::flat_hash_map<TermId, bool> seen;
    std::vector<TermId> vars;
    std::vector<double> consts;
    collect(store_, first, seen, vars, consts);
    std::set<std::string> sources;
    for (TermId v : vars) sources.insert(tensor_of(store_.variable_of(v).name));
    bool itself = store_.op(first) == ir::Op::Var;
    // An argument drawn from several tensors (anchor = torch.rand(...) * scale) names each.
    for (const std::string& source : sources) {
      ArgumentSource from{ref_.forward_params[j], itself, ""};
      for (const std::string& o : sources)
        if (o != source) from.others += (from.others.empty() ? "" : ", ") + o;
      out.emplace(source, from);
    }
  }
  return out;
}

// What the counterexample's tensors are: forward's argument names for inputs (in0 is the first
// tensor get_inputs() drew, which need not be forward's first argument), the creating module
// for parameters.
std::vector<std::string> Pipeline::names_of(const Counterexample& c) const {
  std::set<std::string> used;
  for (const auto& [element, value] : c.inputs) used.insert(tensor_of(element));
  auto arguments = argument_sources();
  std::vector<std::string> out;
  for (const auto* list : {&ref_.state.inputs, &ref_.state.parameters})
    for (size_t k = 0; k < list->size(); ++k) {
      const torch::SymbolicTensor& t = (*list)[k];
      if (!used.count(t.name)) continue;
      std::string what =
          list == &ref_.state.parameters
              ? "the reference's parameter " + std::to_string(k + 1) + " (" + t.origin + ")"
              : t.origin + " in get_inputs()";
      if (auto arg = arguments.find(t.name); arg != arguments.end()) {
        const ArgumentSource& a = arg->second;
        what = a.itself ? "forward's argument `" + a.argument + "`"
                        : what + "; forward's argument `" + a.argument + "` is computed from it" +
                              (a.others.empty() ? "" : " and " + a.others);
      }
      out.push_back(t.name + ": " + what);
    }
  return out;
}

// A short probe before the e-graph: a wrong candidate usually differs at one of a few points of
// a few outputs, and then the e-graph need not saturate at all. Evaluating long terms is costly,
// so the probe samples at most kProbePairs pairs, spread over the outputs.
bool Pipeline::probe() {
  constexpr size_t kProbePairs = 8;
  size_t stride = std::max<size_t>(1, pairs_.size() / kProbePairs);
  for (size_t k = 0; k < pairs_.size() && !r_.counterexample; k += stride) {
    std::string how;
    if (auto point = witness_->probe(pairs_[k], how, r_.stats.witness_points)) {
      ++r_.stats.witness_refuted;
      refute(pairs_[k], *point, how);
    }
  }
  if (!r_.counterexample) return true;
  r_.stats.unknown = pairs_.size() + approximate_ - r_.stats.witness_refuted;
  r_.stats.seconds = elapsed();
  if (opt_.explain) r_.explanation = "nothing was proved: a counterexample came first";
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

// A term printed in full can run to megabytes (a row's sum); --explain shows its start.
static std::string abbreviated(std::string s) {
  constexpr size_t kShown = 2000;
  if (s.size() > kShown) s = s.substr(0, kShown) + " ... (" + std::to_string(s.size()) + " chars)";
  return s;
}

// The e-graph over the goals `which` (indices into pairs_, pairs_.size() for the explained one).
std::unique_ptr<rules::Proof> Pipeline::prove(const std::vector<size_t>& which,
                                              size_t element_terms, double seconds) {
  rules::ProverOptions po;
  po.semantics = opt_.semantics;
  po.normal_forms = opt_.normal_forms;
  po.element_terms = element_terms;
  po.explanations = explained_.has_value();
  po.limits = {30, 500000, seconds};
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
  std::vector<rules::Goal> goals;
  for (size_t k : which) {
    const Pair& p = k < pairs_.size() ? pairs_[k] : *explained_;
    goals.push_back({p.ref, p.cand});
  }
  return rules::prove(store_, goals, {}, rules::RuleSet::defaults(), po);
}

bool Pipeline::egraph() {
  Report& r = r_;
  const Options& opt = opt_;
  ir::TermStore& store = store_;
  std::vector<Pair>& pairs = pairs_;
  const std::optional<Pair>& explained = explained_;
  find_explained();
  std::vector<bool>& proved = proved_;
  proved.assign(pairs.size(), false);
  if (opt.use_egraph && !pairs.empty()) {
    // The explained pair is a goal like the others, so the run goes on until it is proved too.
    std::vector<size_t> which(pairs.size() + (explained ? 1 : 0));
    std::iota(which.begin(), which.end(), size_t{0});
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
    const egraph::RunReport& rep = proof->report;
    r.stats.egraph_iterations = rep.iterations.size();
    r.stats.egraph_nodes = proof->graph.memo_size();
    r.stats.egraph_stop = egraph::stop_reason_name(rep.stop);
  }
  for (bool b : proved) r.stats.egraph_proved += b;

  return true;
}

bool Pipeline::witness_search() {
  for (size_t k = 0; k < pairs_.size() && !r_.counterexample; ++k) {
    if (proved_[k]) continue;
    if ((timed_out_ = elapsed() > opt_.timeout_s)) break;
    std::string how;
    if (auto point =
            witness_->search(pairs_[k], opt_.witness_points, how, r_.stats.witness_points)) {
      ++r_.stats.witness_refuted;
      refute(pairs_[k], *point, how);
    } else {
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

void Pipeline::conclude() {
  Report& r = r_;
  r.stats.unknown = pairs_.size() + approximate_ - r.stats.egraph_proved - r.stats.witness_refuted -
                    r.stats.smt_proved - r.stats.smt_refuted;
  r.stats.seconds = elapsed();
  if (r.counterexample) return;
  if (r.stats.unknown == 0) {
    r.verdict = Verdict::Equivalent;
    size_t by_exhaustion = r.stats.exhaustion_proved, total = r.stats.deduped;
    if (by_exhaustion && by_exhaustion == total)
      r.reason = "every output element proved by exhaustion (every value of its input)";
    else
      r.reason = std::string(r.stats.smt_proved ? "every output element proved (e-graph and Z3"
                                                : "every output element proved (e-graph") +
                 (by_exhaustion ? ", " + std::to_string(by_exhaustion) + " by exhaustion)" : ")");
    if (!r.stats.smt_proved && !by_exhaustion)
      r.reason = "every output element proved by the e-graph";
    return;
  }
  r.verdict = Verdict::Unknown;
  r.out_of_time = r.stats.unknown > approximate_ && elapsed() > opt_.timeout_s;
  r.reason =
      std::to_string(r.stats.unknown) + " output pairs neither proved nor refuted" +
      (approximate_ ? "; " + std::to_string(approximate_) +
                          " depend on approximations or order (IEEE), first: " + approximate_why_
                    : "") +
      (r.stats.unknown == approximate_ ? ""
       : elapsed() > opt_.timeout_s    ? " before the timeout"
       : !opt_.use_smt                 ? " by the e-graph and the witness search (--no-smt)"
                                       : "; first reason: " + smt_reason_);
}

Report verify_configuration(const std::string& ref_path, const std::string& cand_path,
                            const Options& options) {
  return Pipeline(ref_path, cand_path, options).run();
}

}  // namespace

std::string dims_str(const torch::Dims& dims) {
  std::string r;
  for (const auto& [n, v] : dims) {
    r += (r.empty() ? "" : ",") + n + "=";
    for (size_t k = 0; k < v.size(); ++k) r += (k ? "x" : "") + std::to_string(v[k]);
  }
  return r.empty() ? "the sizes as written" : r;
}

std::vector<std::string> coverage_warnings(const std::vector<Report>& reports) {
  std::map<std::string, torch::TorchState::MaskCoverage> all;
  for (const Report& r : reports)
    for (const auto& [where, seen] : r.masks) {
      all[where].on |= seen.on;
      all[where].off |= seen.off;
    }
  std::map<std::string, unsigned> loops;
  for (const Report& r : reports)
    for (const auto& [where, bits] : r.loops) loops[where] |= bits;
  std::vector<std::string> out;
  for (const auto& [where, seen] : all)
    if (!seen.on || !seen.off)
      out.push_back(where + ": mask " + (seen.on ? "never false" : "never true") + ": " +
                    (seen.on ? "no masked-off (tail) lane" : "no lane") +
                    " of this access was checked at this bound");
  for (const auto& [where, bits] : loops)
    if (!(bits & 4u))
      out.push_back(where +
                    ": loop never ran more than one trip: what it carries from one trip "
                    "to the next was not checked at this bound");
  return out;
}

}  // namespace keq::verify
