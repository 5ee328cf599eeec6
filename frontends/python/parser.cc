// The parser's entry points (python.h: parse, parse_file), node kinds' names and the tree's dump;
// the grammar is in parser_statements.cc, parser_expressions.cc and parser_strings.cc.
#include <cstdio>

#include "frontends/python/parser_impl.h"

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
        // Only an f-string's template has fields: a plain string may hold \x01 itself (an
        // escape in the source), which read as a field marker overran the text (fuzzer).
        bool fstr = n.kind == NodeKind::FStr;
        if (fstr && c == kFieldStart && k + 2 < n.text.size()) {
          in_field = true;
          t += "{";
          if (n.text[k + 1] != ' ') t += std::string("!") + n.text[k + 1];
          if (n.text[k + 2] != kFieldEnd) t += ":";
          ++k;
        } else if (fstr && c == kFieldEnd) {
          in_field = false, t += "}";
        } else if (n.kind == NodeKind::FStr && !in_field && (c == '{' || c == '}')) {
          t += std::string(2, c);
        } else if (c == '\n') {
          t += "\\n";
        } else if (static_cast<unsigned char>(c) < 0x20) {  // other control characters, escaped
          char esc[5];
          std::snprintf(esc, sizeof esc, "\\x%02x", static_cast<unsigned char>(c));
          t += esc;
        } else {
          t += c;
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

Tree parse(std::string_view source, const std::string& file) {
  Tree t;
  t.file = file;
  detail::Parser p(tokenize(source, file), t);
  t.root = p.module();
  check_depth(t);
  return t;
}

Tree parse_file(const std::string& path) {
  return parse(read_source_file(path), path);
}

}  // namespace keq::python
