#include <fstream>
#include <optional>
#include <sstream>

#include "frontends/python/lexer.h"
#include "frontends/python/python.h"
#include "frontends/python/value.h"
#include "ir/sexp.h"

namespace keq::python {

std::string_view kind_name(NodeKind k) {
  static constexpr std::string_view kNames[] = {
#define KEQ_PY_NAME(k) #k,
      KEQ_PY_NODES(KEQ_PY_NAME)
#undef KEQ_PY_NAME
  };
  return kNames[static_cast<int>(k)];
}

std::string Tree::dump() const {
  std::string out;
  auto rec = [&](auto& self, NodeId id, int depth) -> void {
    out.append(static_cast<size_t>(depth) * 2, ' ');
    if (id == kNoNode) {
      out += "-\n";
      return;
    }
    const Node& n = nodes[id];
    out += kind_name(n.kind);
    if (!n.text.empty() || n.kind == NodeKind::Str) {
      // An f-string's template prints its fields as {!r:>10} (the expressions are its kids).
      std::string t;
      bool in_field = false;
      for (size_t k = 0; k < n.text.size(); ++k) {
        char c = n.text[k];
        if (c == kFieldStart) {
          in_field = true;
          t += "{";
          if (n.text[k + 1] != ' ') t += std::string("!") + n.text[k + 1];
          if (n.text[k + 2] != kFieldEnd) t += ":";
          ++k;
        } else if (c == kFieldEnd) {
          in_field = false, t += "}";
        } else if (n.kind == NodeKind::FStr && !in_field && (c == '{' || c == '}')) {
          t += std::string(2, c);
        } else {
          t += c == '\n' ? std::string("\\n") : std::string(1, c);
        }
      }
      out += " '" + t + "'";
    }
    if (!n.text2.empty()) out += " as '" + n.text2 + "'";
    if (n.flags) out += " flags=" + std::to_string(n.flags);
    out += " @" + std::to_string(n.span.line) + ":" + std::to_string(n.span.col) + "-" +
           std::to_string(n.span.end_line) + ":" + std::to_string(n.span.end_col) + "\n";
    for (NodeId k : n.kids) self(self, k, depth + 1);
  };
  rec(rec, root, 0);
  return out;
}

namespace {

constexpr std::string_view kKeywords[] = {
    "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
    "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
    "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
    "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};

bool is_keyword(std::string_view s) {
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
  [[noreturn]] void unsupported(const std::string& what) const {
    const Token& t = peek();
    // Python accepts it; keq does not model it: UNSUPPORTED, not a file CPython rejects.
    throw Unsupported(
        ir::SourcePos{t_.file, static_cast<int>(t.span.line), static_cast<int>(t.span.col)}.str() +
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

  // ---- statements ----
  void statement(NodeId into) {
    const Token& t = peek();
    if (t.kind == TokKind::Indent) unsupported_indent();
    if (t.kind == TokKind::Op && t.text == "@") return kid(into, decorated());
    if (t.kind == TokKind::Name) {
      if (t.text == "if") return kid(into, if_stmt());
      if (t.text == "for") return kid(into, for_stmt());
      if (t.text == "while") return kid(into, while_stmt());
      if (t.text == "def") return kid(into, funcdef(make(NodeKind::Block, t.span)));
      if (t.text == "class") return kid(into, classdef(make(NodeKind::Block, t.span)));
      if (t.text == "with") return kid(into, with_stmt());
      if (t.text == "try") return kid(into, try_stmt());
      if (t.text == "async") unsupported("async");
      if (t.text == "match" && soft_keyword_statement()) unsupported("the match statement");
    }
    simple_statements(into);
  }
  // `match x:` (a soft keyword, Python 3.10): the name, a subject, and a line that ends in ':';
  // `match = ...`, `match.group()` and `match: int` stay the name.
  bool soft_keyword_statement() const {
    if (pos_ + 1 >= toks_.size()) return false;
    const Token& next = toks_[pos_ + 1];
    if (next.kind == TokKind::Op &&
        (next.text == ":" || next.text == "=" || next.text == "." || next.text.back() == '='))
      return false;
    size_t k = pos_ + 1;
    while (k < toks_.size() && toks_[k].kind != TokKind::Newline && toks_[k].kind != TokKind::End)
      ++k;
    return k > pos_ + 1 && toks_[k - 1].kind == TokKind::Op && toks_[k - 1].text == ":";
  }
  [[noreturn]] void unsupported_indent() const {
    const Token& t = peek();
    throw ir::SyntaxError(
        ir::SourcePos{t_.file, static_cast<int>(t.span.line), static_cast<int>(t.span.col)},
        "unexpected indent");
  }

  void simple_statements(NodeId into) {
    do {
      if (peek().kind == TokKind::Newline) break;
      kid(into, simple());
    } while (accept_op(";"));
    if (peek().kind != TokKind::Newline && peek().kind != TokKind::End) fail("end of statement");
    if (peek().kind == TokKind::Newline) take();
  }

  NodeId simple() {
    const Token& t = peek();
    Span s = t.span;
    if (t.kind == TokKind::Name) {
      if (t.text == "pass" || t.text == "break" || t.text == "continue") {
        NodeKind k = t.text == "pass"    ? NodeKind::Pass
                     : t.text == "break" ? NodeKind::Break
                                         : NodeKind::Continue;
        take();
        return finish(make(k, s));
      }
      if (accept_kw("return")) {
        NodeId r = make(NodeKind::Return, s);
        kid(r, ends_statement() ? kNoNode : testlist_star());
        return finish(r);
      }
      if (accept_kw("raise")) {
        NodeId r = make(NodeKind::Raise, s);
        kid(r, ends_statement() ? kNoNode : test());
        kid(r, accept_kw("from") ? test() : kNoNode);
        return finish(r);
      }
      if (at_kw("global") || at_kw("nonlocal")) {
        NodeId g = make(take().text == "global" ? NodeKind::Global : NodeKind::Nonlocal, s);
        std::string names = expect_name("a name");
        while (accept_op(",")) names += "," + expect_name("a name");
        t_.nodes[g].text = names;
        return finish(g);
      }
      if (accept_kw("del")) {
        NodeId d = make(NodeKind::Del, s);
        do kid(d, bitor_expr());
        while (accept_op(",") && !ends_statement());
        return finish(d);
      }
      if (accept_kw("assert")) {
        NodeId a = make(NodeKind::Assert, s);
        kid(a, test());
        kid(a, accept_op(",") ? test() : kNoNode);
        return finish(a);
      }
      if (at_kw("import")) return import_stmt();
      if (at_kw("from")) return from_import();
    }
    NodeId first = testlist_star();
    if (at_op("=")) {
      NodeId a = make(NodeKind::Assign, s);
      kid(a, first);
      while (accept_op("=")) kid(a, testlist_star());
      return finish(a);
    }
    static constexpr std::string_view kAug[] = {
        "+=", "-=", "*=", "/=", "//=", "%=", "**=", ">>=", "<<=", "&=", "|=", "^=", "@="};
    for (auto o : kAug) {
      if (!at_op(o)) continue;
      take();
      NodeId a = make(NodeKind::AugAssign, s, std::string(o.substr(0, o.size() - 1)));
      kid(a, first);
      kid(a, testlist_star());
      return finish(a);
    }
    if (accept_op(":")) {
      NodeId a = make(NodeKind::AnnAssign, s);
      kid(a, first);
      kid(a, test());
      kid(a, accept_op("=") ? testlist_star() : kNoNode);
      return finish(a);
    }
    NodeId e = make(NodeKind::ExprStmt, s);
    kid(e, first);
    return finish(e);
  }
  bool ends_statement() const {
    return peek().kind == TokKind::Newline || peek().kind == TokKind::End || at_op(";");
  }

  NodeId import_stmt() {
    NodeId n = make(NodeKind::Import, take().span);
    do {
      Span s = peek().span;
      NodeId a = make(NodeKind::Alias, s, dotted_name());
      if (accept_kw("as")) t_.nodes[a].text2 = expect_name("a name after 'as'");
      kid(n, finish(a));
    } while (accept_op(","));
    return finish(n);
  }
  std::string dotted_name() {
    std::string name = expect_name("a module name");
    while (accept_op(".")) name += "." + expect_name("a name after '.'");
    return name;
  }
  NodeId from_import() {
    NodeId n = make(NodeKind::ImportFrom, take().span);
    std::string mod;
    while (at_op(".") || at_op("...")) mod += take().text;
    if (!at_kw("import")) mod += dotted_name();
    t_.nodes[n].text = mod;
    if (!accept_kw("import")) fail("'import'");
    bool paren = accept_op("(");
    do {
      if (paren && at_op(")")) break;
      Span s = peek().span;
      NodeId a = make(NodeKind::Alias, s, accept_op("*") ? "*" : expect_name("a name to import"));
      if (accept_kw("as")) t_.nodes[a].text2 = expect_name("a name after 'as'");
      kid(n, finish(a));
    } while (accept_op(","));
    if (paren) expect_op(")", "to close the import list");
    return finish(n);
  }

  // ':' then an indented block or statements on the same line.
  NodeId block(const std::string& after) {
    expect_op(":", after);
    NodeId b = make(NodeKind::Block, peek().span);
    if (peek().kind != TokKind::Newline) {
      simple_statements(b);
      return finish(b);
    }
    take();
    if (peek().kind != TokKind::Indent) fail("an indented block " + after);
    take();
    t_.nodes[b].span = peek().span;
    while (peek().kind != TokKind::Dedent && peek().kind != TokKind::End) {
      if (peek().kind == TokKind::Newline) {
        take();
        continue;
      }
      statement(b);
    }
    if (peek().kind == TokKind::Dedent) take();
    return b;  // its span ends at its last statement
  }
  NodeId end_block(NodeId b) {
    const Node& n = t_.nodes[b];
    if (!n.kids.empty()) {
      t_.nodes[b].span.end_line = span(n.kids.back()).end_line;
      t_.nodes[b].span.end_col = span(n.kids.back()).end_col;
    }
    return b;
  }
  NodeId body(const std::string& after) { return end_block(block(after)); }

  NodeId if_stmt() {
    NodeId n = make(NodeKind::If, take().span);
    kid(n, namedexpr());
    kid(n, body("after the if condition"));
    if (at_kw("elif")) {
      kid(n, if_stmt());
    } else if (accept_kw("else")) {
      NodeId e = body("after else");
      t_.nodes[e].text2 = "else";
      kid(n, e);
    } else {
      kid(n, kNoNode);
    }
    return close(n);
  }
  NodeId close(NodeId n) {  // a compound statement ends where its last child ends
    for (auto it = t_.nodes[n].kids.rbegin(); it != t_.nodes[n].kids.rend(); ++it)
      if (*it != kNoNode) {
        t_.nodes[n].span.end_line = span(*it).end_line;
        t_.nodes[n].span.end_col = span(*it).end_col;
        break;
      }
    return n;
  }
  NodeId else_part() {
    if (!accept_kw("else")) return kNoNode;
    NodeId e = body("after else");
    t_.nodes[e].text2 = "else";
    return e;
  }
  NodeId for_stmt() {
    NodeId n = make(NodeKind::For, take().span);
    kid(n, target_list());
    if (!accept_kw("in")) fail("'in' in the for statement");
    kid(n, testlist_star());
    kid(n, body("after the for header"));
    kid(n, else_part());
    return close(n);
  }
  NodeId while_stmt() {
    NodeId n = make(NodeKind::While, take().span);
    kid(n, namedexpr());
    kid(n, body("after the while condition"));
    kid(n, else_part());
    return close(n);
  }
  NodeId decorated() {
    NodeId decos = make(NodeKind::Block, peek().span);
    while (accept_op("@")) {
      kid(decos, namedexpr());
      if (peek().kind != TokKind::Newline) fail("end of line after the decorator");
      take();
    }
    finish(decos);
    if (at_kw("def")) return funcdef(decos);
    if (at_kw("class")) return classdef(decos);
    if (at_kw("async")) unsupported("async def");
    fail("'def' or 'class' after decorators");
  }
  NodeId funcdef(NodeId decos) {
    Span s = t_.nodes[decos].kids.empty() ? peek().span : span(decos);
    take();  // def
    NodeId n = make(NodeKind::FunctionDef, s, expect_name("a function name"));
    kid(n, decos);
    expect_op("(", "after the function name");
    NodeId params = make(NodeKind::Block, last_);
    param_list(params, ")", true);
    expect_op(")", "to close the parameter list");
    kid(n, finish(params));
    kid(n, accept_op("->") ? test() : kNoNode);
    kid(n, body("after the function signature"));
    return close(n);
  }
  void param_list(NodeId into, std::string_view end, bool annotations) {
    while (!at_op(end)) {
      Span s = peek().span;
      NodeId p;
      if (accept_op("**")) {
        p = make(NodeKind::Param, s, expect_name("a parameter name after '**'"));
        t_.nodes[p].flags = 2;
      } else if (accept_op("*")) {
        bool bare = at_op(",") || at_op(end);
        p = make(NodeKind::Param, s, bare ? "" : expect_name("a parameter name after '*'"));
        t_.nodes[p].flags = bare ? 3 : 1;
      } else if (accept_op("/")) {
        p = make(NodeKind::Param, s);
        t_.nodes[p].flags = 4;
      } else {
        p = make(NodeKind::Param, s, expect_name("a parameter name"));
      }
      kid(p, annotations && t_.nodes[p].flags != 3 && t_.nodes[p].flags != 4 && accept_op(":")
                 ? test()
                 : kNoNode);
      kid(p, accept_op("=") ? test() : kNoNode);
      kid(into, finish(p));
      if (!accept_op(",")) break;
    }
  }
  NodeId classdef(NodeId decos) {
    Span s = t_.nodes[decos].kids.empty() ? peek().span : span(decos);
    take();  // class
    NodeId n = make(NodeKind::ClassDef, s, expect_name("a class name"));
    kid(n, decos);
    NodeId bases = make(NodeKind::Block, peek().span);
    if (accept_op("(")) {
      call_args(bases);
      expect_op(")", "to close the base classes");
    }
    kid(n, finish(bases));
    kid(n, body("after the class header"));
    return close(n);
  }
  NodeId with_stmt() {
    NodeId n = make(NodeKind::With, take().span);
    do {
      NodeId item = make(NodeKind::WithItem, peek().span);
      kid(item, test());
      kid(item, accept_kw("as") ? target_list() : kNoNode);
      kid(n, finish(item));
    } while (accept_op(","));
    kid(n, body("after the with items"));
    return close(n);
  }
  NodeId try_stmt() {
    NodeId n = make(NodeKind::Try, take().span);
    kid(n, body("after try"));
    while (at_kw("except")) {
      NodeId h = make(NodeKind::ExceptHandler, take().span);
      kid(h, at_op(":") ? kNoNode : test());
      if (accept_kw("as")) t_.nodes[h].text = expect_name("a name after 'as'");
      kid(h, body("after except"));
      kid(n, close(h));
    }
    kid(n, else_part());
    if (accept_kw("finally")) {
      NodeId f = body("after finally");
      t_.nodes[f].text2 = "finally";
      kid(n, f);
    }
    if (t_.nodes[n].kids.size() == 2 && t_.nodes[n].kids[1] == kNoNode)
      fail("'except' or 'finally'");
    return close(n);
  }

  // ---- expressions ----
  NodeId target_list() {  // for-loop and with targets: no comparisons, so 'in' is left alone
    Span s = peek().span;
    NodeId first = star_or(&Parser::bitor_expr);
    if (!at_op(",")) return first;
    NodeId tup = make(NodeKind::Tuple, s);
    kid(tup, first);
    while (accept_op(",") && !at_kw("in") && !at_op("=") && !at_op(":"))
      kid(tup, star_or(&Parser::bitor_expr));
    return finish(tup);
  }
  NodeId star_or(NodeId (Parser::*inner)()) {
    if (at_op("*")) {
      NodeId s = make(NodeKind::Starred, take().span);
      kid(s, (this->*inner)());
      return finish(s);
    }
    return (this->*inner)();
  }
  // A comma-separated list that is a tuple when it has a comma (return a, b; x = 1, 2).
  NodeId testlist_star() {
    Span s = peek().span;
    NodeId first = star_or(&Parser::test);
    if (!at_op(",")) return first;
    NodeId tup = make(NodeKind::Tuple, s);
    kid(tup, first);
    while (accept_op(",")) {
      if (ends_statement() || at_op("=") || at_op(")")) break;
      kid(tup, star_or(&Parser::test));
    }
    return finish(tup);
  }
  NodeId namedexpr() {
    Span s = peek().span;
    NodeId e = test();
    if (!at_op(":=")) return e;
    if (t_.nodes[e].kind != NodeKind::Name) fail("a name before ':='");
    take();
    NodeId n = make(NodeKind::NamedExpr, s);
    kid(n, e);
    kid(n, test());
    return finish(n);
  }
  NodeId test() {
    Nest guard(*this);
    if (at_kw("lambda")) return lambda();
    Span s = peek().span;
    NodeId body = or_test();
    if (!at_kw("if")) return body;
    take();
    NodeId n = make(NodeKind::IfExp, s);
    kid(n, body);
    kid(n, or_test());
    if (!accept_kw("else")) fail("'else' in the conditional expression");
    kid(n, test());
    return finish(n);
  }
  NodeId lambda() {
    NodeId n = make(NodeKind::Lambda, take().span);
    param_list(n, ":", false);
    expect_op(":", "after the lambda parameters");
    kid(n, test());
    return finish(n);
  }
  NodeId or_test() { return bool_chain("or", &Parser::and_test); }
  NodeId and_test() { return bool_chain("and", &Parser::not_test); }
  NodeId bool_chain(std::string_view kw, NodeId (Parser::*inner)()) {
    Span s = peek().span;
    NodeId first = (this->*inner)();
    if (!at_kw(kw)) return first;
    NodeId n = make(NodeKind::BoolOp, s, std::string(kw));
    kid(n, first);
    while (accept_kw(kw)) kid(n, (this->*inner)());
    return finish(n);
  }
  NodeId not_test() {
    Nest guard(*this);
    if (!at_kw("not")) return comparison();
    NodeId n = make(NodeKind::UnaryOp, take().span, "not");
    kid(n, not_test());
    return finish(n);
  }
  NodeId comparison() {
    Span s = peek().span;
    NodeId first = bitor_expr();
    std::string ops;
    NodeId n = kNoNode;
    while (true) {
      std::string op;
      if (peek().kind == TokKind::Op &&
          (at_op("<") || at_op(">") || at_op("==") || at_op(">=") || at_op("<=") || at_op("!="))) {
        op = take().text;
      } else if (at_kw("in")) {
        take(), op = "in";
      } else if (at_kw("not") && peek(1).kind == TokKind::Name && peek(1).text == "in") {
        take(), take(), op = "not in";
      } else if (at_kw("is")) {
        take();
        op = accept_kw("not") ? "is not" : "is";
      } else {
        break;
      }
      if (n == kNoNode) {
        n = make(NodeKind::Compare, s);
        kid(n, first);
      }
      ops += (ops.empty() ? "" : ",") + op;
      kid(n, bitor_expr());
    }
    if (n == kNoNode) return first;
    t_.nodes[n].text = ops;
    return finish(n);
  }
  NodeId binary(std::initializer_list<std::string_view> ops, NodeId (Parser::*inner)()) {
    Span s = peek().span;
    NodeId left = (this->*inner)();
    while (true) {
      std::string_view found;
      for (auto o : ops)
        if (at_op(o)) found = o;
      if (found.empty()) return left;
      take();
      NodeId n = make(NodeKind::BinOp, s, std::string(found));
      kid(n, left);
      kid(n, (this->*inner)());
      left = finish(n);
    }
  }
  NodeId bitor_expr() { return binary({"|"}, &Parser::bitxor_expr); }
  NodeId bitxor_expr() { return binary({"^"}, &Parser::bitand_expr); }
  NodeId bitand_expr() { return binary({"&"}, &Parser::shift_expr); }
  NodeId shift_expr() { return binary({"<<", ">>"}, &Parser::arith_expr); }
  NodeId arith_expr() { return binary({"+", "-"}, &Parser::term); }
  NodeId term() { return binary({"*", "/", "//", "%", "@"}, &Parser::factor); }
  NodeId factor() {
    Nest guard(*this);
    if (at_op("-") || at_op("+") || at_op("~")) {
      const Token& t = take();
      NodeId n = make(NodeKind::UnaryOp, t.span, t.text);
      kid(n, factor());
      return finish(n);
    }
    return power();
  }
  NodeId power() {
    Span s = peek().span;
    if (at_kw("await")) unsupported("await");
    NodeId base = primary();
    if (!accept_op("**")) return base;
    NodeId n = make(NodeKind::BinOp, s, "**");
    kid(n, base);
    kid(n, factor());  // right-associative, binds tighter than unary minus on its left
    return finish(n);
  }
  NodeId primary() {
    Span s = peek().span;
    NodeId e = atom();
    while (true) {
      if (accept_op("(")) {
        NodeId c = make(NodeKind::Call, s);
        kid(c, e);
        call_args(c);
        expect_op(")", "to close the call");
        e = finish(c);
      } else if (accept_op("[")) {
        NodeId sub = make(NodeKind::Subscript, s);
        kid(sub, e);
        kid(sub, subscript_list());
        expect_op("]", "to close the subscript");
        e = finish(sub);
      } else if (accept_op(".")) {
        NodeId a = make(NodeKind::Attribute, s);
        kid(a, e);
        t_.nodes[a].text = expect_name("an attribute name after '.'");
        e = finish(a);
      } else {
        return e;
      }
    }
  }
  void call_args(NodeId c) {
    while (!at_op(")")) {
      Span s = peek().span;
      if (accept_op("*")) {
        NodeId n = make(NodeKind::Starred, s);
        kid(n, test());
        kid(c, finish(n));
      } else if (accept_op("**")) {
        NodeId n = make(NodeKind::DoubleStarred, s);
        kid(n, test());
        kid(c, finish(n));
      } else if (peek().kind == TokKind::Name && peek(1).kind == TokKind::Op &&
                 peek(1).text == "=" && !is_keyword(peek().text)) {
        NodeId n = make(NodeKind::Keyword, s, take().text);
        take();  // =
        kid(n, test());
        kid(c, finish(n));
      } else {
        NodeId arg = test();
        if (at_kw("for")) arg = comprehension(NodeKind::GenExp, arg, kNoNode, s);
        kid(c, arg);
      }
      if (!accept_op(",")) break;
    }
  }
  NodeId subscript_list() {
    Span s = peek().span;
    NodeId first = subscript();
    if (!at_op(",")) return first;
    NodeId tup = make(NodeKind::Tuple, s);
    kid(tup, first);
    while (accept_op(",") && !at_op("]")) kid(tup, subscript());
    return finish(tup);
  }
  NodeId subscript() {
    Span s = peek().span;
    NodeId lower = at_op(":") ? kNoNode : test();
    if (!at_op(":")) return lower;
    take();
    NodeId sl = make(NodeKind::Slice, s);
    kid(sl, lower);
    kid(sl, at_op(":") || at_op("]") || at_op(",") ? kNoNode : test());
    kid(sl, accept_op(":") && !at_op("]") && !at_op(",") ? test() : kNoNode);
    return finish(sl);
  }
  NodeId comprehension(NodeKind kind, NodeId elt, NodeId value, Span s) {
    NodeId n = make(kind, s);
    kid(n, elt);
    if (value != kNoNode) kid(n, value);
    while (at_kw("for")) {
      NodeId c = make(NodeKind::Comprehension, take().span);
      kid(c, target_list());
      if (!accept_kw("in")) fail("'in' in the comprehension");
      kid(c, or_test());
      while (accept_kw("if")) kid(c, or_test());
      kid(n, finish(c));
    }
    return finish(n);
  }
  // `yield` and `yield VALUE`, as a statement or parenthesized; `yield from` is not modelled.
  NodeId yield_expr() {
    NodeId y = make(NodeKind::Yield, take().span);
    if (at_kw("from")) unsupported("yield from");
    bool bare = ends_statement() || at_op(")") || at_op("=");
    kid(y, bare ? kNoNode : testlist_star());
    return finish(y);
  }
  NodeId atom() {
    const Token& t = peek();
    Span s = t.span;
    switch (t.kind) {
      case TokKind::Number: {
        take();
        bool is_float = t.text.find_first_of(".eE") != std::string::npos &&
                        !(t.text.size() > 1 && (t.text[1] == 'x' || t.text[1] == 'X'));
        return finish(make(is_float ? NodeKind::Float : NodeKind::Int, s, t.text));
      }
      case TokKind::String:
        return strings();
      case TokKind::Name: {
        if (t.text == "None" || t.text == "True" || t.text == "False") {
          take();
          return finish(make(t.text == "None"   ? NodeKind::None
                             : t.text == "True" ? NodeKind::True
                                                : NodeKind::False,
                             s));
        }
        if (t.text == "yield") return yield_expr();
        if (is_keyword(t.text)) fail("an expression");
        take();
        return finish(make(NodeKind::Name, s, t.text));
      }
      case TokKind::Op:
        break;
      default:
        fail("an expression");
    }
    if (accept_op("...")) return finish(make(NodeKind::Ellipsis, s));
    if (accept_op("(")) {
      if (accept_op(")")) return finish(make(NodeKind::Tuple, s));
      NodeId first = star_or(&Parser::namedexpr);
      if (at_kw("for")) {
        NodeId g = comprehension(NodeKind::GenExp, first, kNoNode, s);
        expect_op(")", "to close the generator expression");
        return finish(g);
      }
      if (accept_op(")")) return first;  // parenthesized expression
      NodeId tup = make(NodeKind::Tuple, s);
      kid(tup, first);
      while (accept_op(",") && !at_op(")")) kid(tup, star_or(&Parser::test));
      expect_op(")", "to close the tuple");
      return finish(tup);
    }
    if (accept_op("[")) {
      if (accept_op("]")) return finish(make(NodeKind::List, s));
      NodeId first = star_or(&Parser::test);
      if (at_kw("for")) {
        NodeId lc = comprehension(NodeKind::ListComp, first, kNoNode, s);
        expect_op("]", "to close the list comprehension");
        return finish(lc);
      }
      NodeId list = make(NodeKind::List, s);
      kid(list, first);
      while (accept_op(",") && !at_op("]")) kid(list, star_or(&Parser::test));
      expect_op("]", "to close the list");
      return finish(list);
    }
    if (accept_op("{")) return brace(s);
    fail("an expression");
  }
  NodeId brace(Span s) {
    if (accept_op("}")) return finish(make(NodeKind::Dict, s));
    if (accept_op("**")) {
      NodeId d = make(NodeKind::Dict, s);
      kid(d, kNoNode);
      kid(d, bitor_expr());
      return dict_rest(d);
    }
    NodeId first = star_or(&Parser::test);
    if (accept_op(":")) {
      NodeId value = test();
      if (at_kw("for")) {
        NodeId dc = comprehension(NodeKind::DictComp, first, value, s);
        expect_op("}", "to close the dict comprehension");
        return finish(dc);
      }
      NodeId d = make(NodeKind::Dict, s);
      kid(d, first);
      kid(d, value);
      return dict_rest(d);
    }
    if (at_kw("for")) {
      NodeId sc = comprehension(NodeKind::SetComp, first, kNoNode, s);
      expect_op("}", "to close the set comprehension");
      return finish(sc);
    }
    NodeId set = make(NodeKind::Set, s);
    kid(set, first);
    while (accept_op(",") && !at_op("}")) kid(set, star_or(&Parser::test));
    expect_op("}", "to close the set");
    return finish(set);
  }
  NodeId dict_rest(NodeId d) {
    while (accept_op(",") && !at_op("}")) {
      if (accept_op("**")) {
        kid(d, kNoNode);
        kid(d, bitor_expr());
        continue;
      }
      kid(d, test());
      expect_op(":", "between a dict key and its value");
      kid(d, test());
    }
    expect_op("}", "to close the dict");
    return finish(d);
  }
  // Adjacent literals join. An f-string's node keeps a template: its literal text, and for
  // each replacement field kFieldStart, the conversion ('r', 's', 'a' or ' '), the format spec
  // and kFieldEnd, its expression the next kid.
  NodeId strings() {
    Span s = peek().span;
    std::string value, tmpl;
    bool fstring = false, bytes = false;
    std::vector<NodeId> parts;
    std::optional<Span> marker;  // literal text holding a character the template uses
    while (peek().kind == TokKind::String) {
      const Token& t = take();
      if (!marker && t.text.find_first_of(std::string{kFieldStart, kFieldEnd}) != std::string::npos)
        marker = t.span;
      bool f = t.prefix.find('f') != std::string::npos;
      bytes = bytes || t.prefix.find('b') != std::string::npos;
      if (f) {
        fstring = true;
        tmpl += fstring_template(t, parts);
      } else {
        tmpl += t.text;
      }
      value += t.text;
    }
    // The template marks its fields with \x01 and \x02: an f-string's text holding one would
    // read as a field (a heap overread, found by fuzz_python_parser). Python allows it; no real
    // kernel file writes it.
    if (fstring && marker)
      throw Unsupported(
          ir::SourcePos{t_.file, static_cast<int>(marker->line), static_cast<int>(marker->col)}
              .str() +
          ": unsupported syntax: an f-string whose text holds the control character \\x01 or "
          "\\x02");
    NodeId n = make(fstring ? NodeKind::FStr
                    : bytes ? NodeKind::Bytes
                            : NodeKind::Str,
                    s, fstring ? tmpl : value);
    t_.nodes[n].kids = parts;
    return finish(n);
  }
  // Escapes were processed by the lexer (an f-string's expressions cannot hold a backslash).
  std::string fstring_template(const Token& t, std::vector<NodeId>& parts) {
    const std::string& r = t.text;
    std::string out;
    for (size_t k = 0; k < r.size(); ++k) {
      if ((r[k] == '{' || r[k] == '}') && k + 1 < r.size() && r[k + 1] == r[k]) {
        out += r[k++];
        continue;
      }
      if (r[k] == '}') syntax_error_at(t.span, "f-string: single '}' is not allowed");
      if (r[k] != '{') {
        out += r[k];
        continue;
      }
      int depth = 0;
      size_t e = k + 1;
      for (; e < r.size(); ++e) {
        char c = r[e];
        if (c == '(' || c == '[' || c == '{') ++depth;
        if (c == ')' || c == ']') --depth;
        if (c == '}' && depth-- == 0) break;
        // ':' at depth 0 starts the spec (a walrus must be parenthesized); '!=' is no conversion.
        if (depth == 0 && (c == ':' || (c == '!' && (e + 1 >= r.size() || r[e + 1] != '=')))) break;
      }
      if (e >= r.size()) syntax_error_at(t.span, "f-string: expecting '}'");
      std::string inner = r.substr(k + 1, e - k - 1);
      // {x=}: the expression's text, '=', then its repr unless a conversion or spec follows.
      size_t last = inner.find_last_not_of(" ");
      bool self_documenting = last != std::string::npos && inner[last] == '=' && last > 0 &&
                              std::string("=!<>").find(inner[last - 1]) == std::string::npos;
      if (self_documenting) out += inner, inner = inner.substr(0, last);
      std::vector<Token> sub = tokenize(inner, t_.file);
      for (Token& st : sub) st.span = Span{t.span.line, t.span.col, t.span.line, t.span.col};
      Tree& tree = t_;
      Parser p(std::move(sub), tree);
      parts.push_back(p.test());
      char conversion = self_documenting ? 'r' : ' ';
      if (r[e] == '!') {
        if (e + 1 >= r.size() || std::string("rsa").find(r[e + 1]) == std::string::npos)
          syntax_error_at(t.span,
                          "f-string: invalid conversion character: expected 's', 'r', or 'a'");
        conversion = r[e + 1];
        e += 2;
      }
      std::string spec;
      if (e < r.size() && r[e] == ':') {
        if (self_documenting && conversion == 'r') conversion = ' ';
        size_t close = e + 1;
        while (close < r.size() && r[close] != '}') {
          if (r[close] == '{')
            throw Unsupported(
                ir::SourcePos{t_.file, static_cast<int>(t.span.line), static_cast<int>(t.span.col)}
                    .str() +
                ": unsupported syntax: a replacement field nested in a format spec");
          ++close;
        }
        spec = r.substr(e + 1, close - e - 1);
        e = close;
      }
      if (e >= r.size() || r[e] != '}') syntax_error_at(t.span, "f-string: expecting '}'");
      out += kFieldStart;
      out += conversion;
      out += spec;
      out += kFieldEnd;
      k = e;
    }
    return out;
  }

  std::vector<Token> toks_;
  Tree& t_;
  size_t pos_ = 0;
  Span last_;
  size_t nesting_ = 0;
};

}  // namespace

Tree parse(std::string_view source, const std::string& file) {
  Tree t;
  t.file = file;
  Parser p(tokenize(source, file), t);
  t.root = p.module();
  check_depth(t);
  return t;
}

Tree parse_file(const std::string& path) {
  return parse(read_source_file(path), path);
}

}  // namespace keq::python
