// keq egraph: the rule author's tool. Reads terms and goals, saturates, reports.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "cli/commands.h"
#include "cli/options.h"
#include "egraph/egraph.h"
#include "ir/ir.h"
#include "rules/rules.h"

namespace keq::cli {

const char* const kEgraphHelp = R"(usage: keq egraph FILE [options]

Reads FILE, a list of s-expressions:
  (prove A B)                 a goal: are terms A and B equal under the semantics?
  (declare NAME TYPE [:range LO HI] [:finite] [:not-nan])
                              a variable's type (f32, i32, i64, bool) and values (:finite: any
                              real, as keq verify takes inputs); undeclared variables are f32
                              and may be any value, NaN and infinities too
  TERM                        any other form is a term, added so its best form is printed
Terms use keq's ops: (+ x 1), (exp (neg x)), (select (> x 0) x 0), (cast.f16 x), ...
Constants: 2, -1, 1e-5, inf, -inf, nan, true, 3:i32. Atoms like x or x[2,0] are variables.

Saturates every term and goal in one e-graph with the rules, then prints for each goal whether
it was proved, the cheapest term found for each side, and the run's statistics.

options:
  --rules FILE...         add rule files to the defaults (repeatable; stops at the next option)
  --no-default-rules      start from no rules (the defaults are rules/*.rules; $KEQ_RULES_DIR
                          overrides the folder)
  --semantics real|ieee   real (default): extended reals, real-only rules allowed;
                          ieee: bit-exact fp32, only rules marked :holds ieee
  --explain               print the rewrite chain behind each proved goal
  --no-normal-form        turn off the real-semantics normal forms (exponential polynomials
                          over finite atoms, flat max/min), to see what they buy
  --iter-limit N          saturation iterations (default 30)
  --node-limit N          e-graph size, in hash-cons entries (default 100000)
  --time-limit SECONDS    (default 10)

exit codes: 0 every goal proved, 1 a goal not proved, 4 error (bad file or rule, or the
canary: a rule merged two different constants, which means an unsound rule).
)";

namespace {

using rules::KeqLanguage;
using Graph = KeqLanguage::Graph;

struct Options {
  std::string file;
  std::vector<std::string> extra_rules;
  bool default_rules = true;
  ir::Semantics semantics = ir::Semantics::Real;
  bool explain = false;
  bool normal_form = true;
  egraph::RunnerLimits limits{30, 100000, 10.0};
};

struct Goal {
  ir::TermId lhs, rhs;
  std::string text;
  ir::SourcePos pos;
};

struct Input {
  std::vector<ir::TermId> terms;
  std::vector<Goal> goals;
  std::vector<std::tuple<std::string, ir::Type, ir::Interval>> domains;
};

Options parse_args(const std::vector<std::string>& args) {
  Options o;
  ArgReader in(args);
  while (!in.done()) {
    const std::string& a = in.next();
    if (!in.option()) {
      if (!o.file.empty()) in.fail("is a second FILE: egraph takes one");
      o.file = a;
    } else if (a == "--rules") {
      for (std::string& f : in.values()) o.extra_rules.push_back(std::move(f));
    } else if (a == "--no-default-rules") {
      o.default_rules = false;
    } else if (a == "--semantics") {
      o.semantics = *ir::semantics_by_name(in.word({"real", "ieee"}));
    } else if (a == "--explain") {
      o.explain = true;
    } else if (a == "--no-normal-form") {
      o.normal_form = false;
    } else if (a == "--iter-limit") {
      o.limits.iter_limit = static_cast<size_t>(in.unsigned_integer());
    } else if (a == "--node-limit") {
      o.limits.node_limit = static_cast<size_t>(in.unsigned_integer());
    } else if (a == "--time-limit") {
      o.limits.time_limit_s = in.number(0, true);
    } else {
      in.unknown();
    }
  }
  if (o.file.empty()) throw Error(ErrorKind::BadInput, "missing FILE (see keq egraph --help)");
  return o;
}

// (declare NAME TYPE [:range LO HI] [:finite] [:not-nan])
void read_declare(const ir::SExpr& f, absl::flat_hash_map<std::string, ir::Type>& types,
                  Input& in) {
  if (f.items.size() < 3 || !f.items[1].is_atom() || !f.items[2].is_atom())
    throw ir::SyntaxError(f.pos,
                          "expected (declare NAME TYPE [:range LO HI] [:finite] [:not-nan])");
  auto t = ir::type_by_name(f.items[2].atom);
  if (!t) throw ir::SyntaxError(f.items[2].pos, "unknown type '" + f.items[2].atom + "'");
  types[f.items[1].atom] = *t;
  ir::Interval range = ir::Interval::top();
  bool constrained = false;
  for (size_t k = 3; k < f.items.size(); ++k) {
    const ir::SExpr& key = f.items[k];
    if (key.is_atom(":not-nan")) {
      range.nan = false;
      constrained = true;
    } else if (key.is_atom(":finite")) {  // what keq verify assumes of inputs and parameters
      range = ir::Interval::any_finite();
      constrained = true;
    } else if (key.is_atom(":range") && k + 2 < f.items.size()) {
      auto lo = ir::parse_constant(f.items[k + 1].atom),
           hi = ir::parse_constant(f.items[k + 2].atom);
      if (!lo || !hi || lo->type != ir::Type::F32 || hi->type != ir::Type::F32 || lo->f > hi->f)
        throw ir::SyntaxError(key.pos, ":range needs two numbers LO <= HI");
      range.lo = lo->f, range.hi = hi->f, range.nan = false;
      constrained = true;
      k += 2;
    } else {
      throw ir::SyntaxError(key.pos, "expected :range LO HI, :finite or :not-nan");
    }
  }
  if (constrained) in.domains.push_back({f.items[1].atom, *t, range});
}

Input read_input(const std::string& file, ir::TermStore& store) {
  Input in;
  absl::flat_hash_map<std::string, ir::Type> types;
  for (const ir::SExpr& f : ir::parse_sexpr_file(file)) {
    if (f.is_list() && !f.items.empty() && f.items[0].is_atom("declare")) {
      read_declare(f, types, in);
    } else if (f.is_list() && !f.items.empty() && f.items[0].is_atom("prove")) {
      if (f.items.size() != 3) throw ir::SyntaxError(f.pos, "expected (prove A B)");
      ir::TermId a = ir::read_term(store, f.items[1], types),
                 b = ir::read_term(store, f.items[2], types);
      if (store.type(a) != store.type(b))
        throw ir::SyntaxError(f.pos, "the two sides have different types");
      in.goals.push_back({a, b, f.str(), f.pos});
    } else {
      in.terms.push_back(ir::read_term(store, f, types));
    }
  }
  return in;
}

// Proves the file's goals; with a canary (a rule proved two constants equal), reruns with
// explanations on, if they were off, to name every rule involved.
int run(const Options& o) {
  ir::TermStore store;
  Input in = read_input(o.file, store);
  std::vector<std::string> files;
  if (o.default_rules) files = rules::RuleSet::defaults().files();
  files.insert(files.end(), o.extra_rules.begin(), o.extra_rules.end());
  rules::RuleSet rule_set(files);
  rules::ProverOptions opt;
  opt.semantics = o.semantics;
  opt.normal_forms = o.normal_form;
  opt.explanations = o.explain;
  opt.limits = o.limits;
  for (const auto& [name, type, range] : in.domains)
    opt.domains.push_back({store.variable(name, type), range});
  std::vector<rules::Goal> goals;
  for (const Goal& goal : in.goals) goals.push_back({goal.lhs, goal.rhs});
  auto proof = rules::prove(store, goals, in.terms, rule_set, opt);
  if (proof->report.stop == egraph::StopReason::Canary && !opt.explanations) {
    opt.explanations = true;
    proof = rules::prove(store, goals, in.terms, rule_set, opt);
  }
  Graph& g = proof->graph;
  if (proof->report.stop == egraph::StopReason::Canary) {
    std::printf("CANARY: %s\n", proof->report.canary.c_str());
    auto [ca, cb] = g.lang().canary_nodes();
    egraph::Explainer<KeqLanguage> ex(
        g, [&](const auto& j, egraph::EClassId to) { return proof->step_label(j, to); });
    if (ca != egraph::kNoClass && cb != egraph::kNoClass && g.find(ca) == g.find(cb)) {
      std::printf("how the two constants became equal:\n%s", ex.explain(ca, cb).str().c_str());
    }
    std::printf("a rule above is unsound: no goal is reported.\n");
    return kExitError;
  }
  std::printf("semantics: %s; rules: %zu of %zu loaded apply\n",
              std::string(ir::semantics_name(o.semantics)).c_str(), proof->rewrites.size(),
              proof->rules_loaded);
  for (size_t k = 0; k < in.terms.size(); ++k)
    std::printf("term %s\n  best: %s\n", store.str(in.terms[k]).c_str(),
                proof->best(proof->terms[k]).c_str());
  for (size_t k = 0; k < in.goals.size(); ++k) {
    auto [a, b] = proof->goals[k];
    bool ok = proof->proved(k);
    std::printf("goal %s: %s\n  %s\n", in.goals[k].pos.str().c_str(), ok ? "proved" : "NOT proved",
                in.goals[k].text.c_str());
    if (!ok) {
      std::printf("  best left: %s\n  best right: %s\n", proof->best(a).c_str(),
                  proof->best(b).c_str());
      continue;
    }
    std::printf("  best: %s\n", proof->best(a).c_str());
    if (!o.explain) continue;
    std::string chain = proof->explain(k);
    std::printf("  explanation:\n");
    for (size_t p = 0, q; p < chain.size(); p = q + 1) {
      q = chain.find('\n', p);
      std::printf("    %s\n", chain.substr(p, q - p).c_str());
    }
  }
  const egraph::RunReport& rep = proof->report;
  std::printf("stats: stop=%s iterations=%zu e-nodes=%zu e-classes=%zu hashcons=%zu time=%.3fs\n",
              egraph::stop_reason_name(rep.stop), rep.iterations.size(), g.num_nodes(),
              g.num_classes(), g.memo_size(), rep.total_s);
  if (g.lang().normal_forms_on())
    std::printf(
        "normal forms: %zu; products past the %zu-term budget (wide factors as atoms): %zu\n",
        g.lang().normal_forms().size(), g.lang().normal_forms().budget(),
        g.lang().normal_forms().budget_exceeded());
  else
    std::printf("normal forms: off\n");
  size_t proved = proof->proved_count();
  std::printf("goals: %zu of %zu proved\n", proved, in.goals.size());
  return proved == in.goals.size() ? kExitProved : kExitNotProved;
}

}  // namespace

int egraph_command(const std::vector<std::string>& args) {
  for (const auto& a : args)
    if (a == "--help" || a == "-h") {
      std::fputs(kEgraphHelp, stdout);
      return 0;
    }
  return run(parse_args(args));
}

}  // namespace keq::cli
