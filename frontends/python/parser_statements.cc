// Python's statements: simple ones, blocks, and the compound statements (if, for, while, def,
// class, with, try).
#include "frontends/python/parser_impl.h"

namespace keq::python::detail {

void Parser::statement(NodeId into) {
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
bool Parser::soft_keyword_statement() const {
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

void Parser::unsupported_indent() const {
  const Token& t = peek();
  throw ir::SyntaxError(
      ir::SourcePos{t_.file, static_cast<int>(t.span.line), static_cast<int>(t.span.col)},
      "unexpected indent");
}

void Parser::simple_statements(NodeId into) {
  do {
    if (peek().kind == TokKind::Newline) break;
    kid(into, simple());
  } while (accept_op(";"));
  if (peek().kind != TokKind::Newline && peek().kind != TokKind::End) fail("end of statement");
  if (peek().kind == TokKind::Newline) take();
}

NodeId Parser::simple() {
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

bool Parser::ends_statement() const {
  return peek().kind == TokKind::Newline || peek().kind == TokKind::End || at_op(";");
}

NodeId Parser::import_stmt() {
  NodeId n = make(NodeKind::Import, take().span);
  do {
    Span s = peek().span;
    NodeId a = make(NodeKind::Alias, s, dotted_name());
    if (accept_kw("as")) t_.nodes[a].text2 = expect_name("a name after 'as'");
    kid(n, finish(a));
  } while (accept_op(","));
  return finish(n);
}

std::string Parser::dotted_name() {
  std::string name = expect_name("a module name");
  while (accept_op(".")) name += "." + expect_name("a name after '.'");
  return name;
}

NodeId Parser::from_import() {
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
NodeId Parser::block(const std::string& after) {
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

NodeId Parser::end_block(NodeId b) {
  const Node& n = t_.nodes[b];
  if (!n.kids.empty()) {
    t_.nodes[b].span.end_line = span(n.kids.back()).end_line;
    t_.nodes[b].span.end_col = span(n.kids.back()).end_col;
  }
  return b;
}

NodeId Parser::body(const std::string& after) {
  return end_block(block(after));
}

NodeId Parser::if_stmt() {
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

// a compound statement ends where its last child ends
NodeId Parser::close(NodeId n) {
  for (auto it = t_.nodes[n].kids.rbegin(); it != t_.nodes[n].kids.rend(); ++it)
    if (*it != kNoNode) {
      t_.nodes[n].span.end_line = span(*it).end_line;
      t_.nodes[n].span.end_col = span(*it).end_col;
      break;
    }
  return n;
}

NodeId Parser::else_part() {
  if (!accept_kw("else")) return kNoNode;
  NodeId e = body("after else");
  t_.nodes[e].text2 = "else";
  return e;
}

NodeId Parser::for_stmt() {
  NodeId n = make(NodeKind::For, take().span);
  kid(n, target_list());
  if (!accept_kw("in")) fail("'in' in the for statement");
  kid(n, testlist_star());
  kid(n, body("after the for header"));
  kid(n, else_part());
  return close(n);
}

NodeId Parser::while_stmt() {
  NodeId n = make(NodeKind::While, take().span);
  kid(n, namedexpr());
  kid(n, body("after the while condition"));
  kid(n, else_part());
  return close(n);
}

NodeId Parser::decorated() {
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

NodeId Parser::funcdef(NodeId decos) {
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

void Parser::param_list(NodeId into, std::string_view end, bool annotations) {
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

NodeId Parser::classdef(NodeId decos) {
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

NodeId Parser::with_stmt() {
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

NodeId Parser::try_stmt() {
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
  if (t_.nodes[n].kids.size() == 2 && t_.nodes[n].kids[1] == kNoNode) fail("'except' or 'finally'");
  return close(n);
}

}  // namespace keq::python::detail
