// keq rules check [FILES]: prove every rule under its declared semantics.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "rules/rules.h"
#include "verify/verify.h"

namespace keq::cli {

namespace {

const char* const kRulesHelp =
    R"(usage: keq rules check [FILES...] [--timeout-ms N]

Proves each rewrite rule under the semantics it declares (default: the shipped rules/*.rules).
  :holds ieee  Z3's floating-point theory over every fp32 input, NaN, infinities and signed
               zeros included; "the same bits, any NaN matching any NaN"
  :holds real  Z3 over finite reals, under the rule's conditions; the infinite and NaN cases,
               which that encoding does not hold, are evaluated at every combination of special
               values (+-inf, NaN, +-0, +-1, 0.5, 3, 448)
A refutation is a point where evaluating both sides confirms the difference. Unknown says why
(an op outside the encoding, such as exp, which Z3 sees as an uninterpreted function; Z3's
limit). Exhaustive enumeration of unary fp32 rules is not in this build.

options:
  --timeout-ms N   Z3's time per rule (default 10000; a resource limit binds first)

exit codes: 0 every rule proved, 1 a rule refuted, 2 a rule unknown (none refuted), 4 error
)";

const char* outcome_name(verify::RuleVerdict::Outcome o) {
  switch (o) {
    case verify::RuleVerdict::Outcome::Proved:
      return "proved";
    case verify::RuleVerdict::Outcome::Refuted:
      return "REFUTED";
    case verify::RuleVerdict::Outcome::Unknown:
      return "unknown";
  }
  return "?";
}

}  // namespace

int rules_command(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::fputs(kRulesHelp, args.empty() ? stderr : stdout);
    return args.empty() ? kExitError : 0;
  }
  if (args[0] != "check") {
    std::fprintf(stderr, "keq rules: unknown subcommand '%s' (keq rules --help)\n",
                 args[0].c_str());
    return kExitError;
  }
  std::vector<std::string> files;
  unsigned timeout_ms = 10000;
  for (size_t k = 1; k < args.size(); ++k) {
    if (args[k] == "--help" || args[k] == "-h") {
      std::fputs(kRulesHelp, stdout);
      return 0;
    }
    if (args[k] == "--timeout-ms") {
      if (k + 1 >= args.size()) {
        std::fprintf(stderr, "keq rules check: --timeout-ms needs a number\n");
        return kExitError;
      }
      try {
        timeout_ms = static_cast<unsigned>(std::stoul(args[++k]));
      } catch (const std::exception&) {
        std::fprintf(stderr, "keq rules check: --timeout-ms: '%s' is not a number\n",
                     args[k].c_str());
        return kExitError;
      }
      continue;
    }
    if (!args[k].empty() && args[k][0] == '-') {
      std::fprintf(stderr, "keq rules check: unknown option '%s'\n", args[k].c_str());
      return kExitError;
    }
    files.push_back(args[k]);
  }
  if (files.empty()) files = rules::default_rule_files();
  std::vector<verify::RuleVerdict> vs = verify::check_rules(files, timeout_ms);
  size_t counts[3] = {0, 0, 0};
  std::printf("%-22s %-5s %-8s %s\n", "rule", "holds", "outcome", "detail");
  for (const auto& v : vs) {
    ++counts[static_cast<int>(v.outcome)];
    std::printf("%-22s %-5s %-8s %s (%s)\n", v.name.c_str(),
                v.holds == ir::Semantics::Ieee ? "ieee" : "real", outcome_name(v.outcome),
                v.detail.c_str(), v.where.c_str());
  }
  std::printf("%zu rules: %zu proved, %zu refuted, %zu unknown\n", vs.size(), counts[0], counts[1],
              counts[2]);
  return counts[1] ? kExitNotProved : counts[2] ? 2 : 0;
}

}  // namespace keq::cli
