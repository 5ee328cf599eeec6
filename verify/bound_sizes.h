// The default bound's machinery (verify/bound*.cc), internal to verify/: the sizes it chooses,
// the runs of the candidate alone that trace a kernel's limits to sizes, and the searches built
// on them. Declared here for each other and for their tests.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "frontends/triton/program.h"
#include "verify/verify.h"

namespace keq::verify::internal {

// ---- sizes (bound_sizes.cc) ----------------------------------------------------------------

// Past this product of sizes a configuration the default bound would add is named in the notes
// instead of run (before its share of the time budget would stop it: online softmax over
// 2 x 65,537 with BLOCK 1024 takes 24 s).
constexpr int64_t kMaxElements = int64_t{1} << 18;

// A confirmed counterexample decides the run (NOT_EQUIVALENT outranks every other verdict):
// the configurations after it are not checked, which keeps keq fast as a pre-filter.
bool decided(const std::vector<Report>& reports);
// No two of the sizes are equal (the bound traces a limit to sizes by value).
bool sizes_distinct(const torch::Dims& dims);
// Some masked access of the candidate never had a lane masked off in any of these runs.
bool mask_never_false(const std::vector<Report>& all);
// The kernel loops (file:line:col) that ran no second trip in any of these configurations.
std::set<std::string> loops_never_twice(const std::vector<Report>& all);
int64_t elements(const torch::Dims& dims);

// Other values of a size whose product with `rest` leaves the tail v * rest leaves for `target`
// (BLOCK + 1, BLOCK - 1 or 2 BLOCK + 1), those sharing more factors with `accepted` first, then
// the nearest to v; at most three.
std::vector<int64_t> same_tail(int64_t v, int64_t rest, int64_t block, int64_t target,
                               int64_t accepted);

// dims with its sizes other than the entries in `keep` (dims order, tuples flattened) halved,
// largest first, until their product is within `cap`; none where that would take a size below
// 2, or `keep` is empty.
std::optional<torch::Dims> others_halved(torch::Dims dims, const std::vector<size_t>& keep,
                                         int64_t cap);
// The sizes (in dims order, tuples flattened) that differ between two dims of one structure.
std::vector<size_t> changed_sizes(const torch::Dims& from, const torch::Dims& to);

// A configuration (its reports in `all` from `start`, one per autotune config) that one of its
// autotune configs did not decide within its share of the time budget is dropped and named in
// `skipped` with `named`; one that decided the run (a counterexample) is kept. True: dropped.
bool drop_if_slow(std::vector<Report>& all, size_t start, const std::string& named, double share,
                  std::vector<std::string>& skipped);

using NamedDims = std::vector<std::pair<torch::Dims, std::string>>;
// Sizes that flattened the model's structure, each size over 1 doubled in turn.
NamedDims each_size_doubled(const torch::Dims& dims, const std::string& why);
// Sizes for a candidate whose assert wants a size divisible by its block (`N_CLASS %
// BLOCK_SIZE_N == 0` with a block of 1024): each size in turn a power of two up to 2^14, the
// others as they were, smallest first; then every size times 2^k at once (an assert on two).
inline constexpr const char* kPowerOfTwo = "a power of two: an assert rejected the sizes before";
NamedDims powers_of_two(const torch::Dims& dims);
// Sizes for a reference whose assert wants a size divisible by a constant the file keeps
// (`assert n_embd % n_head == 0` with 12 heads): each size in turn that constant, then twice it,
// the others as they were; then every size a distinct multiple of it; smallest first. The
// second round (`second`) takes three times the constant first (then the first round's), so
// that its sizes differ from the first round's: Mamba2's gated RMSNorm over 4 groups ran both
// rounds at 4 columns, groups of one column, where no lane of its kernel is masked.
inline constexpr const char* kMultipleOfConstant = "a multiple of the file's constant";
NamedDims multiples_of(const torch::Dims& dims, const std::vector<int64_t>& constants,
                       bool second = false);

// Small distinct sizes that keep which of the file's sizes divide which (a pooling window of 16
// over 8192 features, which a candidate asserts divides them: 2 and 12 then, where the distinct
// 5 and 4 were rejected and the file's proportions made an e-graph of minutes): the
// sizes in the order of their file values, each the least value past the ones before that
// every size it is divisible by in the file divides. Nothing where no size divides another.
inline constexpr const char* kDivisibleAsTheFile =
    "divisible as the file's sizes are: the sizes before were rejected";
NamedDims divisible_as_the_file(const torch::Dims& dims, const torch::Dims& file);

// Sizes for a reference that needs some sizes at the file's own values (LeNet's
// `view(-1, 16*5*5)` wants the 32 x 32 image its get_inputs writes): for each value the file
// gives sizes, those sizes at it and the others as they were; smallest first.
inline constexpr const char* kAtFileValue =
    "at the file's value: the reference rejected the sizes before";
NamedDims at_file_values(const torch::Dims& dims, const torch::Dims& file);

// A configuration the default bound adds, and why (shown in its bound line).
struct SizeTry {
  torch::Dims dims;
  std::string why;
  size_t entry;  // which size it varies (in dims order, tuples flattened)
  // Sizes that leave the same tail, tried in turn where the reference or an assert rejects
  // dims (channels that must divide into groups): best first.
  std::vector<torch::Dims> instead = {};
  // The sizes whose product is the limit (a mask limit's feeding set); empty: the limit is no
  // product of sizes, and no other size may change either.
  std::vector<size_t> limit_sizes = {};
  // The mask limit or loop step (n, extent) the sizes are around; (0, 0): none.
  std::pair<int64_t, int64_t> limit = {0, 0};
};

// ---- the candidate run alone (bound_probe.cc) ----------------------------------------------

using Limits = std::set<std::pair<int64_t, int64_t>>;  // (n, block extent), TorchState's
// The autotune configs a limit was seen in. It is probed in the first of them: a limit only some
// configs have (a BLOCK_M of 32 among configs of 128) is probed in that config, where the first
// config has none like it (a run there read the predicted limit as a coincidence, and a limit
// absent there as moved).
using LimitConfigs = std::map<std::pair<int64_t, int64_t>, std::set<size_t>>;
size_t config_of(const LimitConfigs& configs, std::pair<int64_t, int64_t> limit);
// All of them; null where the limit is not there.
const std::set<size_t>* configs_of(const LimitConfigs& configs, std::pair<int64_t, int64_t> limit);

// The candidate's mask limits at `dims`, from running the programs alone (no proof); none
// where it does not run there. Remembered: the searches ask for the same sizes again.
// Bounded in runs and in seconds (a run of a convolution at a searched size can take one):
// past either, sizes not run yet have no limits, and out_of_time() says so.
class LimitProbe {
 public:
  // `seconds` from now, and never past the run's deadline (--timeout bounds the whole run: a
  // search begun near its end stopped 15 s past it, LLMKernel L3 50).
  // first_program_only: each launch runs its first program alone (host paths only).
  // `cand_class`: the candidate's class compared (torch::model_classes).
  LimitProbe(const std::string& ref, const std::string& cand, const std::string& cand_class,
             double seconds, std::optional<std::chrono::steady_clock::time_point> run_deadline,
             size_t max_bytes, bool first_program_only = false);
  // The mask limits (or, with `steps`, the loop steps) at `dims`, autotuned kernels running
  // `config`; null where it did not run.
  const Limits* at(const torch::Dims& dims, bool steps = false, size_t config = 0) {
    const Probed* p = probed(dims, config);
    if (!p) return nullptr;
    return steps ? &p->steps : &p->masks;
  }
  // The ways the kernels' dynamic ifs went at `dims` (TorchState::branch_ways); null as above.
  const std::map<std::string, unsigned>* branches_at(const torch::Dims& dims) {
    const Probed* p = probed(dims);
    return p ? &p->branches : nullptr;
  }
  // The ways `if`s on concrete values and host loops went (TorchState::static_ways).
  const std::map<std::string, unsigned>* static_ways_at(const torch::Dims& dims) {
    const Probed* p = probed(dims);
    return p ? &p->static_ways : nullptr;
  }
  // The trip counts the kernels' loops ran (TorchState::loop_trips); null as above.
  const std::map<std::string, unsigned>* loops_at(const torch::Dims& dims) {
    const Probed* p = probed(dims);
    return p ? &p->loops : nullptr;
  }
  bool out_of_time() const { return out_of_time_; }

