// String literals: adjacent literals joined, and f-strings turned into a template whose fields
// are the node's kids.
#include "frontends/python/parser_impl.h"

namespace keq::python::detail {

// Adjacent literals join. An f-string's node keeps a template: its literal text, and for
// each replacement field kFieldStart, the conversion ('r', 's', 'a' or ' '), the format spec
// and kFieldEnd, its expression the next kid.
NodeId Parser::strings() {
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
    unsupported_at(*marker, "an f-string whose text holds the control character \\x01 or \\x02");
  NodeId n = make(fstring ? NodeKind::FStr
                  : bytes ? NodeKind::Bytes
                          : NodeKind::Str,
                  s, fstring ? tmpl : value);
  t_.nodes[n].kids = parts;
  return finish(n);
}

// Escapes were processed by the lexer (an f-string's expressions cannot hold a backslash).
std::string Parser::fstring_template(const Token& t, std::vector<NodeId>& parts) {
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
        if (r[close] == '{') unsupported_at(t.span, "a replacement field nested in a format spec");
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

}  // namespace keq::python::detail
