// keq's Python frontend: the public header of frontends/python/.
//
// Parses the subset of Python that KernelBench problem files and Triton candidates use into an
// AST with spans (ast.h). Syntax errors are ir::SyntaxError naming file:line:col and what was
// expected. keq never runs the code it reads.
#pragma once

#include <string>
#include <string_view>

#include "frontends/python/ast.h"

namespace keq::python {

Tree parse(std::string_view source, const std::string& file);
Tree parse_file(const std::string& path);  // also throws ir::SyntaxError when unreadable

}  // namespace keq::python
