#include "ir/sexp.h"

#include <fstream>
#include <sstream>

namespace keq::ir {

std::string SourcePos::str() const {
  return file + ":" + std::to_string(line) + ":" + std::to_string(col);
}

}  // namespace keq::ir

namespace keq {

std::string_view error_kind_name(ErrorKind k) {
  switch (k) {
    case ErrorKind::Syntax:
      return "syntax error";
    case ErrorKind::Unsupported:
      return "unsupported";
    case ErrorKind::BadInput:
      return "error";
    case ErrorKind::Program:
      return "program error";
    case ErrorKind::Evaluation:
      return "evaluation error";
    case ErrorKind::Budget:
      return "stopped";
    case ErrorKind::Internal:
      return "internal error";
  }
  return "error";
}

}  // namespace keq

namespace keq::ir {

std::string SExpr::str() const {
  if (is_atom()) return atom;
  std::string s = "(";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) s += ' ';
    s += items[i].str();
  }
  return s + ")";
}

namespace {

class Reader {
 public:
  Reader(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  std::vector<SExpr> read_all() {
    std::vector<SExpr> out;
    for (skip_space(); i_ < text_.size(); skip_space()) out.push_back(read());
    return out;
  }

 private:
  SourcePos here() const { return SourcePos{file_, line_, col_}; }
  void advance() {
    if (text_[i_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++i_;
  }
  void skip_space() {
    while (i_ < text_.size()) {
      char c = text_[i_];
      if (c == ';') {
        while (i_ < text_.size() && text_[i_] != '\n') advance();
      } else if (isspace(static_cast<unsigned char>(c))) {
        advance();
      } else {
        return;
      }
    }
  }
  SExpr read() {
    SExpr e;
    e.pos = here();
    char c = text_[i_];
    if (c == ')') throw SyntaxError(e.pos, "unexpected ')'");
    if (c == '(') {
      // Readers, term builders and printers recurse over the nesting: bound it here, once.
      if (++nesting_ > kMaxSExprDepth)
        throw SyntaxError(e.pos, "nested deeper than " + std::to_string(kMaxSExprDepth) +
                                     " levels (keq's limit)");
      e.kind = SExpr::Kind::List;
      advance();
      for (skip_space();; skip_space()) {
        if (i_ >= text_.size()) throw SyntaxError(e.pos, "unclosed '(': expected ')'");
        if (text_[i_] == ')') break;
        e.items.push_back(read());
      }
      advance();
      --nesting_;
      return e;
    }
    int depth = 0;  // brackets inside an atom: x[2, 0] is one atom
    while (i_ < text_.size()) {
      char d = text_[i_];
      if (d == '[') ++depth;
      if (d == ']') --depth;
      if (depth <= 0 &&
          (isspace(static_cast<unsigned char>(d)) || d == '(' || d == ')' || d == ';'))
        break;
      if (d != ' ') e.atom += d;
      advance();
    }
    if (depth > 0) throw SyntaxError(e.pos, "unclosed '[' in atom: expected ']'");
    return e;
  }

  std::string_view text_;
  std::string file_;
  size_t i_ = 0;
  int line_ = 1, col_ = 1;
  size_t nesting_ = 0;
};

}  // namespace

std::vector<SExpr> parse_sexprs(std::string_view text, const std::string& file) {
  return Reader(text, file).read_all();
}

std::vector<SExpr> parse_sexpr_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw SyntaxError(SourcePos{path, 0, 0}, "cannot read file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_sexprs(ss.str(), path);
}

}  // namespace keq::ir
