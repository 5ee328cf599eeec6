#include "cli/options.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "frontends/python/interp.h"
#include "ir/error.h"

namespace keq::cli {

std::string ArgReader::value() {
  if (done() || args_[k_].rfind("--", 0) == 0) fail("needs a value");
  return args_[k_++];
}

std::vector<std::string> ArgReader::values() {
  std::vector<std::string> out;
  while (!done() && args_[k_].rfind("--", 0) != 0) out.push_back(args_[k_++]);
  if (out.empty()) fail("needs at least one value");
  return out;
}

double ArgReader::number(double min, bool min_allowed) {
  std::string v = value();
  char* end = nullptr;
  double x = std::strtod(v.c_str(), &end);
  if (v.empty() || *end || !std::isfinite(x) || x < min || (x == min && !min_allowed))
    fail(std::string("takes a number ") + (min_allowed ? ">= " : "> ") +
         std::to_string(static_cast<int64_t>(min)) + " (got '" + v + "')");
  return x;
}

int64_t ArgReader::integer(int64_t min) {
  std::string v = value();
  auto parsed = parse_ints(v, '\0');
  if (!parsed || parsed->size() != 1 || parsed->front() < min)
    fail("takes an integer >= " + std::to_string(min) + " (got '" + v + "')");
  return parsed->front();
}

uint64_t ArgReader::unsigned_integer() {
  std::string v = value();
  char* end = nullptr;
  errno = 0;
  unsigned long long x = std::strtoull(v.c_str(), &end, 10);
  if (v.empty() || *end || v[0] == '-' || errno == ERANGE)
    fail("takes a non-negative integer (got '" + v + "')");
  return x;
}

std::string ArgReader::word(std::initializer_list<const char*> choices) {
  std::string v = done() ? std::string() : value();
  std::string list;
  for (const char* c : choices) {
    if (v == c) return v;
    list += list.empty() ? c : std::string(" or ") + c;
  }
  fail("takes " + list);
}

void ArgReader::fail(const std::string& why) const {
  throw Error(ErrorKind::BadInput, current_ + " " + why);
}

void ArgReader::unknown() const {
  throw Error(ErrorKind::BadInput, "unknown option " + current_ + " (see --help)");
}

std::optional<std::vector<int64_t>> parse_ints(const std::string& text, char sep) {
  std::vector<int64_t> out;
  size_t p = 0;
  while (p <= text.size()) {
    size_t q = sep ? text.find(sep, p) : std::string::npos;
    if (q == std::string::npos) q = text.size();
    char* end = nullptr;
    std::string part = text.substr(p, q - p);
    errno = 0;
    long long v = std::strtoll(part.c_str(), &end, 10);
    if (part.empty() || *end || errno == ERANGE) return std::nullopt;
    out.push_back(v);
    p = q + 1;
  }
  return out;
}

torch::Dims parse_dims(const std::string& spec) {
  torch::Dims dims;
  for (size_t p = 0; p < spec.size();) {
    size_t q = spec.find(',', p);
    if (q == std::string::npos) q = spec.size();
    std::string kv = spec.substr(p, q - p);
    size_t eq = kv.find('=');
    auto v = eq == std::string::npos ? std::nullopt : parse_ints(kv.substr(eq + 1), 'x');
    if (!v)
      throw Error(ErrorKind::BadInput,
                  "--dims takes name=value,... with 4x5 for a tuple or list (got '" + kv + "')");
    dims.push_back({kv.substr(0, eq), *v});
    p = q + 1;
  }
  return dims;
}

std::optional<uint64_t> parse_size(const std::string& v) {
  char* end = nullptr;
  double x = std::strtod(v.c_str(), &end);
  if (v.empty() || end == v.c_str() || x < 0 || !std::isfinite(x)) return std::nullopt;
  std::string unit(end);
  double scale = unit.empty() || unit == "B"    ? 1
                 : unit == "K" || unit == "KiB" ? 1024.0
                 : unit == "M" || unit == "MiB" ? 1024.0 * 1024
                 : unit == "G" || unit == "GiB" ? 1024.0 * 1024 * 1024
                                                : -1;
  if (scale < 0 || x * scale > 1e18) return std::nullopt;
  return static_cast<uint64_t>(x * scale);
}

}  // namespace keq::cli

namespace keq::cli {

bool ImportPath::option(ArgReader& in, const std::string& name) {
  if (name == "--python-path")
    python_path.push_back(in.value());
  else if (name == "--venv")
    venvs.push_back(in.value());
  else
    return false;
  return true;
}

void ImportPath::apply() const {
  namespace fs = std::filesystem;
  std::vector<std::string> dirs = python_path;
  if (const char* env = std::getenv("PYTHONPATH"); env && *env) {
    std::string all = env;
    for (size_t k = 0; k <= all.size();) {
      size_t end = all.find(':', k);
      if (end == std::string::npos) end = all.size();
      if (end > k) dirs.push_back(all.substr(k, end - k));
      k = end + 1;
    }
  }
  for (const std::string& venv : venvs) {
    std::error_code ec;
    std::vector<std::string> found;
    for (const auto& e : fs::directory_iterator(fs::path(venv) / "lib", ec))
      if (e.path().filename().string().rfind("python3", 0) == 0 &&
          fs::is_directory(e.path() / "site-packages", ec))
        found.push_back((e.path() / "site-packages").string());
    if (found.empty())
      throw Error(ErrorKind::BadInput,
                  "--venv " + venv + ": no lib/python3*/site-packages folder there");
    dirs.insert(dirs.end(), found.begin(), found.end());
  }
  python::set_import_path(dirs);
}

}  // namespace keq::cli
