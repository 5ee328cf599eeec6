// IEEE semantics' stages: the pairs whose bits depend on an approximation or an order (set
// aside, or refuted where only a zero's sign is unknown), and --exhaustive's sweeps.
#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>

#include "verify/pipeline.h"

namespace keq::verify {

using namespace internal;

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

}  // namespace keq::verify
