// The recursive-descent parser of Python's grammar (the subset keq reads), shared by its three
// parts: statements (parser_statements.cc), expressions (parser_expressions.cc) and string
// literals with f-string templates (parser_strings.cc). The token and node helpers every part
// uses are here. Internal to frontends/python: python.h's parse() is the public entry.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "frontends/python/lexer.h"
#include "frontends/python/python.h"
#include "frontends/python/value.h"
#include "ir/sexp.h"

namespace keq::python::detail {

inline constexpr std::string_view kKeywords[] = {
    "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
    "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
    "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
    "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};

inline bool is_keyword(std::string_view s) {
  for (auto k : kKeywords)
    if (k == s) return true;
  return false;
}

class Parser {
 public:
  Parser(std::vector<Token> toks, Tree& t) : toks_(std::move(toks)), t_(t) {}

  NodeId module() {
    NodeId m = make(NodeKind::Module, toks_[0].span);
    while (peek().kind != TokKind::End) {
      if (peek().kind == TokKind::Newline) {
        ++pos_;
        continue;
      }
      statement(m);
    }
    finish(m);
    return m;
  }

 private:
  // ---- tokens ----
  const Token& peek(size_t ahead = 0) const {
    return toks_[std::min(pos_ + ahead, toks_.size() - 1)];
  }
  bool at_op(std::string_view o) const { return peek().kind == TokKind::Op && peek().text == o; }
  bool at_kw(std::string_view k) const { return peek().kind == TokKind::Name && peek().text == k; }
  const Token& take() {
    last_ = peek().span;
    return toks_[pos_++];
  }
  bool accept_op(std::string_view o) {
    if (!at_op(o)) return false;
    take();
    return true;
  }
  bool accept_kw(std::string_view k) {
    if (!at_kw(k)) return false;
    take();
    return true;
  }
  static std::string describe(const Token& t) {
    switch (t.kind) {
      case TokKind::Newline:
        return "end of line";
      case TokKind::Indent:
        return "an indent";
      case TokKind::Dedent:
        return "a dedent";
      case TokKind::End:
        return "end of file";
      case TokKind::String:
        return "a string";
      default:
        return "'" + t.text + "'";
    }
  }
  [[noreturn]] void fail(const std::string& expected) const {
    const Token& t = peek();
    throw ir::SyntaxError(
        ir::SourcePos{t_.file, static_cast<int>(t.span.line), static_cast<int>(t.span.col)},
        "expected " + expected + ", got " + describe(t));
  }
  // Python accepts it; keq does not model it: UNSUPPORTED, not a file CPython rejects.
  [[noreturn]] void unsupported(const std::string& what) const {
    unsupported_at(peek().span, what);
  }
  [[noreturn]] void unsupported_at(Span at, const std::string& what) const {
    throw Unsupported(
        ir::SourcePos{t_.file, static_cast<int>(at.line), static_cast<int>(at.col)}.str() +
        ": unsupported syntax: " + what);
  }
  [[noreturn]] void syntax_error_at(Span at, const std::string& message) const {
    throw ir::SyntaxError(
        ir::SourcePos{t_.file, static_cast<int>(at.line), static_cast<int>(at.col)}, message);
  }
  void expect_op(std::string_view o, const std::string& context) {
    if (!accept_op(o)) fail("'" + std::string(o) + "'" + (context.empty() ? "" : " " + context));
  }
  std::string expect_name(const std::string& what) {
    if (peek().kind != TokKind::Name || is_keyword(peek().text)) fail(what);
    return take().text;
  }

  // Recursive descent nests as deep as the source: bounded as CPython's compiler bounds it.
  struct Nest {
    Parser& p;
    explicit Nest(Parser& parser) : p(parser) {
      if (++p.nesting_ > kMaxAstDepth) {
        const Token& t = p.peek();
        throw ir::SyntaxError(
            ir::SourcePos{p.t_.file, static_cast<int>(t.span.line), static_cast<int>(t.span.col)},
            "RecursionError: maximum recursion depth exceeded during compilation");
      }
    }
    ~Nest() { --p.nesting_; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;
  };

  // ---- nodes ----
  NodeId make(NodeKind k, const Span& start, std::string text = "") {
    t_.nodes.push_back(Node{k, start, std::move(text), "", 0, {}});
    return static_cast<NodeId>(t_.nodes.size() - 1);
  }
  NodeId finish(NodeId n) {
    t_.nodes[n].span.end_line = last_.end_line;
    t_.nodes[n].span.end_col = last_.end_col;
    return n;
  }
  void kid(NodeId parent, NodeId child) { t_.nodes[parent].kids.push_back(child); }
  const Span& span(NodeId n) const { return t_.nodes[n].span; }

  // ---- statements (parser_statements.cc) ----
  void statement(NodeId into);
  bool soft_keyword_statement() const;
  [[noreturn]] void unsupported_indent() const;
  void simple_statements(NodeId into);
  NodeId simple();
  bool ends_statement() const;
  NodeId import_stmt();
  std::string dotted_name();
  NodeId from_import();
  NodeId block(const std::string& after);
  NodeId end_block(NodeId b);
  NodeId body(const std::string& after);
  NodeId if_stmt();
  NodeId close(NodeId n);
  NodeId else_part();
  NodeId for_stmt();
  NodeId while_stmt();
  NodeId decorated();
  NodeId funcdef(NodeId decos);
  void param_list(NodeId into, std::string_view end, bool annotations);
  NodeId classdef(NodeId decos);
  NodeId with_stmt();
  NodeId try_stmt();

  // ---- expressions (parser_expressions.cc) ----
  NodeId target_list();
  NodeId star_or(NodeId (Parser::*inner)());
  NodeId testlist_star();
  NodeId namedexpr();
  NodeId test();
  NodeId lambda();
  NodeId or_test();
  NodeId and_test();
  NodeId bool_chain(std::string_view kw, NodeId (Parser::*inner)());
  NodeId not_test();
  NodeId comparison();
  NodeId binary(std::initializer_list<std::string_view> ops, NodeId (Parser::*inner)());
  NodeId bitor_expr();
  NodeId bitxor_expr();
  NodeId bitand_expr();
  NodeId shift_expr();
  NodeId arith_expr();
  NodeId term();
  NodeId factor();
  NodeId power();
  NodeId primary();
  void call_args(NodeId c);
  NodeId subscript_list();
  NodeId subscript();
  NodeId comprehension(NodeKind kind, NodeId elt, NodeId value, Span s);
  NodeId yield_expr();
  NodeId atom();
  NodeId brace(Span s);
  NodeId dict_rest(NodeId d);

  // ---- string literals and f-string templates (parser_strings.cc) ----
  NodeId strings();
  std::string fstring_template(const Token& t, std::vector<NodeId>& parts);

  std::vector<Token> toks_;
  Tree& t_;
  size_t pos_ = 0;
  Span last_;
  size_t nesting_ = 0;
};

}  // namespace keq::python::detail
