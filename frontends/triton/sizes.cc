// The sizes a reference file names: its module-level size constants, read from the source
// (never run), for the bound's configurations (verify/bound.cc) and keq inspect --dims default.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <map>
#include <optional>
#include <set>

#include "frontends/python/python.h"
#include "frontends/triton/program.h"

namespace keq::torch {

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

// Module-level names Model's `__init__` takes as parameters with defaults that get_init_inputs()
// does not pass (past the positions of the list it returns, or keyword-only): the model always
// builds with the default, so the input sized by the module-level constant must keep the file's
// value (KernelBench L3 32: `image_size=32` and `in_channels=3` defaults, and get_init_inputs
// passes three arguments; every smaller image the bound tried was rejected by the reference).
// The caller keeps those whose default is the module-level value: KernelBench's LogSoftmax
// takes `dim=1` (an axis) beside a module-level `dim = 16384` (a size).
std::map<std::string, python::NodeId> pinned_by_defaults(const python::Tree& tree,
                                                         python::NodeId get_init) {
  std::map<std::string, python::NodeId> pinned;  // name, its default
  if (get_init == python::kNoNode) return pinned;
  std::optional<size_t> passed;  // how many arguments get_init_inputs() passes, when one list
  for (python::NodeId id : tree.at(tree.at(get_init).kids.back()).kids) {
    const python::Node& st = tree.at(id);
    if (st.kind != python::NodeKind::Return || st.kids.empty() || st.kids[0] == python::kNoNode)
      continue;
    const python::Node& v = tree.at(st.kids[0]);
    if (v.kind != python::NodeKind::List && v.kind != python::NodeKind::Tuple) return pinned;
    for (python::NodeId k : v.kids)
      if (tree.at(k).kind == python::NodeKind::Starred) return pinned;
    if (passed && *passed != v.kids.size()) return pinned;  // two returns that differ
    passed = v.kids.size();
  }
  if (!passed) return pinned;
  for (python::NodeId id : tree.at(tree.root).kids) {
    const python::Node& cls = tree.at(id);
    if (cls.kind != python::NodeKind::ClassDef || cls.text != "Model") continue;
    for (python::NodeId m : tree.at(cls.kids.back()).kids) {
      const python::Node& fn = tree.at(m);
      if (fn.kind != python::NodeKind::FunctionDef || fn.text != "__init__") continue;
      size_t position = 0;  // after self
      bool keyword_only = false;
      const auto& params = tree.at(fn.kids[1]).kids;
      for (size_t i = 1; i < params.size(); ++i) {
        const python::Node& p = tree.at(params[i]);
        if (p.flags == 1 || p.flags == 3) keyword_only = true;  // *args, bare '*'
        if (p.flags != 0) continue;
        const bool has_default = p.kids.size() > 1 && p.kids[1] != python::kNoNode;
        if (has_default && (keyword_only || position >= *passed)) pinned[p.text] = p.kids[1];
        position += !keyword_only;
      }
    }
  }
  return pinned;
}

// torch.manual_seed(s), torch.cuda.manual_seed_all(s), a Generator's manual_seed(s).
bool is_seed_call(const python::Tree& tree, const python::Node& n) {
  if (n.kind != python::NodeKind::Call || n.kids.empty()) return false;
  const python::Node& callee = tree.at(n.kids[0]);
  return (callee.kind == python::NodeKind::Attribute || callee.kind == python::NodeKind::Name) &&
         (callee.text == "manual_seed" || callee.text == "manual_seed_all");
}

// The sizes get_inputs() names: module-level constants written as literals or arithmetic on
// literals (N = 2048 * 2), or tuples or lists of them, each with its value as written, in the order
// get_inputs() first names them. `all` gets every such module-level constant, in file order.
Dims input_sizes(const std::string& path, Dims* all = nullptr, Dims* init = nullptr,
                 std::vector<std::string>* pinned = nullptr) {
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
      } else if ((value.kind == python::NodeKind::Tuple || value.kind == python::NodeKind::List) &&
                 !value.kids.empty()) {  // input_shape = (4096,), layer_sizes = [400, 800]
        for (python::NodeId k : value.kids)
          if (auto v = value_of(tree.at(k))) vs.push_back(*v);
        if (vs.size() != value.kids.size()) vs.clear();
      } else if (value.kind == python::NodeKind::BinOp && value.text == "*") {
        // hidden_layer_sizes = [1024] * 16: the list repeated, each entry a size of its own
        // (the repeat count is structure: 16 layers stay 16)
        const python::Node& l = tree.at(value.kids[0]);
        const python::Node& r = tree.at(value.kids[1]);
        const bool list_left =
            l.kind == python::NodeKind::List || l.kind == python::NodeKind::Tuple;
        const python::Node& seq = list_left ? l : r;
        std::optional<int64_t> times = value_of(list_left ? r : l);
        if ((seq.kind == python::NodeKind::List || seq.kind == python::NodeKind::Tuple) &&
            !seq.kids.empty() && times && *times > 0 && *times <= 64) {
          std::vector<int64_t> once;
          for (python::NodeId k : seq.kids)
            if (auto v = value_of(tree.at(k))) once.push_back(*v);
          if (once.size() == seq.kids.size())
            for (int64_t t = 0; t < *times; ++t) vs.insert(vs.end(), once.begin(), once.end());
        }
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
  // A seed is no size: `manual_seed(SEED + 12345)` names a stream of draws (keq's are symbolic
  // whatever it is), and scaling it with the sizes only renamed the configurations.
  std::vector<python::NodeId> walk = {tree.root};
  while (!walk.empty()) {
    const python::Node& n = tree.at(walk.back());
    walk.pop_back();
    if (is_seed_call(tree, n))
      for (size_t k = 1; k < n.kids.size(); ++k) {
        std::vector<python::NodeId> args = {n.kids[k]};
        while (!args.empty()) {
          const python::Node& a = tree.at(args.back());
          args.pop_back();
          if (a.kind == python::NodeKind::Name) sizes.erase(a.text);
          for (python::NodeId c : a.kids)
            if (c != python::kNoNode) args.push_back(c);
        }
      }
    for (python::NodeId c : n.kids)
      if (c != python::kNoNode) walk.push_back(c);
  }
  if (all) std::erase_if(*all, [&](const auto& p) { return !sizes.contains(p.first); });
  // Sizes the model always builds at their defaults are not the bound's to change.
  // (Not a structured binding: clang 14 cannot capture one.)
  for (const auto& entry : pinned_by_defaults(tree, get_init)) {
    const std::string& name = entry.first;
    auto v = value_of(tree.at(entry.second));
    if (!sizes.contains(name) || !v || sizes[name] != std::vector<int64_t>{*v}) continue;
    if (pinned) pinned->push_back(name);
    sizes.erase(name);
    if (all) std::erase_if(*all, [&](const auto& p) { return p.first == name; });
  }
  // The sizes a function names, in the order it first names them. A name met only inside
  // arithmetic (D * stride) is a factor, not a size of its own; but in get_inputs one a literal
  // scales (2 * hidden, a fused projection's width) is the size the dimension moves with, named
  // after the others (the swiglu reference's width never left 64). In get_inputs, a literal of
  // 16 or more passed to a call (torch.rand(n, 3, 224, 224)) is a size too, named by its place.
  auto named_in = [&](python::NodeId fn, bool literals) {
    Dims named;
    std::vector<std::string> scaled;  // names a literal multiplies, in the order met
    auto is_named = [&](const std::string& name) {
      return std::find_if(named.begin(), named.end(),
                          [&](const auto& p) { return p.first == name; }) != named.end();
    };
    std::vector<std::pair<python::NodeId, bool>> stack;  // node, inside arithmetic
    if (fn != python::kNoNode) stack.push_back({fn, false});
    while (!stack.empty()) {
      auto [id, in_arith] = stack.back();
      const python::Node& n = tree.at(id);
      stack.pop_back();
      if (n.kind == python::NodeKind::Name && !in_arith && sizes.contains(n.text) &&
          !is_named(n.text))
        named.push_back({n.text, sizes[n.text]});
      if (literals && n.kind == python::NodeKind::BinOp && n.text == "*" && n.kids.size() == 2)
        for (size_t k = 0; k < 2; ++k) {
          const python::Node &name = tree.at(n.kids[k]), &factor = tree.at(n.kids[1 - k]);
          if (name.kind == python::NodeKind::Name && factor.kind == python::NodeKind::Int &&
              sizes.contains(name.text))
            scaled.push_back(name.text);
        }
      // torch.randint(low, high, size) and randint(high, size): the bounds are values drawn
      // from, not sizes (an int8 range of 128 scaled to 2 would narrow the inputs).
      size_t values = 0;
      if (literals && n.kind == python::NodeKind::Call && !n.kids.empty()) {
        const python::Node& callee = tree.at(n.kids[0]);
        if ((callee.kind == python::NodeKind::Attribute || callee.kind == python::NodeKind::Name) &&
            callee.text == "randint") {
          size_t positional = 0;
          bool size_keyword = false;
          for (size_t k = 1; k < n.kids.size(); ++k) {
            const python::Node& arg = tree.at(n.kids[k]);
            positional += arg.kind != python::NodeKind::Keyword;
            size_keyword =
                size_keyword || (arg.kind == python::NodeKind::Keyword && arg.text == "size");
          }
          values = size_keyword ? positional : positional >= 3 ? 2 : 1;
        }
      }
      if (literals && n.kind == python::NodeKind::Call && !is_seed_call(tree, n))
        for (size_t k = 1 + values; k < n.kids.size(); ++k) {
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
    for (const std::string& name : scaled)
      if (!is_named(name)) named.push_back({name, sizes[name]});
    return named;
  };
  if (init) *init = named_in(get_init, false);
  return named_in(get_inputs, true);
}

}  // namespace

Dims file_dims(const std::string& ref_path) {
  Dims init, dims = input_sizes(ref_path, nullptr, &init);
  // Module sizes only get_init_inputs() names (out_features, hidden_size, out_channels) are
  // dimensions too when they are large; small ones (kernel_size, stride, groups) stay.
  // (Not a structured binding: clang 14 cannot capture one.)
  for (const auto& entry : init) {
    bool named = std::any_of(dims.begin(), dims.end(),
                             [&](const auto& p) { return p.first == entry.first; });
    bool large =
        std::all_of(entry.second.begin(), entry.second.end(), [](int64_t x) { return x >= 16; });
    if (!named && large) dims.push_back(entry);
  }
  return dims;
}

std::vector<int64_t> fixed_constants(const std::string& ref_path) {
  Dims init, dims = file_dims(ref_path);
  input_sizes(ref_path, nullptr, &init);
  std::set<int64_t> out;
  for (const auto& entry : init) {
    bool dim = std::any_of(dims.begin(), dims.end(),
                           [&](const auto& p) { return p.first == entry.first; });
    if (!dim)
      for (int64_t x : entry.second)
        if (x >= 2 && x <= 64) out.insert(x);
  }
  return {out.begin(), out.end()};
}

Dims default_dims(const std::string& ref_path, int64_t first) {
  Dims dims = file_dims(ref_path);
  // A size written as 1 (or 0) stays: it is structure (a broadcast or kept dimension, targets
  // of shape (batch, 1)), and a candidate written for it need not handle 3 there.
  int64_t next = first;
  for (auto& [name, values] : dims)
    for (int64_t& x : values)
      if (x > 1) x = next++;
  return dims;
}

Dims scaled_dims(const std::string& ref_path, int64_t max_product, int64_t floor,
                 bool three_quarters) {
  // Every large size in the file scales together (out_channels = 2 * width survives), the
  // inputs' sizes always; small constants (kernels, strides, pool sizes) stay as written.
  Dims all, inputs = input_sizes(ref_path, &all), scaled;
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
        x = std::max(std::min(x, floor), three_quarters ? (3 * x) >> (shift + 2) : x >> shift);
        if (input) product = product > max_product ? product : product * x;
      }
      scaled.push_back({name, values});
    }
    if (product <= max_product) break;
  }
  return scaled;
}

std::vector<std::string> sizes_at_defaults(const std::string& ref_path) {
  std::vector<std::string> pinned;
  input_sizes(ref_path, nullptr, nullptr, &pinned);
  return pinned;
}

int64_t input_product(const std::string& ref_path, const Dims& dims) {
  Dims inputs = input_sizes(ref_path, nullptr);
  int64_t product = 1;
  for (const auto& [name, values] : dims) {
    bool input = name.rfind("literal@", 0) == 0 ||
                 std::any_of(inputs.begin(), inputs.end(),
                             [&, &n = name](const auto& p) { return p.first == n; });
    if (!input) continue;
    for (int64_t x : values)
      if (x > 0 && __builtin_mul_overflow(product, x, &product)) return INT64_MAX;
  }
  return product;
}

}  // namespace keq::torch
