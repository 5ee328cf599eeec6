// The one option parser every keq command uses: options and positional arguments in any
// order, options that repeat (--dims, --element) and options that take several values
// (--rules FILE...). Every mistake is a keq::Error (BadInput) that names the option, which the
// command loop prints as "keq COMMAND: ..." with exit code 4: no command exits on its own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frontends/triton/program.h"

namespace keq::cli {

class ArgReader {
 public:
  explicit ArgReader(const std::vector<std::string>& args) : args_(args) {}
  bool done() const { return k_ >= args_.size(); }
  // The next argument; `option()` then tells whether it is one ("--name").
  const std::string& next() { return current_ = args_.at(k_++); }
  bool option() const { return current_.rfind("--", 0) == 0; }

  // The current option's value (the next argument).
  std::string value();
  // One or more values up to the next option (--rules a.rules b.rules).
  std::vector<std::string> values();
  double number(double min, bool min_allowed);  // a float >= min (> min unless allowed)
  int64_t integer(int64_t min);                 // an integer >= min
  uint64_t unsigned_integer();                  // any non-negative integer
  // One of the given words (--semantics real|ieee).
  std::string word(std::initializer_list<const char*> choices);

  // An error that names the current option: "--jobs takes ..." (throws keq::Error).
  [[noreturn]] void fail(const std::string& why) const;
  [[noreturn]] void unknown() const;  // "unknown option --fast"

 private:
  const std::vector<std::string>& args_;
  size_t k_ = 0;
  std::string current_;
};

// Where `import` finds modules read as source (frontends/python/interp.h): --python-path DIR
// (repeatable) and --venv DIR (its lib/python3*/site-packages), gathered while options are read;
// `apply` sets the search path: --python-path, then PYTHONPATH, then the venvs.
struct ImportPath {
  std::vector<std::string> python_path, venvs;
  bool option(ArgReader& in, const std::string& name);  // consumes it when it is one of these
  void apply() const;                                   // throws keq::Error for a bad --venv
};
// The options' help lines, a string literal so each command's help text can include it.
#define KEQ_IMPORT_PATH_HELP                                                                   \
  "  --python-path DIR\n"                                                                      \
  "                    also look for imported modules in DIR (repeatable; PYTHONPATH's\n"      \
  "                    folders come next): they are read as source, symbolically, never run\n" \
  "  --venv DIR        also look in DIR's lib/python3*/site-packages (installed libraries)\n"

// "name=value,..." (a tuple value as 4x5), as --dims takes it; throws keq::Error.
torch::Dims parse_dims(const std::string& spec);
// "1,2,3" with sep ','; none unless every part is an integer.
std::optional<std::vector<int64_t>> parse_ints(const std::string& text, char sep);
// "2G", "512M", "64K", "1000" (bytes) or "0" (none).
std::optional<uint64_t> parse_size(const std::string& s);

}  // namespace keq::cli
