// S-expressions with source positions: the syntax of rule files, term files and debug output.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ir/error.h"

namespace keq::ir {

// An error in a user's file, always with its position.
class SyntaxError : public Error {
 public:
  SyntaxError(const SourcePos& pos, const std::string& what)
      : Error(ErrorKind::Syntax, pos, what) {}
  const SourcePos& pos() const { return *where(); }
};

struct SExpr {
  enum class Kind { Atom, List };
  Kind kind = Kind::Atom;
  std::string atom;          // for atoms
  std::vector<SExpr> items;  // for lists
  SourcePos pos;

  bool is_atom() const { return kind == Kind::Atom; }
  bool is_list() const { return kind == Kind::List; }
  bool is_atom(std::string_view s) const { return is_atom() && atom == s; }
  std::string str() const;
};

// Reads every top-level s-expression of `text`. `;` starts a comment to the end of the line.
// Brackets inside an atom (`x[2,0]`) belong to the atom. Throws SyntaxError.
inline constexpr size_t kMaxSExprDepth = 10000;
std::vector<SExpr> parse_sexprs(std::string_view text, const std::string& file);
// Reads a whole file; throws SyntaxError (with line 0) when it cannot be read.
std::vector<SExpr> parse_sexpr_file(const std::string& path);

}  // namespace keq::ir
