// keq parse: prints the Python AST of a file with spans (for debugging the frontend).
#include <cstdio>

#include "cli/commands.h"
#include "frontends/python/python.h"
#include "ir/sexp.h"

namespace keq::cli {

int parse_command(const std::vector<std::string>& args) {
  if (args.size() != 1 || args[0] == "--help" || args[0] == "-h") {
    std::fputs(
        "usage: keq parse FILE.py\n\nPrints the AST keq reads from FILE.py, one node a line "
        "with its span (line:col-line:col).\nSyntax errors name file:line:col and what was "
        "expected. Nothing is run.\n",
        args.size() == 1 ? stdout : stderr);
    return args.size() == 1 ? 0 : kExitError;
  }
  std::fputs(python::parse_file(args[0]).dump().c_str(), stdout);  // errors: keq::Error
  return 0;
}

}  // namespace keq::cli
