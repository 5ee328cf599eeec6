// keq's one error type. Every failure keq reports is a keq::Error with a kind, and with the
// source position when there is one; the CLI turns the kind into the exit code (Unsupported: 3,
// the others: 4) and every command prints it the same way. The named subclasses
// (ir::SyntaxError, python::Unsupported, ...) exist so that a stage can catch the one kind it
// handles; they add no state beyond what their kind needs.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace keq {

namespace ir {
struct SourcePos {
  std::string file;
  int line = 0;
  int col = 0;
  std::string str() const;  // "file:line:col"
};
}  // namespace ir

enum class ErrorKind : uint8_t {
  Syntax,       // a file keq cannot read as its language (CPython's SyntaxError, a term file's)
  Unsupported,  // a construct outside what keq models: UNSUPPORTED, never a verdict
  BadInput,     // a missing or unreadable file, an option or value the command rejects
  Program,      // the program raises this itself (a shape mismatch, an assert)
  Evaluation,   // a concrete evaluation has no value (integer division by zero)
  Budget,       // the run's deadline or memory ceiling passed
  Internal,     // keq's own invariant broke: a bug to report
};
std::string_view error_kind_name(ErrorKind k);  // "syntax error", "unsupported", ...

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
  // what, prefixed with "file:line:col: "
  Error(ErrorKind kind, const ir::SourcePos& pos, const std::string& what)
      : std::runtime_error(pos.str() + ": " + what), kind_(kind), pos_(pos) {}
  ErrorKind kind() const { return kind_; }
  const std::optional<ir::SourcePos>& where() const { return pos_; }

 private:
  ErrorKind kind_;
  std::optional<ir::SourcePos> pos_;
};

}  // namespace keq
