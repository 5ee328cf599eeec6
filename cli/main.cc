// The keq command.
#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "ir/error.h"
#include "rules/rules.h"

namespace {

const char* const kHelp =
    R"(keq: formal equivalence checking of GPU kernels against PyTorch references

usage: keq COMMAND [ARGS...]

commands:
  egraph FILE   saturate terms from FILE with the rewrite rules and check (prove A B) goals
  verify REF CAND  prove CAND.py's ModelNew equal to REF.py's Model, or show a counterexample
  inspect FILE  run a KernelBench-style reference symbolically: inputs, parameters, outputs, terms
  parse FILE    print the Python AST keq reads from FILE, with spans (frontend debugging)
  rules check [FILES]  prove each rewrite rule under the semantics it declares
  rules validate [FILES]  evaluate each rule on many inputs with generated CUDA (--device cuda)
                or C++ (the CPU)
  help          this text; `keq egraph --help` for a command's options

Not yet available in this build: bench (see the project's issues). keq never runs Python: it
reads models and kernels as source; it writes and compiles code only for rules validate and
verify --exhaustive.

exit codes: 0 proved/equivalent/ok, 1 not proved/not equivalent, 2 unknown, 3 unsupported
construct, 4 error
)";

int run(std::vector<std::string> args) {
  if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    std::fputs(kHelp, args.empty() ? stderr : stdout);
    return args.empty() ? keq::cli::kExitError : 0;
  }
  std::string cmd = args[0];
  args.erase(args.begin());
  using Command = int (*)(const std::vector<std::string>&);
  Command command = cmd == "egraph"    ? keq::cli::egraph_command
                    : cmd == "parse"   ? keq::cli::parse_command
                    : cmd == "verify"  ? keq::cli::verify_command
                    : cmd == "inspect" ? keq::cli::inspect_command
                    : cmd == "rules"   ? keq::cli::rules_command
                                       : nullptr;
  if (!command) {
    std::fprintf(stderr, "keq: unknown command '%s' (try keq --help)\n", cmd.c_str());
    return keq::cli::kExitError;
  }
  if (const char* dir = std::getenv("KEQ_RULES_DIR"); dir && *dir)
    keq::rules::set_default_rules_dir(dir);
  // Every error any command does not turn into a verdict ends here, printed one way.
  try {
    return command(args);
  } catch (const keq::Error& e) {
    std::fprintf(stderr, "keq %s: %s: %s\n", cmd.c_str(),
                 std::string(keq::error_kind_name(e.kind())).c_str(), e.what());
    return e.kind() == keq::ErrorKind::Unsupported ? keq::cli::kExitUnsupported
                                                   : keq::cli::kExitError;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "keq %s: out of memory\n", cmd.c_str());
    return keq::cli::kExitError;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "keq %s: internal error: %s\n", cmd.c_str(), e.what());
    return keq::cli::kExitError;
  }
}

}  // namespace

// The command runs on a thread with a 1 GiB stack (reserved, touched only as used). keq's passes
// over terms are iterative where terms get deep, and the readers bound their nesting
// (kMaxAstDepth, kMaxSExprDepth); this is the margin behind both, for the recursive passes that
// remain (the e-graph's term adder, extraction, the SMT encoders) on terms as deep as a row is
// wide.
int main(int argc, char** argv) {
  struct Job {
    std::vector<std::string> args;
    int code = keq::cli::kExitError;
  } job{std::vector<std::string>(argv + 1, argv + argc)};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t{1} << 30);
  pthread_t thread;
  auto body = [](void* p) -> void* {
    auto* j = static_cast<Job*>(p);
    j->code = run(j->args);
    return nullptr;
  };
  if (pthread_create(&thread, &attr, body, &job) != 0) return run(job.args);  // no big stack
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  return job.code;
}
