// The bound: which configurations keq verify checks (default_dims, scaled_dims, the default
// bound's configurations past each block size, every autotune config) and which it skips.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <functional>
#include <set>

#include "frontends/python/python.h"
#include "verify/verify.h"

namespace keq::verify {

namespace {

// A Python integer literal's value (1_000, 0x10, 0o17, 0b11), when it fits int64.
std::optional<int64_t> int_literal(const std::string& text) {
  std::string digits;
  for (char c : text)
    if (c != '_') digits += c;
  int base = 10;
  if (digits.size() > 1 && digits[0] == '0' &&
      std::isalpha(static_cast<unsigned char>(digits[1]))) {
    char b = static_cast<char>(std::tolower(static_cast<unsigned char>(digits[1])));
    base = b == 'x' ? 16 : b == 'o' ? 8 : 2;
    digits = digits.substr(2);
  }
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(digits.c_str(), &end, base);
  if (errno || *end) return std::nullopt;
  return v;
}

// The sizes get_inputs() names: module-level constants written as literals or arithmetic on
// literals (N = 2048 * 2), or tuples of them, each with its value as written, in the order
// get_inputs() first names them. `all` gets every such module-level constant, in file order.
torch::Dims input_sizes(const std::string& path, torch::Dims* all = nullptr,
                        torch::Dims* init = nullptr) {
  python::Tree tree = python::parse_file(path);
  std::function<std::optional<int64_t>(const python::Node&)> value_of =
      [&](const python::Node& e) -> std::optional<int64_t> {
    if (e.kind == python::NodeKind::Int) return int_literal(e.text);
    if (e.kind == python::NodeKind::UnaryOp && e.text == "-")
      if (auto v = value_of(tree.at(e.kids[0]))) return -*v;
    if (e.kind != python::NodeKind::BinOp) return std::nullopt;
    auto a = value_of(tree.at(e.kids[0])), b = value_of(tree.at(e.kids[1]));
    if (!a || !b) return std::nullopt;
    int64_t r = 0;
    if (e.text == "*" && !__builtin_mul_overflow(*a, *b, &r)) return r;
    if (e.text == "+" && !__builtin_add_overflow(*a, *b, &r)) return r;
    if (e.text == "-" && !__builtin_sub_overflow(*a, *b, &r)) return r;
    if (e.text == "//" && *b > 0) return *a / *b;
    if (e.text == "**" && *b >= 0 && *b < 63) {  // dim = 2 ** 14 is a size like any other
      r = 1;
      for (int64_t k = 0; k < *b; ++k)
        if (__builtin_mul_overflow(r, *a, &r)) return std::nullopt;
      return r;
    }
    if (e.text == "<<" && *b >= 0 && *b < 62 && *a >= 0 && *a < (int64_t{1} << (62 - *b)))
      return *a << *b;
    return std::nullopt;
  };
  absl::flat_hash_map<std::string, std::vector<int64_t>> sizes;
  python::NodeId get_inputs = python::kNoNode, get_init = python::kNoNode;
  for (python::NodeId id : tree.at(tree.root).kids) {
    const python::Node& n = tree.at(id);
    if (n.kind == python::NodeKind::FunctionDef && n.text == "get_inputs") get_inputs = id;
    if (n.kind == python::NodeKind::FunctionDef && n.text == "get_init_inputs") get_init = id;
    if (n.kind != python::NodeKind::Assign) continue;
    auto record = [&](const python::Node& target, const python::Node& value) {
      if (target.kind != python::NodeKind::Name) return;
      std::vector<int64_t> vs;
      if (auto v = value_of(value)) {
        vs = {*v};
      } else if (value.kind == python::NodeKind::Tuple && !value.kids.empty()) {
        for (python::NodeId k : value.kids)
          if (auto v = value_of(tree.at(k))) vs.push_back(*v);
        if (vs.size() != value.kids.size()) vs.clear();
      }
      if (vs.empty()) return;
      if (all && !sizes.contains(target.text)) all->push_back({target.text, vs});
      if (all)
        for (auto& [name, values] : *all)
          if (name == target.text) values = vs;  // reassigned: the last value counts
      sizes[target.text] = vs;
    };
    // a = 1, a = b = 1 (chained) and a, b = 1, 2 (unpacked) all name sizes.
    const python::Node& value = tree.at(n.kids.back());
    for (size_t t = 0; t + 1 < n.kids.size(); ++t) {
      const python::Node& target = tree.at(n.kids[t]);
      if (target.kind == python::NodeKind::Tuple && value.kind == python::NodeKind::Tuple &&
          target.kids.size() == value.kids.size()) {
        for (size_t k = 0; k < target.kids.size(); ++k)
          record(tree.at(target.kids[k]), tree.at(value.kids[k]));
      } else {
        record(target, value);
      }
    }
  }
  // The sizes a function names, in the order it first names them. A name met only inside
  // arithmetic (D * stride) is a factor, not a size of its own. In get_inputs, a literal of 16
  // or more passed to a call (torch.rand(n, 3, 224, 224)) is a size too, named by its place.
  auto named_in = [&](python::NodeId fn, bool literals) {
    torch::Dims named;
    std::vector<std::pair<python::NodeId, bool>> stack;  // node, inside arithmetic
    if (fn != python::kNoNode) stack.push_back({fn, false});
    while (!stack.empty()) {
      auto [id, in_arith] = stack.back();
      const python::Node& n = tree.at(id);
      stack.pop_back();
      if (n.kind == python::NodeKind::Name && !in_arith && sizes.contains(n.text) &&
          std::find_if(named.begin(), named.end(),
                       [&](const auto& p) { return p.first == n.text; }) == named.end())
        named.push_back({n.text, sizes[n.text]});
      if (literals && n.kind == python::NodeKind::Call)
        for (size_t k = 1; k < n.kids.size(); ++k) {
          const python::Node& arg = tree.at(n.kids[k]);
          std::vector<python::NodeId> items = arg.kind == python::NodeKind::Tuple
                                                  ? arg.kids
                                                  : std::vector<python::NodeId>{n.kids[k]};
          for (python::NodeId i : items) {
            const python::Node& lit = tree.at(i);
            if (lit.kind != python::NodeKind::Int) continue;
            int64_t v = int_literal(lit.text).value_or(0);
            if (v >= 16) named.push_back({python::literal_size_name(lit.span), {v}});
          }
        }
      bool arith =
          in_arith || n.kind == python::NodeKind::BinOp || n.kind == python::NodeKind::UnaryOp;
      for (auto k = n.kids.rbegin(); k != n.kids.rend(); ++k)
        if (*k != python::kNoNode) stack.push_back({*k, arith});
    }
    return named;
  };
  if (init) *init = named_in(get_init, false);
  return named_in(get_inputs, true);
}

}  // namespace

torch::Dims default_dims(const std::string& ref_path, int64_t first) {
  torch::Dims init, dims = input_sizes(ref_path, nullptr, &init);
  // Module sizes only get_init_inputs() names (out_features, hidden_size, out_channels) are
  // dimensions too when they are large; small ones (kernel_size, stride, groups) stay.
  for (const auto& entry : init) {  // not a structured binding: clang 14 cannot capture one
    const auto& [name, values] = entry;
    bool named = std::any_of(dims.begin(), dims.end(),
                             [&](const auto& p) { return p.first == entry.first; });
    bool large = std::all_of(values.begin(), values.end(), [](int64_t x) { return x >= 16; });
    if (!named && large) dims.push_back({name, values});
  }
  int64_t next = first;
  for (auto& [name, values] : dims)
    for (int64_t& x : values) x = next++;
  return dims;
}

torch::Dims scaled_dims(const std::string& ref_path, int64_t max_product, int64_t floor) {
  // Every large size in the file scales together (out_channels = 2 * width survives), the
  // inputs' sizes always; small constants (kernels, strides, pool sizes) stay as written.
  torch::Dims all, inputs = input_sizes(ref_path, &all), scaled;
  auto is_input = [&](const std::string& name) {
    return std::any_of(inputs.begin(), inputs.end(),
                       [&](const auto& p) { return p.first == name; });
  };
  for (const auto& entry : inputs)  // literal sizes are not module-level constants
    if (entry.first.rfind("literal@", 0) == 0) all.push_back(entry);
  for (int shift = 0; shift < 62; ++shift) {  // the floor may stop it short: the smallest then
    scaled.clear();
    int64_t product = 1;
    for (auto [name, values] : all) {
      bool input = is_input(name);
      bool large = std::all_of(values.begin(), values.end(), [](int64_t x) { return x >= 16; });
      if (!input && !large) continue;
      for (int64_t& x : values) {
        x = std::max(std::min(x, floor), x >> shift);
        if (input) product = product > max_product ? product : product * x;
      }
      scaled.push_back({name, values});
    }
    if (product <= max_product) break;
  }
  return scaled;
}

namespace {

// The reports of every autotune config after the first, which the caller already has.
void more_autotune_configs(const std::string& ref_path, const std::string& cand_path, Options opt,
                           std::vector<Report>& reports) {
  if (!opt.every_autotune_config) return;
  for (size_t c = 1; c < reports[0].autotune_configs; ++c) {
    opt.autotune_config = c;
    reports.push_back(verify(ref_path, cand_path, opt));
  }
}

Options first_config(Options opt) {
  if (opt.every_autotune_config) opt.autotune_config = 0;
  return opt;
}

}  // namespace

namespace {

// The default bound chooses sizes both sides accept and says so (DESIGN.md's table): a
// configuration an assert rejects is left out and named in the others' notes; when every one
// was rejected, they stay, and the verdict is UNKNOWN "no configuration both sides accept".
std::vector<Report> with_skipped(std::vector<Report> all, std::vector<std::string> skipped) {
  std::vector<Report> kept;
  for (Report& r : all) {
    if (r.assert_rejected)
      skipped.push_back(r.bound + ": " + r.reason);
    else
      kept.push_back(std::move(r));
  }
  if (kept.empty()) {
    for (Report& r : all)
      if (r.assert_rejected) r.reason = "no configuration both sides accept; " + r.reason;
    return all;
  }
  for (Report& r : kept)
    for (const std::string& s : skipped) r.notes.push_back("bound: skipped " + s);
  return kept;
}

}  // namespace

std::vector<Report> verify_every_autotune_config(const std::string& ref_path,
                                                 const std::string& cand_path, Options opt) {
  std::vector<Report> reports{verify(ref_path, cand_path, first_config(opt))};
  more_autotune_configs(ref_path, cand_path, opt, reports);
  return reports;
}

std::vector<Report> verify_default_bound(const std::string& ref_path, const std::string& cand_path,
                                         Options opt) {
  opt.default_bound = true;
  std::vector<Report> all;
  std::vector<std::string> skipped;  // configurations an assert rejected, with why
  std::set<int64_t> blocks;
  // `first` is the configuration's report for its first autotune config, when the caller ran it
  // already (a configuration is verified once: the shared --timeout is spent once).
  auto run = [&](const torch::Dims& dims, const std::string& why = "",
                 std::optional<Report> first = std::nullopt) {
    opt.dims = dims;
    std::vector<Report> rs;
    if (first) {
      rs.push_back(std::move(*first));
      more_autotune_configs(ref_path, cand_path, opt, rs);
    } else {
      rs = verify_every_autotune_config(ref_path, cand_path, opt);
    }
    for (Report& r : rs) {
      blocks.insert(r.blocks.begin(), r.blocks.end());
      if (!why.empty() && r.bound.find(" (default bound)") != std::string::npos)
        r.bound.replace(r.bound.find(" (default bound)"), 16, " (default bound, " + why + ")");
    }
    all.insert(all.end(), rs.begin(), rs.end());
  };
  // Distinct small sizes first; where the model rejects them (a kernel wider than the input,
  // channels that must divide into groups), larger ones, then the file's own proportions.
  for (int64_t first : {2, 5}) {
    int64_t budget = first == 2 ? 4096 : 16384;
    std::vector<torch::Dims> tries = {
        default_dims(ref_path, first), default_dims(ref_path, first + 4),
        scaled_dims(ref_path, budget, 1), scaled_dims(ref_path, budget, 8),
        scaled_dims(ref_path, budget, 32)};
    for (size_t t = 0; t < tries.size(); ++t) {
      opt.dims = tries[t];
      Report probe = verify(ref_path, cand_path, first_config(opt));
      bool rejected = probe.verdict == Verdict::Error || probe.assert_rejected;
      if (t + 1 < tries.size() && rejected) {
        if (probe.assert_rejected) skipped.push_back(dims_str(opt.dims) + ": " + probe.reason);
        continue;
      }
      run(opt.dims, t >= 2 ? "the file's sizes scaled down" : "", std::move(probe));
      break;
    }
  }
  if (blocks.empty()) return with_skipped(std::move(all), skipped);
  // Past the largest block B (blocks are powers of two): B + 1 leaves a one-lane tail and makes
  // a second trip for every block size in use.
  int64_t past = *blocks.rbegin() + 1;
  torch::Dims base = default_dims(ref_path, 2);
  for (size_t d = 0; d < base.size(); ++d)
    for (size_t j = 0; j < base[d].second.size(); ++j) {
      torch::Dims dims = base;
      dims[d].second[j] = past;
      int64_t product = 1;
      for (const auto& [name, v] : dims)
        for (int64_t x : v) product *= x;
      if (product <= 32768) run(dims, base[d].first + " past BLOCK " + std::to_string(past - 1));
    }
  return with_skipped(std::move(all), skipped);
}

}  // namespace keq::verify
