// Golden tests of the Python parser: tests/golden/parser/NAME.py against NAME.expected, which
// holds the AST dump with spans, or the syntax error (file:line:col and message).
// To regenerate after a deliberate change: KEQ_UPDATE_GOLDEN=1 build/tests/python_parser_test,
// then read the diff.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontends/python/lexer.h"
#include "frontends/python/python.h"
#include "ir/sexp.h"

namespace keq::python {
namespace {

namespace fs = std::filesystem;
const fs::path kDir = fs::path(KEQ_SOURCE_DIR) / "tests/golden/parser";

std::string outcome(const fs::path& py) {
  try {
    return parse_file(py.filename().string() == py.string() ? py.string() : py.string()).dump();
  } catch (const ir::SyntaxError& e) {
    // Name the file relative to the golden folder so expectations do not depend on the checkout.
    std::string what = e.what();
    std::string full = py.string();
    if (what.rfind(full, 0) == 0) what = py.filename().string() + what.substr(full.size());
    return "error: " + what + "\n";
  }
}

TEST(PythonParser, GoldenFiles) {
  bool update = std::getenv("KEQ_UPDATE_GOLDEN") != nullptr;
  size_t n = 0;
  for (const auto& entry : fs::directory_iterator(kDir)) {
    if (entry.path().extension() != ".py") continue;
    ++n;
    fs::path expected = entry.path();
    expected.replace_extension(".expected");
    std::string got = outcome(entry.path());
    if (update) {
      std::ofstream(expected) << got;
      continue;
    }
    std::ifstream in(expected);
    ASSERT_TRUE(in) << "missing " << expected << " (run with KEQ_UPDATE_GOLDEN=1)";
    std::stringstream want;
    want << in.rdbuf();
    EXPECT_EQ(got, want.str()) << "for " << entry.path().filename();
  }
  EXPECT_GE(n, 10u);
}

TEST(PythonParser, EveryNodeSpanLiesInsideItsParent) {
  for (const char* f : {"kernelbench_style.py", "statements.py", "expressions.py", "triton_kernel.py"}) {
    Tree t = parse_file((kDir / f).string());
    auto inside = [](const Span& in, const Span& out) {
      auto before = [](uint32_t l1, uint32_t c1, uint32_t l2, uint32_t c2) { return l1 < l2 || (l1 == l2 && c1 <= c2); };
      return before(out.line, out.col, in.line, in.col) && before(in.end_line, in.end_col, out.end_line, out.end_col);
    };
    for (const Node& n : t.nodes)
      for (NodeId k : n.kids) {
        if (k == kNoNode) continue;
        const Node& c = t.at(k);
        if (n.kind == NodeKind::FStr || c.kind == NodeKind::Block) continue;  // see ast.h
        EXPECT_TRUE(inside(c.span, n.span))
            << f << ": " << kind_name(c.kind) << " @" << c.span.line << ":" << c.span.col << " outside "
            << kind_name(n.kind) << " @" << n.span.line << ":" << n.span.col;
      }
  }
}

TEST(PythonLexer, IndentationAndContinuations) {
  auto kinds = [](const std::string& src) {
    std::string s;
    for (const Token& t : tokenize(src, "t.py")) {
      switch (t.kind) {
        case TokKind::Indent: s += "> "; break;
        case TokKind::Dedent: s += "< "; break;
        case TokKind::Newline: s += "; "; break;
        case TokKind::End: s += "$"; break;
        default: s += t.text + " ";
      }
    }
    return s;
  };
  EXPECT_EQ(kinds("if a:\n    b\n\n    # c\nd\n"), "if a : ; > b ; < d ; $");
  EXPECT_EQ(kinds("x = (1,\n   2)\n"), "x = ( 1 , 2 ) ; $");
  EXPECT_EQ(kinds("x = 1 + \\\n  2\n"), "x = 1 + 2 ; $");
  EXPECT_EQ(kinds("if a:\n\tb\n"), "if a : ; > b ; < $");
  EXPECT_EQ(kinds("x"), "x ; $");
}

}  // namespace
}  // namespace keq::python
