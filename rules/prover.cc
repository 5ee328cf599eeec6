#include <mutex>
#include <thread>

#include "egraph/explain.h"
#include "egraph/extract.h"
#include "rules/rules.h"

namespace keq::rules {

RuleSet::RuleSet(std::vector<std::string> files) : files_(std::move(files)) {
  for (const std::string& f : files_) forms_.push_back(ir::parse_sexpr_file(f));
  fingerprint_ = rules_fingerprint(files_);
}

const RuleSet& RuleSet::defaults() {
  static const RuleSet set(default_rule_files());  // C++ makes this once, thread-safely
  return set;
}

std::vector<KeqRule> RuleSet::compile(KeqLanguage& lang) const {
  RuleParser<KeqLanguage> parser(lang);
  std::vector<KeqRule> all;
  for (const auto& forms : forms_) {
    auto rs = parser.parse(forms);
    all.insert(all.end(), std::make_move_iterator(rs.begin()), std::make_move_iterator(rs.end()));
  }
  add_type_conditions(lang.store(), all);
  return all;
}

Proof::Proof(ir::TermStore& s, const ProverOptions& opt)
    : store(s), graph(KeqLanguage(&s, opt.semantics), opt.explanations) {}

size_t Proof::proved_count() const {
  size_t n = 0;
  for (size_t k = 0; k < goals.size(); ++k) n += proved(k);
  return n;
}

std::string Proof::step_label(const egraph::Justification& why, egraph::EClassId to) const {
  return rules::step_label(graph, rewrites, why, to);
}

std::string Proof::explain(size_t goal) {
  egraph::Explainer<KeqLanguage> ex(
      graph, [&](const auto& j, egraph::EClassId to) { return step_label(j, to); });
  return ex.explain(goals[goal].first, goals[goal].second).str();
}

std::string Proof::best(egraph::EClassId c) {
  egraph::Extractor<KeqLanguage, egraph::AstSize> extractor(graph, egraph::AstSize{});
  return store.str(to_term(store, extractor.extract(c)));
}

std::unique_ptr<Proof> prove(ir::TermStore& store, const std::vector<Goal>& goals,
                             const std::vector<ir::TermId>& terms, const RuleSet& rules,
                             const ProverOptions& opt) {
  auto p = std::make_unique<Proof>(store, opt);
  KeqLanguage::Graph& g = p->graph;
  g.lang().set_normal_forms(opt.normal_forms);
  g.lang().set_normal_form_element_terms(opt.element_terms);
  for (const auto& [var, range] : opt.domains) g.lang().set_domain(store.payload(var), range);
  for (ir::TermId var : opt.fp32_values) g.lang().set_fp32_value(store.payload(var));
  std::vector<KeqRule> all = rules.compile(g.lang());
  p->rules_loaded = all.size();
  p->rewrites = rewrites_for(all, opt.semantics);
  try {  // the budget's exception leaves a graph that may be gigabytes: freed off this thread
    TermAdder adder(g);
    for (ir::TermId t : terms) p->terms.push_back(adder.add(t));
    for (const Goal& goal : goals) p->goals.push_back({adder.add(goal.lhs), adder.add(goal.rhs)});
    auto all_proved = [&](KeqLanguage::Graph& eg) {
      for (auto [a, b] : p->goals)
        if (eg.find(a) != eg.find(b)) return false;
      return true;
    };
    egraph::Runner<KeqLanguage> runner(opt.limits);
    p->report = runner.run(g, p->rewrites,
                           goals.empty() ? nullptr : egraph::Runner<KeqLanguage>::Hook(all_proved));
  } catch (...) {
    discard(std::move(p));
    throw;
  }
  return p;
}

void discard(std::unique_ptr<Proof> proof) {
  if (proof) std::thread([p = std::move(proof)]() mutable { p.reset(); }).detach();
}

}  // namespace keq::rules
