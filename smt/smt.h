// Z3 on what the e-graph and the witness search leave: real semantics, one query per pair.
//
// The encoding is exact over a finite fragment. Inputs are finite reals in their ranges; every
// op keeps values finite (division, log, sqrt, rsqrt and recip only with side conditions that Z3
// must first prove for all inputs); exp, log and erf are uninterpreted functions with true facts
// about them (exp > 0, exp(log y) = y, -1 < erf < 1); exp2, log2, sigmoid and tanh are defined
// through exp and log (2^x = exp(x ln 2), ln 2 = log 2). Integers are bit-vectors of their
// width (they wrap, and divisors and shift amounts are side conditions); a bitcast reads its
// operand rounded to fp32, binade by binade, and bits read as a float must hold no inf or NaN.
// So unsat is a proof; sat gives a model that the caller must replay, after refinement: where a
// model gives exp (or erf) a value the real function does not take at the model's argument, the
// true enclosure there is added as a fact and Z3 asked again. Anything outside the fragment
// (-inf constants, frexp and ldexp, pow but to a small integer power) is Unsupported.
#pragma once

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/ir.h"

namespace keq::smt {

enum class Outcome { Proved, Model, Unknown, Unsupported };

struct VarRange {
  double lo = -INFINITY, hi = INFINITY;
  bool hi_open = false;
  bool nonfinite = false;  // +-inf and NaN too (IEEE encoding only; the real one is finite)
};

struct Result {
  Outcome outcome = Outcome::Unknown;
  std::string reason;                             // for Unknown and Unsupported
  absl::flat_hash_map<ir::TermId, double> model;  // variable term -> value, for Model
  unsigned refinements = 0;  // rounds of true function values added after models leaned on UFs
  // check_rule_real: the sides' domain conditions were assumed, not proved (there were some).
  bool within_domains = false;
  // Side conditions that failed at one input only, where both sides were evaluated and agree
  // (a divisor such as sum |x| over a row): proved by that case split.
  unsigned split_points = 0;
};

// Is a == b for every input? `range` gives each variable's range.
// Z3 resource units (rlimit) per query: the binding limit, so an answer never depends on how
// loaded the machine is; the wall-clock timeout stays as a guard behind it.
inline constexpr unsigned kQueryResourceLimit = 20'000'000;

// Z3's own memory ceiling (its global memory_max_size), so a query past the run's budget
// fails inside Z3 as "unknown" rather than growing past it. 0: none. Call before queries run.
void set_memory_limit(size_t bytes);

// Side conditions proved for every input in range (a divisor, a sqrt or log argument), shared
// by the queries of one stage over one store and one range function (thread-safe): each is
// proved once, not once per output pair. GroupNorm's var + eps > 0 was proved in each of 34
// queries, 54 s of Z3 at a 17-wide configuration, more than --timeout left for the queries.
class ProvedConditions {
 public:
  // (the term whose encoding added it, its index among that term's conditions)
  bool contains(std::pair<ir::TermId, unsigned> condition) const;
  void insert(std::pair<ir::TermId, unsigned> condition);

 private:
  mutable std::mutex mutex_;
  absl::flat_hash_set<std::pair<ir::TermId, unsigned>> proved_;
};

// `assume`, a bool term, restricts the inputs (a rule's conditions, for `keq rules check`).
// `proved`, where given, holds the side conditions other queries proved and takes this one's.
Result check_equal(const ir::TermStore& store, ir::TermId a, ir::TermId b,
                   const std::function<VarRange(ir::TermId)>& range, unsigned timeout_ms,
                   std::optional<ir::TermId> assume = std::nullopt,
                   ProvedConditions* proved = nullptr);

// A real rule's two sides (keq rules check): equal wherever both are defined. Unlike
// check_equal, the sides' side conditions (a divisor nonzero, a log's argument positive) are
// assumed, since a rule need only hold where its sides have values over the reals (its points
// outside are the caller's to evaluate); an assumption that no input meets is no proof. exp
// gets its defining laws as facts at the query's own arguments: f(u + v) = f(u) f(v),
// f(0) = 1, f strictly increasing (log is its inverse by encoding): true facts, so
// unsat is still a proof, and what proves exp(a) exp(b) = exp(a + b), which models never can.
Result check_rule_real(const ir::TermStore& store, ir::TermId a, ir::TermId b, unsigned timeout_ms,
                       std::optional<ir::TermId> assume = std::nullopt);

// The same in IEEE semantics (smt_ieee.cc): fp32 in Z3's floating-point theory, equal meaning
// the same bits with any NaN matching any NaN. Exact IEEE operations only: approximations and
// sums of three or more terms are Unsupported (their bits or order are not fixed).
Result check_equal_ieee(const ir::TermStore& store, ir::TermId a, ir::TermId b,
                        const std::function<VarRange(ir::TermId)>& range, unsigned timeout_ms,
                        std::optional<ir::TermId> assume = std::nullopt);

// A stage's queries: `jobs` at a time, each taking its share of `seconds` when it starts.
struct Batch {
  std::vector<std::pair<ir::TermId, ir::TermId>> pairs;
  bool ieee = false;  // check_equal_ieee, else check_equal
  double seconds = 0;
  size_t jobs = 1;
  // In a child process (fork) that is killed a second past `seconds`: Z3's timeout and
  // interrupts act only where Z3 polls for them, and on a loaded machine some of its
  // preprocessing went on for minutes past --timeout. A crash inside Z3 is then one query's
  // UNKNOWN, not keq's end. Off: in this process (when fork fails too).
  bool isolate = true;
};

struct BatchAnswer {
  Result result;
  double seconds = 0;     // the query's wall time
  bool answered = false;  // else result.reason says why not (killed, crashed)
};

// Thread-safe for the store and `range` as they are only read; `range` must not depend on
// state the caller changes meanwhile.
std::vector<BatchAnswer> check_batch(const ir::TermStore& store, const Batch& batch,
                                     const std::function<VarRange(ir::TermId)>& range);

}  // namespace keq::smt
