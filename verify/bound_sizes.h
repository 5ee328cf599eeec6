// The default bound's choices of sizes (verify/bound.cc), internal to verify/: declared here for
// their tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frontends/triton/program.h"
#include "verify/verify.h"

namespace keq::verify::internal {

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

// A configuration (its reports in `all` from `start`, one per autotune config) that one of its
// autotune configs did not decide within its share of the time budget is dropped and named in
// `skipped` with `named`; one that decided the run (a counterexample) is kept. True: dropped.
bool drop_if_slow(std::vector<Report>& all, size_t start, const std::string& named, double share,
                  std::vector<std::string>& skipped);

}  // namespace keq::verify::internal
