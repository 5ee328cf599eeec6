// Python's expressions, by precedence from a conditional expression down to an atom, with
// calls, subscripts, comprehensions and displays.
#include "frontends/python/parser_impl.h"

namespace keq::python::detail {

// for-loop and with targets: no comparisons, so 'in' is left alone
NodeId Parser::target_list() {
  Span s = peek().span;
  NodeId first = star_or(&Parser::bitor_expr);
  if (!at_op(",")) return first;
  NodeId tup = make(NodeKind::Tuple, s);
  kid(tup, first);
  while (accept_op(",") && !at_kw("in") && !at_op("=") && !at_op(":"))
    kid(tup, star_or(&Parser::bitor_expr));
  return finish(tup);
}

NodeId Parser::star_or(NodeId (Parser::*inner)()) {
  if (at_op("*")) {
    NodeId s = make(NodeKind::Starred, take().span);
    kid(s, (this->*inner)());
    return finish(s);
  }
  return (this->*inner)();
}

// A comma-separated list that is a tuple when it has a comma (return a, b; x = 1, 2).
NodeId Parser::testlist_star() {
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

NodeId Parser::namedexpr() {
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

NodeId Parser::test() {
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

NodeId Parser::lambda() {
  NodeId n = make(NodeKind::Lambda, take().span);
  param_list(n, ":", false);
  expect_op(":", "after the lambda parameters");
  kid(n, test());
  return finish(n);
}

NodeId Parser::or_test() {
  return bool_chain("or", &Parser::and_test);
}

NodeId Parser::and_test() {
  return bool_chain("and", &Parser::not_test);
}

NodeId Parser::bool_chain(std::string_view kw, NodeId (Parser::*inner)()) {
  Span s = peek().span;
  NodeId first = (this->*inner)();
  if (!at_kw(kw)) return first;
  NodeId n = make(NodeKind::BoolOp, s, std::string(kw));
  kid(n, first);
  while (accept_kw(kw)) kid(n, (this->*inner)());
  return finish(n);
}

NodeId Parser::not_test() {
  Nest guard(*this);
  if (!at_kw("not")) return comparison();
  NodeId n = make(NodeKind::UnaryOp, take().span, "not");
  kid(n, not_test());
  return finish(n);
}

NodeId Parser::comparison() {
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

NodeId Parser::binary(std::initializer_list<std::string_view> ops, NodeId (Parser::*inner)()) {
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

NodeId Parser::bitor_expr() {
  return binary({"|"}, &Parser::bitxor_expr);
}

NodeId Parser::bitxor_expr() {
  return binary({"^"}, &Parser::bitand_expr);
}

NodeId Parser::bitand_expr() {
  return binary({"&"}, &Parser::shift_expr);
}

NodeId Parser::shift_expr() {
  return binary({"<<", ">>"}, &Parser::arith_expr);
}

NodeId Parser::arith_expr() {
  return binary({"+", "-"}, &Parser::term);
}

NodeId Parser::term() {
  return binary({"*", "/", "//", "%", "@"}, &Parser::factor);
}

NodeId Parser::factor() {
  Nest guard(*this);
  if (at_op("-") || at_op("+") || at_op("~")) {
    const Token& t = take();
    NodeId n = make(NodeKind::UnaryOp, t.span, t.text);
    kid(n, factor());
    return finish(n);
  }
  return power();
}

NodeId Parser::power() {
  Span s = peek().span;
  if (at_kw("await")) unsupported("await");
  NodeId base = primary();
  if (!accept_op("**")) return base;
  NodeId n = make(NodeKind::BinOp, s, "**");
  kid(n, base);
  kid(n, factor());  // right-associative, binds tighter than unary minus on its left
  return finish(n);
}

NodeId Parser::primary() {
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

void Parser::call_args(NodeId c) {
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
    } else if (peek().kind == TokKind::Name && peek(1).kind == TokKind::Op && peek(1).text == "=" &&
               !is_keyword(peek().text)) {
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

NodeId Parser::subscript_list() {
  Span s = peek().span;
  NodeId first = subscript();
  if (!at_op(",")) return first;
  NodeId tup = make(NodeKind::Tuple, s);
  kid(tup, first);
  while (accept_op(",") && !at_op("]")) kid(tup, subscript());
  return finish(tup);
}

NodeId Parser::subscript() {
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

NodeId Parser::comprehension(NodeKind kind, NodeId elt, NodeId value, Span s) {
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

// `yield`, `yield VALUE` and `yield from ITERABLE`, as a statement or parenthesized.
NodeId Parser::yield_expr() {
  NodeId y = make(NodeKind::Yield, take().span);
  if (accept_kw("from")) {
    t_.nodes[y].flags = 1;
    kid(y, test());
    return finish(y);
  }
  bool bare = ends_statement() || at_op(")") || at_op("=");
  kid(y, bare ? kNoNode : testlist_star());
  return finish(y);
}

NodeId Parser::atom() {
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

NodeId Parser::brace(Span s) {
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

NodeId Parser::dict_rest(NodeId d) {
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

}  // namespace keq::python::detail