 private:
  struct Probed {
    Limits masks, steps;
    std::map<std::string, unsigned> branches, static_ways, loops;
  };
  const Probed* probed(const torch::Dims& dims, size_t config = 0);

  using Clock = std::chrono::steady_clock;
  static constexpr int kMaxRuns = 96;  // a bound on the search's cost, whatever the file
  std::string ref_, cand_, cand_class_;
  Clock::time_point deadline_;
  size_t max_bytes_;
  bool first_program_only_;
  std::map<std::string, std::optional<Probed>> seen_;
  int runs_ = 0;
  bool out_of_time_ = false;
};

// ---- sizes around the blocks (bound_limits.cc) ---------------------------------------------

// Sizes around each block for the dimensions that feed a masked index (unit BLOCK), or around a
// loop's step for the count it runs over (unit STEP); limits no product of sizes confirms go to
// `unconfirmed`.
std::vector<SizeTry> around_mask_limits(const torch::Dims& base, const Limits& limits,
                                        const LimitConfigs& configs, LimitProbe& probe,
                                        Limits& unconfirmed, const std::string& unit = "BLOCK");
// Sizes that put a limit computed from a size (a pooling's output length) around its block.
std::vector<SizeTry> around_computed_limits(LimitProbe& probe, const torch::Dims& base,
                                            const Limits& limits, const LimitConfigs& configs,
                                            const Limits& unconfirmed,
                                            const std::string& unit = "BLOCK");

// ---- sizes that take other paths (bound_paths.cc) ------------------------------------------

// Where no masked index was traced to a size: each size in turn past the largest block.
std::vector<SizeTry> past_largest_block(const torch::Dims& base, int64_t block);
// Each size past the product of the others, where a kernel's condition that went one way
// everywhere goes the other.
std::vector<SizeTry> past_other_sizes(const torch::Dims& base,
                                      const std::map<std::string, unsigned>& one_way,
                                      LimitProbe& probe);
// Each size multiplied until a kernel loop that never ran twice runs several trips, within the
// probe's `seconds`.
std::vector<SizeTry> multiplied_to_more_trips(const torch::Dims& base,
                                              std::set<std::string> one_trip, LimitProbe& probe,
                                              double seconds);
// Each size doubled until the host takes an `if` or a loop another way than `known` (the ways
// seen so far, which it adds to); sizes the search had no time for are named in `cut_short`.
std::vector<SizeTry> doubled_to_another_way(const torch::Dims& base, LimitProbe& probe,
                                            double seconds, std::map<std::string, unsigned>& known,
                                            std::vector<std::string>& cut_short);
// Each size given another's value (`if in_channels != out_channels:` picks a downsample path,
// `if M == N` a square kernel), kept where the host takes an `if` or a loop another way than
// `known`, which it adds to.
std::vector<SizeTry> equal_to_another_way(const torch::Dims& base, LimitProbe& probe,
                                          std::map<std::string, unsigned>& known);

}  // namespace keq::verify::internal
