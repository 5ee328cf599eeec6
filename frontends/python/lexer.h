// Tokens of the Python subset, with INDENT/DEDENT from indentation and implicit line joining
// inside brackets.
#pragma once

#include <string>
#include <vector>

#include "frontends/python/ast.h"

namespace keq::python {

enum class TokKind : uint8_t { Name, Number, String, Op, Newline, Indent, Dedent, End };

struct Token {
  TokKind kind;
  std::string text;    // names, numbers and operators as written; strings decoded
  std::string prefix;  // string prefix letters, lower-case (r, b, f, rb, ...)
  std::string raw;     // a string's source text between its quotes (for f-strings)
  Span span;
};

// Throws ir::SyntaxError with file:line:col.
std::vector<Token> tokenize(std::string_view src, const std::string& file);

}  // namespace keq::python
