// The argmax and argmin chains stage of Pipeline (verify/arg_chain.h): before the e-graph, a pair
// whose two sides both read as first-extreme chains over the same entries is proved.
#include "ir/enclosure.h"
#include "verify/arg_chain.h"
#include "verify/pipeline.h"

namespace keq::verify::internal {

bool Pipeline::arg_chains() {
  if (!opt_.use_egraph) return true;
  if (proved_.size() != pairs_.size()) proved_.assign(pairs_.size(), false);
  absl::flat_hash_map<TermId, bool> finite;
  auto inputs = [this](const ir::Variable& v) { return input_range(v); };
  auto is_finite = [&](TermId v) {
    auto [it, fresh] = finite.try_emplace(v, false);
    if (fresh) it->second = ir::evaluate_enclosure_over(store_, v, inputs).surely_finite();
    return it->second;
  };
  auto same = [](const ArgChain& a, const ArgChain& b) {
    return a.is_max == b.is_max && a.entries == b.entries;
  };
  for (size_t k = 0; k < pairs_.size(); ++k) {
    const Pair& p = pairs_[k];
    // An index is an integer select: anything else is not a chain, and is not walked.
    if (proved_[k] || !ir::is_int(store_.type(p.ref)) || store_.type(p.ref) != store_.type(p.cand))
      continue;
    auto ref = arg_chain_of(store_, p.ref, is_finite);
    if (!ref) continue;
    auto cand = arg_chain_of(store_, p.cand, is_finite);
    if (cand && same(*ref, *cand)) {
      proved_[k] = true;
      ++r_.stats.chains_proved;
    }
  }
  return true;
}

}  // namespace keq::verify::internal
