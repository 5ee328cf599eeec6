// libFuzzer target: the s-expression reader and the term reader/printer (ir/). Any input is a
// term or a SyntaxError naming file:line:col.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ir/sexp.h"
#include "ir/term.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    keq::ir::TermStore store;
    for (const keq::ir::SExpr& e : keq::ir::parse_sexprs(text, "fuzz.eg")) {
      keq::ir::TermId t = keq::ir::read_term(store, e);
      (void)store.str(t, 1 << 16);
    }
  } catch (const keq::ir::SyntaxError&) {
  }
  return 0;
}
