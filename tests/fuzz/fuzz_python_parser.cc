// libFuzzer target: the Python source reader, lexer and parser (frontends/python). Any input
// must end in an AST or a clean error (CPython's SyntaxError, UNSUPPORTED syntax, not text);
// never a crash, a hang, or a sanitizer report.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string_view>

#include "frontends/python/python.h"
#include "tests/fuzz/line_mutator.h"
#include "frontends/python/value.h"
#include "ir/sexp.h"

namespace {
// How many inputs got past the parser: printed at exit, so a run shows whether mutations reach
// the parser's depths or die in the lexer.
struct Share {
  size_t inputs = 0, parsed = 0;
  ~Share() {
    std::fprintf(stderr, "keq-fuzz: %zu of %zu inputs parsed (%.1f%%)\n", parsed, inputs,
                 inputs ? 100.0 * static_cast<double>(parsed) / static_cast<double>(inputs) : 0.0);
  }
} share;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  ++share.inputs;
  try {
    keq::python::Tree t = keq::python::parse(keq::python::decode_source(bytes, "fuzz.py"), "fuzz.py");
    (void)t.dump();  // the printer recurses over the AST as deep as the parser allowed
    ++share.parsed;
  } catch (const keq::ir::SyntaxError&) {
  } catch (const keq::python::Unsupported&) {
  } catch (const keq::python::FileUnreadable&) {
  }
  return 0;
}
