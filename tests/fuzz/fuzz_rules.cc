// libFuzzer target: the rule language (rules/rule_file.h) over keq's op table. A rule file is a
// list of rules or a SyntaxError naming file:line:col.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "rules/rules.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  keq::ir::TermStore store;
  keq::rules::KeqLanguage lang(&store, keq::ir::Semantics::Real);
  try {
    keq::rules::RuleParser<keq::rules::KeqLanguage> parser(lang);
    auto rules = parser.parse(keq::ir::parse_sexprs(text, "fuzz.rules"));
    (void)keq::rules::rewrites_for(rules, keq::ir::Semantics::Real);
  } catch (const keq::ir::SyntaxError&) {
  }
  return 0;
}
