// The keq command.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cli/commands.h"

namespace {

const char* const kHelp =
    R"(keq: formal equivalence checking of GPU kernels against PyTorch references

usage: keq COMMAND [ARGS...]

commands:
  egraph FILE   saturate terms from FILE with the rewrite rules and check (prove A B) goals
  verify REF CAND  prove CAND.py's ModelNew equal to REF.py's Model, or show a counterexample
  inspect FILE  run a KernelBench-style reference symbolically: inputs, parameters, outputs, terms
  parse FILE    print the Python AST keq reads from FILE, with spans (frontend debugging)
  help          this text; `keq egraph --help` for a command's options

Not yet available in this build: rules check, rules validate, bench; verify has no Z3 stage
yet (see the project's issues). keq never runs Python: it reads models and kernels as source.

exit codes: 0 proved/equivalent/ok, 1 not proved/not equivalent, 2 unknown, 3 unsupported
construct, 4 error
)";

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    std::fputs(kHelp, args.empty() ? stderr : stdout);
    return args.empty() ? keq::cli::kExitError : 0;
  }
  std::string cmd = args[0];
  args.erase(args.begin());
  if (cmd == "egraph") return keq::cli::egraph_command(args);
  if (cmd == "parse") return keq::cli::parse_command(args);
  if (cmd == "verify") return keq::cli::verify_command(args);
  if (cmd == "inspect") return keq::cli::inspect_command(args);
  std::fprintf(stderr, "keq: unknown command '%s' (try keq --help)\n", cmd.c_str());
  return keq::cli::kExitError;
}
