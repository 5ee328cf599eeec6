// keq verify --exhaustive (IEEE semantics): output pairs that are functions of one input element
// are settled by evaluating both sides at every value of that input's format (every fp32 value,
// or every fp16 one) with generated code, on the GPU or the CPU (runner/). A pair with no
// differing input is proved "by exhaustion"; a differing input is a counterexample, confirmed by
// keq's evaluator where the sides' bits are fixed, or "replayed on the GPU" where they depend on
// a lowering keq pins (div.full, sqrt.approx, log, log2). Internal to verify/.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "verify/verify.h"
#include "verify/witness.h"

namespace keq::verify::internal {

struct Exhaustion {
  std::vector<size_t> proved;  // indices into the pairs given
  struct Refuted {
    size_t pair;
    std::vector<std::pair<std::string, std::string>> inputs;  // variable, value
    std::string ref_value, cand_value, how;
  };
  std::optional<Refuted> refuted;  // the first pair with a differing input
  size_t unary = 0;                // pairs of one input element: what was swept
  uint64_t inputs = 0;             // inputs evaluated, all pairs together
  std::string note;                // what the report says about the sweep
};

// `unfixed`: the terms the frontends know the frameworks round otherwise; a pair that depends on
// them, on an unpinned approximation, or on a sum of unspecified order is not swept.
Exhaustion exhaust(ir::TermStore& s, const std::vector<Pair>& pairs, const Domains& domains,
                   const Options& opt, const std::map<TermId, std::string>& unfixed);

// IEEE with --device cuda: the pairs set aside because their bits depend on approximations, where
// every approximation is a lowering keq pins, are evaluated on the GPU at sampled inputs of their
// domains (special values, then random ones: 2^22 per pair). A differing input is a counterexample
// "replayed on the GPU"; none proves nothing (sampled), so those pairs stay unknown.
struct Replay {
  std::optional<Exhaustion::Refuted> refuted;
  size_t pairs = 0;     // pairs replayed
  uint64_t inputs = 0;  // inputs evaluated, all pairs together
  std::string note;
};
Replay gpu_replay(ir::TermStore& s, const std::vector<Pair>& pairs, const Domains& domains,
                  const Options& opt, const std::map<TermId, std::string>& unfixed);

}  // namespace keq::verify::internal
