// The default bound's runs of the candidate alone: a kernel's mask limits, loop steps and the
// ways its conditions went at a size, without a proof, bounded in runs and in seconds.
#include <chrono>
#include <exception>

#include "ir/budget.h"
#include "verify/bound_sizes.h"

namespace keq::verify::internal {

size_t config_of(const LimitConfigs& configs, std::pair<int64_t, int64_t> limit) {
  const std::set<size_t>* in = configs_of(configs, limit);
  return in && !in->empty() ? *in->begin() : 0;
}

const std::set<size_t>* configs_of(const LimitConfigs& configs, std::pair<int64_t, int64_t> limit) {
  auto it = configs.find(limit);
  return it == configs.end() ? nullptr : &it->second;
}

LimitProbe::LimitProbe(const std::string& ref, const std::string& cand,
                       const std::string& cand_class, double seconds,
                       std::optional<Clock::time_point> run_deadline, size_t max_bytes,
                       bool first_program_only)
    : ref_(ref),
      cand_(cand),
      cand_class_(cand_class),
      deadline_(Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                   std::chrono::duration<double>(seconds))),
      max_bytes_(max_bytes),
      first_program_only_(first_program_only) {
  if (run_deadline) deadline_ = std::min(deadline_, *run_deadline);
}

const LimitProbe::Probed* LimitProbe::probed(const torch::Dims& dims, size_t config) {
  // The host-path search runs the config with the fewest lanes: its runs only reach the
  // host's choices, which no config changes (a kernel's own branch on a config's constexpr
  // is seen in that config alone, as it was in the first before).
  if (first_program_only_) config = torch::TorchState::kSmallestAutotuneConfig;
  auto [it, fresh] = seen_.try_emplace(dims_str(dims) + " #" + std::to_string(config));
  if (fresh && Clock::now() > deadline_) out_of_time_ = true;
  if (fresh && !out_of_time_ && runs_++ < kMaxRuns) try {
      // One run at a size the search grew can take longer than the whole share (the
      // interpreter over a level-2 pipeline's kernels): it stops at the deadline.
      ir::BudgetScope budget(deadline_, max_bytes_);
      ir::TermStore store;
      torch::TorchState st = torch::run_candidate(cand_, ref_, store, dims, false, cand_class_,
                                                  config, false, nullptr, first_program_only_)
                                 .state;
      it->second =
          Probed{st.mask_limits, st.loop_steps, st.branch_ways, st.static_ways, st.loop_trips};
    } catch (const ir::BudgetExceeded&) {
      out_of_time_ = true;
    } catch (const std::exception&) {
    }
  return it->second ? &*it->second : nullptr;
}

}  // namespace keq::verify::internal
