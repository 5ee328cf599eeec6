// keq's Python frontend: the public header of frontends/python/.
//
// Parses the subset of Python that KernelBench problem files and Triton candidates use into an
// AST with spans (ast.h). Syntax errors are ir::SyntaxError naming file:line:col and what was
// expected. keq never runs the code it reads.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "frontends/python/ast.h"
#include "ir/error.h"

namespace keq::python {

// The file is missing, not a regular file, or not text (NUL bytes): no program at all, as
// opposed to one CPython rejects (ir::SyntaxError).
struct FileUnreadable : Error {
  explicit FileUnreadable(const std::string& what) : Error(ErrorKind::BadInput, what) {}
};
// The file runs but lacks what the command reads (a candidate without ModelNew, a reference
// without get_inputs): a bad invocation (ERROR), not a program that raises, nor keq's gap.
struct MissingDefinition : Error {
  explicit MissingDefinition(const std::string& what) : Error(ErrorKind::BadInput, what) {}
};

// Limits: CPython 3.11's compiler recurses over the AST and raises RecursionError past about
// 3,000 levels (a 3,000-term `1 + 1 + ...`); keq's interpreter and printers recurse too, so the
// same bound keeps them on the stack. Larger files are refused as a size limit (Unsupported).
inline constexpr size_t kMaxAstDepth = 2900;
inline constexpr size_t kMaxSourceBytes = 16 << 20;

Tree parse(std::string_view source, const std::string& file);  // source: decoded UTF-8
Tree parse_file(const std::string& path);  // throws FileUnreadable, ir::SyntaxError, Unsupported
// Bytes as CPython decodes a file: NUL bytes are not text; UTF-8 unless a PEP 263 coding line
// on line 1 or 2 names another encoding (Latin-1 and ASCII are read, others Unsupported).
std::string decode_source(std::string_view bytes, const std::string& file);
std::string read_source_file(const std::string& path);
// Throws ir::SyntaxError (CPython's RecursionError) when the AST is deeper than kMaxAstDepth.
void check_depth(const Tree& t);

}  // namespace keq::python
