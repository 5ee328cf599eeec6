// The pipeline's first stages: running both programs (DESIGN.md's table when one cannot),
// shapes and memory findings, pair dedup, known constants, and the names a counterexample gives.
#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>

#include "frontends/python/python.h"
#include "verify/index_overflow.h"
#include "verify/known_constants.h"
#include "verify/pair_key.h"
#include "verify/pipeline.h"
#include "verify/terms_key.h"

namespace keq::verify {

using namespace internal;

namespace {

// The same file, or one with the same text: the reference passed as the candidate.
bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (std::filesystem::equivalent(a, b, ec)) return true;
  return python::read_source_file(a) == python::read_source_file(b);  // both read already
}

constexpr const char* kMemoryFindingsReason =
    "the candidate's kernels access memory wrongly (findings below)";

bool is_note(const std::string& f) {
  return f.find(": note: ") != std::string::npos;
}

// A frontend's "file:line: note: text" as a report note, which is printed after "note: ".
std::string as_note(std::string f) {
  if (size_t at = f.find(": note: "); at != std::string::npos) f.replace(at, 8, ": ");
  return f;
}

// Float inputs whose range get_inputs() narrows (torch.rand's [0, 1)): a verdict holds over that
// range only (DESIGN.md), which the report says, with the option that widens it.
std::vector<std::string> input_range_notes(const torch::TorchState& st, const std::string& file) {
  std::vector<std::string> out;
  for (const torch::SymbolicTensor& t : st.inputs) {
    if (!torch::is_float(t.dtype) || (t.lo == -INFINITY && t.hi == INFINITY)) continue;
    char range[96];
    std::snprintf(range, sizeof range, "[%.9g, %.9g%s", t.lo, t.hi, t.hi_open ? ")" : "]");
    out.push_back("inputs: " + t.name + " (" + t.origin + " at " + file + ":" +
                  std::to_string(t.at.line) + ":" + std::to_string(t.at.col) + ") ranges over " +
                  range + ", what get_inputs() draws; --any-inputs takes any finite value");
  }
  return out;
}

// The candidate's parameters its outputs use, by creation index: a registered parameter that
// __init__ overwrote (weight.copy_(lin.weight)) leaves them on the variables copied in.
std::vector<bool> used_parameters(const ir::TermStore& s, const Program& cand) {
  absl::flat_hash_map<std::string, size_t> index;
  for (size_t k = 0; k < cand.state.parameters.size(); ++k)
    index[cand.state.parameters[k].name] = k;
  std::vector<bool> used(cand.state.parameters.size(), false);
  absl::flat_hash_set<TermId> seen;
  std::vector<TermId> stack;
  for (const auto& o : cand.outputs)
    for (TermId e : o->elems)
      if (e != torch::Tensor::kUninit) stack.push_back(e);
  while (!stack.empty()) {
    TermId t = stack.back();
    stack.pop_back();
    if (!seen.insert(t).second) continue;
    if (s.op(t) == ir::Op::Var)
      if (auto it = index.find(tensor_of(s.variable_of(t).name)); it != index.end())
        used[it->second] = true;
    for (TermId c : s.children(t)) stack.push_back(c);
  }
  return used;
}

// Shapes, dtypes and findings: verdicts that need no proof.
std::optional<Report> structural(const ir::TermStore& s, const Program& ref, const Program& cand,
                                 Report r) {
  // A finding in the reference (its output hangs on memory nothing defined, such as a host read
  // of torch.empty, or its own kernel accesses memory wrongly): as if it raised (DESIGN.md's
  // table), never a verdict against the candidate.
  for (const auto& f : ref.state.findings)
    if (!is_note(f)) {
      r.verdict = Verdict::Error;
      r.reference_stopped = true;
      r.reason = "the reference: " + f;
      return r;
    }
  for (const auto& f : cand.state.findings)
    is_note(f) ? r.notes.push_back(as_note(f)) : r.findings.push_back(f);
  r.findings_unlisted = cand.state.findings_unlisted;
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
    r.reason = kMemoryFindingsReason;
    return r;
  }
  if (!cand.state.parameter_aliases.empty()) return std::nullopt;  // a pairing verify() chose
  if (auto m = torch::parameter_mismatch(ref, cand)) {
    r.verdict = Verdict::Unknown;
    r.reason = "parameters are matched by creation order and these differ: " + *m;
    r.parameters_unpaired = true;
    r.parameter_pairings =
        torch::parameter_pairings(ref, cand, kMaxParameterPairings, used_parameters(s, cand));
    return r;
  }
  return std::nullopt;
}

}  // namespace

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
    torch::ModelClasses classes =
        torch::model_classes(ref_path, cand_path, opt.ref_class, opt.cand_class);
    r.ref_class = classes.reference, r.cand_class = classes.candidate;
    ref = torch::run_program(ref_path, store, classes.reference, opt.dims, opt.params_initial,
                             opt.eval_mode, opt.any_inputs);
    ran_reference = true;
    if (!classes.note.empty()) ref.state.host_assumptions.insert(classes.note);
    cand =
        torch::run_candidate(cand_path, ref_path, store, opt.dims, opt.params_initial,
                             classes.candidate, opt.autotune_config, opt.eval_mode, &timing_, false,
                             opt.any_inputs, opt.parameter_pairing, ref.state.parameters.size());
    r.autotune_configs = cand.state.autotune_configs;
    r.autotune_signatures = cand.state.autotune_signatures;
    for (const auto& o : ref.state.parameter_objects)
      r.ref_parameter_objects.push_back(o.parameter);
    for (const auto& o : cand.state.parameter_objects)
      r.cand_parameter_objects.push_back(o.parameter);
    for (const auto& c : cand.state.autotune_used) r.bound += "; autotune: " + c;
  } catch (const python::Unsupported& e) {
    r.verdict = Verdict::Unsupported, r.reason = e.what();
    r.size_limited = e.size_limit;
    return false;
  } catch (const python::FileUnreadable& e) {
    r.verdict = Verdict::Error, r.reason = e.what();
    r.bad_input = true;
    return false;
  } catch (const python::MissingDefinition& e) {
    // A candidate file that runs and defines no ModelNew (an LLM's answer cut off before its
    // class) cannot run what KernelBench runs: DESIGN.md's table makes that NOT_EQUIVALENT. The
    // reference passed twice, or a reference without Model, is a bad invocation.
    if (ran_reference && !same_file(ref_path, cand_path)) {
      r.verdict = Verdict::NotEquivalent;
      r.reason = std::string("the candidate does not run: ") + e.what();
      r.cannot_run = true;
      return false;
    }
    r.verdict = Verdict::Error, r.reason = e.what();
    r.bad_input = true;
    return false;
  } catch (const ir::SyntaxError& e) {
    if (!ran_reference) {
      r.verdict = Verdict::Error, r.reason = std::string("the reference: ") + e.what();
      r.bad_input = true;
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
      r.reference_asserted = !ran_reference;
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
  r_.branches = cand_.state.branch_ways;
  for (const auto& [where, k] : cand_.state.kernels_run)  // the candidate's own, not a library's
    if (where.rfind(cand_path_ + ":", 0) == 0) r_.kernels[where] = k;
  r_.blocks = cand_.state.block_sizes;
  r_.mask_limits = cand_.state.mask_limits;
  r_.loop_steps = cand_.state.loop_steps;
  if (!cand_.state.int32_offsets.empty() || !cand_.state.int32_products.empty()) {
    torch::Dims file = torch::file_dims(ref_path_);
    const torch::Dims& bound = opt_.dims.empty() ? file : opt_.dims;
    r_.file_size_findings = int32_offset_findings(cand_.state.int32_offsets, bound, file);
    for (std::string& f : int32_product_findings(cand_.state.int32_products, bound, file))
      r_.file_size_findings.push_back(std::move(f));
  }
  r_.coverage = coverage_warnings({r_});
  for (const auto* st : {&ref_.state, &cand_.state})
    for (const auto& a : st->host_assumptions) r_.notes.push_back("host assumption: " + a);
  for (const std::string& n : input_range_notes(ref_.state, ref_.inputs_file))
    r_.notes.push_back(n);
  if (auto s = structural(store_, ref_, cand_, r_)) {
    r_ = *s;
    // The findings decide; where the parameters pair as created, the outputs go on to dedup
    // and a probe for a counterexample too (findings_counterexample).
    auto all_written = [](const torch::Program& p) {
      for (const auto& out : p.outputs)
        for (TermId e : out->elems)
          if (e == torch::Tensor::kUninit) return false;
      return true;
    };
    // Only reads (loads out of bounds, undefined lanes): a race, an order-dependent atomic or a
    // store or atomic out of bounds leaves values that keq's one schedule (or its dropped write)
    // fixes and the GPU need not.
    if (r_.reason == kMemoryFindingsReason && !cand_.state.findings_beyond_loads &&
        cand_.state.parameter_aliases.empty() && !torch::parameter_mismatch(ref_, cand_) &&
        all_written(ref_) && all_written(cand_)) {
      decided_by_findings_ = r_;
      return true;
    }
    return false;
  }
  for (const auto& f : cand_.state.findings) r_.notes.push_back(as_note(f));
  if (!cand_.state.parameter_aliases.empty()) {
    r_.notes.push_back(
        "parameters: paired by shape where creation order "
        "alone does not pair them: " +
        torch::describe_pairing(ref_, cand_) +
        " (a parameter paired with nothing takes values of its own, unless it is made from "
        "deterministic values, which it holds)");
  } else {
    if (auto m = torch::unmatched_parameters(ref_, cand_)) r_.notes.push_back("parameters: " + *m);
    if (auto m = torch::narrowed_parameters(ref_, cand_)) r_.notes.push_back("parameters: " + *m);
  }
  // A candidate that falls back to torch (in training mode, off the GPU) proves nothing about
  // its kernels: say so beside a verdict that is about the torch operations it ran.
  const auto& defined = cand_.state.kernels_defined;
  if (cand_.state.launches.empty() && !defined.empty()) {
    std::string names;
    for (size_t k = 0; k < defined.size() && k < 3; ++k) names += (k ? ", " : "") + defined[k];
    if (defined.size() > 3) names += ", ...";
    r_.notes.push_back("no Triton kernel ran: " + cand_.class_name +
                       " computed its outputs with torch operations only at this configuration (" +
                       names + " defined, never launched)");
  }
  return !proved_by_earlier_config();
}

// Autotune configs whose blocks cover these sizes alike build the very same terms: 3 configs of
// a bidirectional GRU cell kernel at 2 x 3 x 4 x 5 spent 8 s each proving one thing. Such a
// config has the earlier one's proof (the same terms over the same inputs). A finding of its
// own that decides a verdict ended the configuration in structural() already.
bool Pipeline::proved_by_earlier_config() {
  if (r_.autotune_configs < 2 || opt_.structure_only) return false;
  // Keyed only where an earlier proof can be compared or a later config will run: the key walks
  // every term (a conv's implicit GEMM: most of a run's structure stage).
  const bool later = opt_.every_autotune_config && opt_.autotune_config + 1 < r_.autotune_configs;
  if (opt_.proven_terms.empty() && !later) return false;
  // A reference that launched no kernel builds the same terms whatever the autotune config (the
  // only option that differs between them): the candidate's alone are keyed then.
  std::vector<const torch::Program*> keyed{&cand_};
  if (!ref_.state.launches.empty()) keyed.insert(keyed.begin(), &ref_);
  r_.terms = std::make_shared<const std::vector<uint64_t>>(
      terms_key(store_, keyed, opt_.semantics == ir::Semantics::Real));
  for (const Options::ProvenTerms& p : opt_.proven_terms) {
    if (*p.terms != *r_.terms) continue;
    r_.verdict = Verdict::Equivalent;
    r_.reason =
        "every output element proved: both programs build the same terms as at autotune "
        "config " +
        std::to_string(p.autotune_config + 1) + ", proved above";
    for (const auto& out : ref_.outputs) r_.stats.pairs += out->elems.size();
    r_.stats.seconds = elapsed();
    return true;
  }
  return false;
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
  keep_distinct_pairs(all);
  r_.stats.deduped = pairs_.size();
  witness_ = std::make_unique<Witness>(store_, domains_, opt_.seed, opt_.semantics);
  return true;
}

// Pairs equal up to renaming are kept once, within a budget proportional to the terms (the
// e-graph's own cost), at least about a second.
void Pipeline::keep_distinct_pairs(const std::vector<Pair>& all) {
  constexpr uint64_t kMinWork = uint64_t{1} << 26, kWorkPerTerm = 256;
  const uint64_t budget = std::max(kMinWork, kWorkPerTerm * store_.size());
  size_t keyed = 0;
  uint64_t work = 0;
  pairs_ = distinct_pairs(store_, domains_, all, budget, keyed, work);
  if (keyed < all.size())
    r_.notes.push_back("dedup: stopped after " + std::to_string(keyed) + " of " +
                       std::to_string(all.size()) + " output pairs (" + std::to_string(work) +
                       " steps, past " + std::to_string(budget) + " for " +
                       std::to_string(store_.size()) + " terms); the other " +
                       std::to_string(all.size() - keyed) + " are checked each");
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

}  // namespace keq::verify
