// Golden tests of the Python parser: tests/golden/parser/NAME.py against NAME.expected, which
// holds the AST dump with spans, or the syntax error (file:line:col and message).
// To regenerate after a deliberate change: KEQ_UPDATE_GOLDEN=1 build/tests/python_parser_test,
// then read the diff.
#include <gtest/gtest.h>

#include <filesystem>

#include "frontends/python/lexer.h"
#include "frontends/python/python.h"
#include "frontends/python/value.h"
#include "ir/sexp.h"
#include "tests/golden.h"

namespace keq::python {
namespace {

namespace fs = std::filesystem;
const fs::path kDir = fs::path(KEQ_SOURCE_DIR) / "tests/golden/parser";

std::string outcome(const fs::path& py) {
  try {
    return parse_file(py.string()).dump();
  } catch (const ir::SyntaxError& e) {
    return "error: " + test::relative_message(e.what(), py) + "\n";
  } catch (const Unsupported& e) {  // Python accepts it, keq does not model it
    return "error: " + test::relative_message(e.what(), py) + "\n";
  }
}

TEST(PythonParser, GoldenFiles) {
  EXPECT_GE(test::check_goldens(kDir, outcome), 10u);
}

TEST(PythonParser, EveryNodeSpanLiesInsideItsParent) {
  for (const char* f :
       {"kernelbench_style.py", "statements.py", "expressions.py", "triton_kernel.py"}) {
    Tree t = parse_file((kDir / f).string());
    auto inside = [](const Span& in, const Span& out) {
      auto before = [](uint32_t l1, uint32_t c1, uint32_t l2, uint32_t c2) {
        return l1 < l2 || (l1 == l2 && c1 <= c2);
      };
      return before(out.line, out.col, in.line, in.col) &&
             before(in.end_line, in.end_col, out.end_line, out.end_col);
    };
    for (const Node& n : t.nodes)
      for (NodeId k : n.kids) {
        if (k == kNoNode) continue;
        const Node& c = t.at(k);
        if (n.kind == NodeKind::FStr || c.kind == NodeKind::Block) continue;  // see ast.h
        EXPECT_TRUE(inside(c.span, n.span))
            << f << ": " << kind_name(c.kind) << " @" << c.span.line << ":" << c.span.col
            << " outside " << kind_name(n.kind) << " @" << n.span.line << ":" << n.span.col;
      }
  }
}

TEST(PythonLexer, IndentationAndContinuations) {
  auto kinds = [](const std::string& src) {
    std::string s;
    for (const Token& t : tokenize(src, "t.py")) {
      switch (t.kind) {
        case TokKind::Indent:
          s += "> ";
          break;
        case TokKind::Dedent:
          s += "< ";
          break;
        case TokKind::Newline:
          s += "; ";
          break;
        case TokKind::End:
          s += "$";
          break;
        default:
          s += t.text + " ";
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
