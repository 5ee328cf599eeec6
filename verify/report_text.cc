// The human-readable report: the overall verdict on the first line, whatever the number of
// configurations; then the configurations as a table; then the deciding configuration's
// evidence (counterexample, findings, notes) and its statistics.
#include <algorithm>
#include <cstdio>
#include <map>

#include "rules/rules.h"
#include "verify/verify.h"

namespace keq::verify {
namespace {

// "in0[0,12]" -> ("in0", {0, 12}); a name without an index has an empty one.
std::pair<std::string, std::vector<int64_t>> split_element(const std::string& name) {
  size_t open = name.find('[');
  if (open == std::string::npos || name.back() != ']') return {name, {}};
  std::vector<int64_t> idx;
  for (size_t p = open + 1; p < name.size() - 1;) {
    size_t q = name.find(',', p);
    if (q == std::string::npos) q = name.size() - 1;
    idx.push_back(std::strtoll(name.c_str() + p, nullptr, 10));
    p = q + 1;
  }
  return {name.substr(0, open), idx};
}

// A block of elements of one tensor with one value: a range per axis.
struct ValueBlock {
  std::string tensor, value;
  std::vector<std::pair<int64_t, int64_t>> ranges;
};

std::string block_str(const ValueBlock& b) {
  if (b.ranges.empty()) return b.tensor + " = " + b.value;
  std::string s = b.tensor + "[";
  for (size_t k = 0; k < b.ranges.size(); ++k) {
    auto [lo, hi] = b.ranges[k];
    s += (k ? ", " : "") + std::to_string(lo) + (hi != lo ? ".." + std::to_string(hi) : "");
  }
  return s + "] = " + b.value;
}

// Merges neighbours along `axis` that agree everywhere else (in index order, so such
// neighbours are adjacent once the later axes are merged).
std::vector<ValueBlock> merged_along(std::vector<ValueBlock> in, size_t axis) {
  std::vector<ValueBlock> out;
  for (ValueBlock& b : in) {
    if (!out.empty()) {
      ValueBlock& p = out.back();
      bool same = p.tensor == b.tensor && p.value == b.value &&
                  p.ranges.size() == b.ranges.size() && axis < b.ranges.size() &&
                  p.ranges[axis].second + 1 == b.ranges[axis].first;
      for (size_t k = 0; same && k < b.ranges.size(); ++k)
        same = k == axis || p.ranges[k] == b.ranges[k];
      if (same) {
        p.ranges[axis].second = b.ranges[axis].second;
        continue;
      }
    }
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace

std::vector<std::string> input_lines(const std::vector<std::pair<std::string, std::string>>& in) {
  // In index order (in0[0, 2] before in0[0, 10]), blocks of one value compressed axis by axis
  // from the last: in0[0, 0..511] = 0, and a row of 3,080 zeros in 4-d is one line, not 616.
  using Key = std::pair<std::string, std::vector<int64_t>>;
  std::map<Key, std::string> sorted;
  for (const auto& [name, value] : in) sorted[split_element(name)] = value;
  std::vector<ValueBlock> blocks;
  size_t axes = 0;
  for (const auto& [key, value] : sorted) {
    ValueBlock b{key.first, value, {}};
    for (int64_t i : key.second) b.ranges.push_back({i, i});
    axes = std::max(axes, b.ranges.size());
    blocks.push_back(std::move(b));
  }
  for (size_t axis = axes; axis-- > 0;) blocks = merged_along(std::move(blocks), axis);
  std::vector<std::string> out;
  for (const ValueBlock& b : blocks) out.push_back(block_str(b));
  return out;
}

// The first line names findings at the file's own sizes: a loop that reads one line must not
// take an EQUIVALENT at the bound for a kernel that breaks at the sizes the file writes.
std::string file_size_suffix(const Report& r) {
  if (r.file_size_findings.empty()) return "";
  return "; at the file's own sizes (not run) " + std::to_string(r.file_size_findings.size()) +
         " int32 value" + (r.file_size_findings.size() > 1 ? "s wrap" : " wraps") + " (below)";
}

std::string to_text(const Report& r) {
  std::string t =
      std::string(verdict_name(r.verdict)) + ": " + r.reason + file_size_suffix(r) + "\n";
  t += "semantics: " + std::string(ir::semantics_name(r.semantics)) +
       (r.nonfinite_inputs ? " (inputs: +-inf and NaN too)" : "") + "; bound: " + r.bound + "\n";
  if (const auto& c = r.counterexample) {
    std::string idx;
    for (size_t k = 0; k < c->index.size(); ++k)
      idx += (k ? "," : "") + std::to_string(c->index[k]);
    t += "counterexample (" + c->found_by + "):\n  output " + std::to_string(c->output) + "[" +
         idx + "]\n";
    for (const std::string& line : input_lines(c->inputs)) t += "  " + line + "\n";
    t += "  (every other input and parameter: any value)\n";
    for (const std::string& n : c->names) t += "  " + n + "\n";
    t += "  reference: " + c->ref_value + "\n  candidate: " + c->cand_value +
         "\n  difference: " + c->difference + "\n";
  }
  if (!r.findings.empty()) {
    t += "memory findings:\n";
    // Findings repeat per lane and program; the first few name every line that matters.
    for (size_t k = 0; k < std::min<size_t>(r.findings.size(), 10); ++k)
      t += "  " + r.findings[k] + "\n";
    if (int64_t more = static_cast<int64_t>(r.findings.size()) - 10 + r.findings_unlisted; more > 0)
      t += "  ... and " + std::to_string(more) + " more\n";
  }
  if (!r.file_size_findings.empty()) {
    t += "findings at the file's own sizes (not run; the verdict covers the bound):\n";
    for (const auto& f : r.file_size_findings) t += "  " + f + "\n";
  }
  for (const auto& n : r.notes) t += "note: " + n + "\n";
  if (!r.explanation.empty())
    t += "explain: " + r.explanation + (r.explanation.back() == '\n' ? "" : "\n");
  bool nothing_ran = r.verdict == Verdict::Unsupported || r.verdict == Verdict::Error ||
                     r.cannot_run || (r.stats.pairs == 0 && r.stats.seconds == 0);
  if (nothing_ran) return t;
  const Stats& s = r.stats;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "stats: %zu output pairs, %zu after dedup; e-graph proved %zu (%zu iterations, "
                "%zu nodes, stopped: %s); witness search refuted %zu (%zu points); Z3 proved %zu, "
                "refuted %zu (%zu queries, "
                "%.3f s); %zu %s; "
                "%.3f s\n",
                s.pairs, s.deduped, s.egraph_proved, s.egraph_iterations, s.egraph_nodes,
                s.egraph_stop.empty() ? "not run" : s.egraph_stop.c_str(), s.witness_refuted,
                s.witness_points, s.smt_proved, s.smt_refuted, s.smt_queries, s.smt_seconds,
                s.unknown, r.counterexample ? "left unchecked after the counterexample" : "unknown",
                s.seconds);
  t += buf;
  if (s.cases_proved > s.branches_proved)
    t += "stats: a case split on the constants branches compare with proved " +
         std::to_string(s.cases_proved - s.branches_proved) +
         " (e-graph and enclosures on each piece)\n";
  if (s.branches_proved)
    t += "stats: a case split on branches' conditions proved " + std::to_string(s.branches_proved) +
         " (the e-graph on each way they go)\n";
  if (s.chains_proved)
    t += "stats: " + std::to_string(s.chains_proved) +
         " argmax/argmin chains proved as first extremes over the same (value, index) entries\n";
  // Where the time went: the stages that took a millisecond or more.
  std::string stages;
  for (const auto& [stage, seconds] : s.stage_seconds) {
    if (seconds < 1e-3) continue;
    std::snprintf(buf, sizeof buf, "%s%s %.3f s", stages.empty() ? "" : ", ", stage.c_str(),
                  seconds);
    stages += buf;
  }
  return stages.empty() ? t : t + "time: " + stages + "\n";
}

std::string provenance(const Options& opt) {
  std::string rules;
  try {
    rules = rules::RuleSet::defaults().fingerprint();
  } catch (const Error&) {
    rules = "unreadable";
  }
  return "keq " + std::string(kKeqVersion) + "; rules " + rules + "; semantics " +
         std::string(ir::semantics_name(opt.semantics)) +
         (opt.round_once ? " (fp16, bf16 and fp8 rounded once: --round-once)" : "") +
         "; modelling " + kModelledFrameworks;
}

size_t deciding_report(const std::vector<Report>& reports, Verdict overall) {
  for (size_t k = 0; k < reports.size(); ++k)
    if (reports[k].verdict == overall) return k;
  return 0;
}

std::string to_text(const std::vector<Report>& reports, Verdict overall,
                    const std::string& provenance) {
  if (reports.empty()) return std::string(verdict_name(overall)) + ": no configuration ran\n";
  size_t d = deciding_report(reports, overall);
  const Report& decider = reports[d];
  std::string t = std::string(verdict_name(overall)) + ": " + decider.reason;
  // Every configuration is EQUIVALENT when the verdict is: say so, not "configuration 1 of N",
  // which reads as if one alone were proved.
  if (reports.size() > 1 && overall == Verdict::Equivalent)
    t += " (all " + std::to_string(reports.size()) +
         " configurations; reason and details: configuration 1)";
  else if (reports.size() > 1)
    t += " (configuration " + std::to_string(d + 1) + " of " + std::to_string(reports.size()) + ")";
  t += file_size_suffix(decider) + "\n";
  if (!provenance.empty()) t += provenance + "\n";
  if (reports.size() > 1) {
    t += "configurations:\n";
    for (size_t k = 0; k < reports.size(); ++k) {
      char head[48];
      std::snprintf(head, sizeof head, "  %2zu. %-15s ", k + 1, verdict_name(reports[k].verdict));
      t += head + reports[k].bound + "\n";
    }
    t += "configuration " + std::to_string(d + 1) + ":\n";
  }
  std::string detail = to_text(decider);
  return t + detail.substr(detail.find('\n') + 1);  // its verdict line is the first line
}

}  // namespace keq::verify
