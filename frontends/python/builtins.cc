// Python's builtins as far as KernelBench files use them.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "frontends/python/integers.h"
#include "frontends/python/interp.h"

namespace keq::python {
namespace {
using K = Value::Kind;

Ref one_arg(Interp& in, CallArgs& a, const std::string& name) {
  if (a.pos.size() != 1 || !a.kw.empty()) in.error(a.at, name + "() takes exactly one argument");
  return a.pos[0];
}

// The key each item is ordered by: key(x) when a key function is given, else x.
std::vector<Ref> sort_keys(Interp& in, const std::vector<Ref>& xs, const Ref& key, Span at) {
  std::vector<Ref> keys;
  for (const Ref& x : xs) {
    if (x->kind == K::Tensor) in.unsupported(at, "ordering tensors with a Python builtin");
    keys.push_back(key && key->kind != K::None ? in.call(key, {x}, at) : x);
  }
  return keys;
}

// min/max as CPython: the first of the smallest (largest) by `key`, or `default` when empty.
Ref min_max(Interp& in, CallArgs& a, bool is_max) {
  // In a kernel, Triton's builtin_min/max: with a tensor among the arguments, tl.minimum
  // (maximum) folded from the left (compiled for sm_90: min(x, 1.0, x * 2) on a block).
  if (in.in_jit_code() && a.pos.size() >= 2 && a.kw.empty() &&
      std::any_of(a.pos.begin(), a.pos.end(), [](const Ref& x) { return x->kind == K::Tensor; })) {
    Ref tl = in.module_value("triton.language", a.at);
    Ref fn = in.getattr(tl, is_max ? "maximum" : "minimum", a.at);
    Ref acc = a.pos[0];
    for (size_t k = 1; k < a.pos.size(); ++k) acc = in.call(fn, {acc, a.pos[k]}, a.at);
    return acc;
  }
  std::vector<Ref> xs = a.pos.size() == 1 ? in.to_sequence(a.pos[0], a.at) : a.pos;
  if (xs.empty()) {
    if (Ref d = a.get(SIZE_MAX, "default")) return d;
    in.raise(a.at, std::string("ValueError: ") + (is_max ? "max" : "min") +
                       "() arg is an empty sequence");
  }
  std::vector<Ref> keys = sort_keys(in, xs, a.get(SIZE_MAX, "key"), a.at);
  size_t best = 0;
  for (size_t k = 1; k < xs.size(); ++k)
    if (in.compare(is_max ? ">" : "<", keys[k], keys[best], a.at)) best = k;
  // min(next_power_of_2(n), 128) caps a block where no mask covers the rest: which argument
  // won is a path the host picks by size, for the default bound to take the other way too (as
  // for an `if`).
  auto number = [](const Ref& v) { return v->kind == K::Int || v->kind == K::Float; };
  if (a.pos.size() >= 2 && std::all_of(xs.begin(), xs.end(), number) && in.hooks().static_branch)
    in.hooks().static_branch(in, a.at, best == 0);
  return xs[best];
}

// sorted() and list.sort(): stable, by `key`, reversed as if each comparison were.
std::vector<Ref> sorted_items(Interp& in, std::vector<Ref> xs, const Ref& key, const Ref& reverse,
                              Span at) {
  bool down = reverse && reverse->kind != K::None && in.truthy(reverse, at);
  std::vector<Ref> keys = sort_keys(in, xs, key, at);
  std::vector<size_t> order(xs.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](size_t i, size_t j) {
    return in.compare("<", down ? keys[j] : keys[i], down ? keys[i] : keys[j], at);
  });
  std::vector<Ref> out;
  for (size_t k : order) out.push_back(xs[k]);
  return out;
}

// A set's members for a consumer whose result does not depend on the order it visits them
// (any, all, sorted over distinct keys): keq's insertion order stands for CPython's hash order.
std::vector<Ref> members_in_any_order(Interp& in, const Ref& v, Span at) {
  if (!is_set(v)) return in.to_sequence(v, at);
  std::vector<Ref> out;
  for (auto& [k, unused] : v->dict) out.push_back(k);
  return out;
}

}  // namespace

void Interp::install_builtins() {
  builtins_ = std::make_shared<Env>();
  auto& b = builtins_->vars;
  auto def = [&](const std::string& name, BuiltinFn fn) { b[name] = builtin(name, std::move(fn)); };
  def("range", [](Interp& in, CallArgs& a) {
    int64_t lo = 0, hi, step = 1;
    if (a.pos.size() == 1) {
      hi = in.to_int(a.pos[0], a.at);
    } else if (a.pos.size() == 2 || a.pos.size() == 3) {
      lo = in.to_int(a.pos[0], a.at), hi = in.to_int(a.pos[1], a.at);
      if (a.pos.size() == 3) step = in.to_int(a.pos[2], a.at);
    } else {
      in.error(a.at, "range() takes 1 to 3 arguments");
    }
    if (step == 0) in.error(a.at, "ValueError: range() arg 3 must not be zero");
    // The count first (in 128 bits: range(-2**63, 2**63 - 1) does not overflow it).
    __int128 span = step > 0 ? static_cast<__int128>(hi) - lo : static_cast<__int128>(lo) - hi;
    __int128 mag = step > 0 ? step : -static_cast<__int128>(step);
    __int128 count = span <= 0 ? 0 : (span + mag - 1) / mag;
    in.check_count(a.at, count > INT64_MAX ? INT64_MAX : static_cast<int64_t>(count), "a range");
    std::vector<Ref> out;
    out.reserve(static_cast<size_t>(count));
    for (int64_t k = 0; k < static_cast<int64_t>(count); ++k)
      out.push_back(integer(static_cast<int64_t>(lo + static_cast<__int128>(k) * step)));
    return list(out);
  });
  def("len", [](Interp& in, CallArgs& a) -> Ref {
    Ref x = one_arg(in, a, "len");
    if (x->kind == K::Tensor) {  // the tensor library's __len__
      CallArgs none;
      none.at = a.at;
      return in.call(in.getattr(x, "__len__", a.at), none);
    }
    if (x->kind == K::Class && in.is_enum_class(x))
      return integer(static_cast<int64_t>(in.enum_members(x).size()));
    if (x->kind == K::Instance)
      if (Ref f = in.class_method(x, "__len__")) return in.call(f, {x}, a.at);
    if (x->kind == K::Str) return integer(static_cast<int64_t>(x->s.size()));
    if (x->kind == K::Dict) return integer(static_cast<int64_t>(x->dict.size()));  // sets too
    if (is_iterator(x))
      in.raise(a.at, "TypeError: object of type '" + x->type_name() + "' has no len()");
    return integer(static_cast<int64_t>(in.to_sequence(x, a.at).size()));
  });
  def("int", [](Interp& in, CallArgs& a) -> Ref {
    if (a.pos.empty() && a.kw.empty()) return integer(0);
    Ref x = a.pos.size() == 2 || a.get(1, "base") ? a.pos.at(0) : one_arg(in, a, "int");
    if (x->kind == K::Tensor && in.hooks().host_scalar) x = in.hooks().host_scalar(in, x, a.at);
    if (is_timing(x))  // its value is unknown: an int of it would compare as if known
      in.unsupported(a.at, "int() of a GPU timing (torch.cuda.Event.elapsed_time)");
    if (x->kind == K::Float) {
      if (std::isnan(x->f)) in.raise(a.at, "ValueError: cannot convert float NaN to integer");
      if (std::isinf(x->f))
        in.raise(a.at, "OverflowError: cannot convert float infinity to integer");
      return big_or_small(mpz_class(std::trunc(x->f)));  // exact: 1e30 is a 100-bit int
    }
    if (x->kind == K::Str) {
      Ref base_v = a.get(1, "base");
      int base = base_v ? static_cast<int>(in.to_int(base_v, a.at)) : 10;
      std::string digits = x->s;
      std::erase(digits, '_');
      std::erase(digits, ' ');
      bool negative = !digits.empty() && digits[0] == '-';
      if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) digits.erase(0, 1);
      // base 0 reads the literal's prefix; a prefix matching the base is allowed.
      auto prefixed = [&](char c, int b) {
        return digits.size() > 2 && digits[0] == '0' && std::tolower(digits[1]) == c &&
               (base == 0 || base == b);
      };
      for (auto [c, b] : {std::pair{'x', 16}, std::pair{'o', 8}, std::pair{'b', 2}})
        if (prefixed(c, b)) digits.erase(0, 2), base = b;
      if (base == 0) base = 10;
      mpz_class z;
      if (base < 2 || base > 36 || digits.empty() || digits.size() > kMaxIntegerBits / 3 ||
          z.set_str(digits, base) != 0)
        in.raise_exception(
            a.at, "ValueError",
            "invalid literal for int() with base " + std::to_string(base) + ": '" + x->s + "'");
      return big_or_small(negative ? mpz_class(-z) : z);
    }
    if (is_integer(x)) return x->kind == K::Bool ? integer(x->i) : x;
    in.error(a.at, "int() argument must be a string or a number, not '" + x->type_name() + "'");
  });
  // The class, for isinstance(x, (int, float, complex)) in LLM-written wrappers; a complex
  // number itself is not modelled.
  def("complex", [](Interp& in, CallArgs& a) -> Ref { in.unsupported(a.at, "complex numbers"); });
  def("float", [](Interp& in, CallArgs& a) -> Ref {
    if (a.pos.empty()) return floating(0);
    Ref x = one_arg(in, a, "float");
    if (x->kind == K::InputDependentFloat || is_timing(x)) return x;  // still unknown
    bool in_kernel = in.hooks().in_kernel && in.hooks().in_kernel();  // a block is no number
    if (x->kind == K::Tensor && in.hooks().item && !in_kernel) return in.hooks().item(in, x, a.at);
    if (x->kind == K::Str) {
      std::string s = x->s;
      std::transform(s.begin(), s.end(), s.begin(), ::tolower);
      s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
      if (s == "inf" || s == "+inf" || s == "infinity") return floating(INFINITY);
      if (s == "-inf" || s == "-infinity") return floating(-INFINITY);
      if (s == "nan") return floating(NAN);
      char* end = nullptr;
      double v = std::strtod(s.c_str(), &end);
      if (*end) in.error(a.at, "could not convert string to float: '" + x->s + "'");
      return floating(v);
    }
    return floating(in.to_float(x, a.at));
  });
  // set() and frozenset(): members kept once; iterating one is unsupported (hash order).
  for (const char* name : {"set", "frozenset"})
    def(name, [name](Interp& in, CallArgs& a) -> Ref {
      if (a.pos.size() > 1) in.error(a.at, std::string(name) + "() takes at most one argument");
      std::vector<Ref> members;
      if (!a.pos.empty()) {
        if (is_set(a.pos[0]))
          for (auto& [k, _] : a.pos[0]->dict) members.push_back(k);
        else
          members = in.to_sequence(a.pos[0], a.at);
      }
      return in.make_set(members, a.at);
    });
  def("bool",
      [](Interp& in, CallArgs& a) { return boolean(in.truthy(one_arg(in, a, "bool"), a.at)); });
  def("str", [](Interp& in, CallArgs& a) { return string(in.repr(one_arg(in, a, "str"))); });
  def("format", [](Interp& in, CallArgs& a) {
    if (a.pos.empty() || a.pos.size() > 2 || (a.pos.size() == 2 && a.pos[1]->kind != K::Str))
      in.raise_exception(a.at, "TypeError", "format() takes a value and a spec string");
    return string(in.format_field(a.pos[0], 0, a.pos.size() == 2 ? a.pos[1]->s : "", a.at));
  });
  def("print", [](Interp&, CallArgs&) { return none(); });  // output is not part of the model
  def("staticmethod", [](Interp& in, CallArgs& a) -> Ref {
    Ref f = one_arg(in, a, "staticmethod");
    if (f->kind == K::Builtin) in.unsupported(a.at, "staticmethod of a " + f->type_name());
    // Attribute lookup binds only functions and builtins; anything else (a JITFunction, a
    // class) is returned unbound whether or not staticmethod wraps it, as in CPython.
    if (f->kind != K::Function) return f;
    auto g = std::make_shared<Value>(*f);
    g->b = true;  // Function's `b`: never bound to an instance (value.h)
    return Ref(g);
  });
  // classmethod(f): a builtin marked `b`, which attribute lookup binds to the class (looked up
  // on an instance too: its type), as CPython binds a classmethod.
  def("classmethod", [](Interp& in, CallArgs& a) -> Ref {
    Ref f = one_arg(in, a, "classmethod");
    if (f->kind != K::Function) in.unsupported(a.at, "classmethod of a " + f->type_name());
    Ref m = builtin(f->s, [f](Interp& i2, CallArgs& b) { return i2.call(f, b); });
    m->b = true;
    m->items = {f};  // called bound, it runs as a method of its class: super() works there
    return m;
  });
  // property(fget): reading the attribute on an instance calls fget (interp_objects.cc);
  // .setter/.getter/.deleter return the property unchanged, and assigning one on an instance is
  // UNSUPPORTED (its setter is not run).
  def("property", [](Interp& in, CallArgs& a) -> Ref {
    Ref f = a.get(0, "fget");
    if (!f || (f->kind != K::Function && f->kind != K::Builtin))
      in.unsupported(a.at, "property() without a getter function");
    Ref p = module_object(kPropertyTag);
    (*p->attrs)["fget"] = f;
    // One value, inserted three times (a reference into the map would dangle after a rehash).
    Ref same = builtin("property.setter", [p](Interp&, CallArgs&) { return p; });
    for (const char* name : {"setter", "getter", "deleter"}) (*p->attrs)[name] = same;
    return p;
  });
  // type(x): an instance's class, or the builtin (int, float, str, ...) that makes x, so
  // `type(x) is int` and `type(e).__name__` hold; type(name, bases, dict) is not modelled.
  def("type", [](Interp& in, CallArgs& a) -> Ref {
    if (a.pos.size() != 1) in.unsupported(a.at, "type() with other than one argument");
    const Ref& x = a.pos[0];
    if (x->kind == K::Instance && x->cls) return x->cls;
    static const std::map<K, const char*> kMaker = {
        {K::Int, "int"},   {K::Float, "float"}, {K::Str, "str"},   {K::Bool, "bool"},
        {K::List, "list"}, {K::Tuple, "tuple"}, {K::Dict, "dict"}, {K::None, "NoneType"}};
    if (auto it = kMaker.find(x->kind); it != kMaker.end())
      if (Ref maker = in.builtin_named(it->second)) return maker;
    in.unsupported(a.at, "type() of a " + x->type_name());
  });
  def("abs", [](Interp& in, CallArgs& a) -> Ref {
    Ref x = one_arg(in, a, "abs");
    if (is_timing(x)) return x;  // a timing is at least 0
    if (x->kind == K::Float) return floating(std::fabs(x->f));
    if (x->kind == K::Tensor) in.unsupported(a.at, "abs() of a tensor (use torch.abs)");
    if (!is_integer(x)) in.error(a.at, "bad operand type for abs(): '" + x->type_name() + "'");
    return big_or_small(abs(as_mpz(x)));
  });
  def("min", [](Interp& in, CallArgs& a) { return min_max(in, a, false); });
  def("max", [](Interp& in, CallArgs& a) { return min_max(in, a, true); });
  def("sum", [](Interp& in, CallArgs& a) -> Ref {
    if (a.pos.empty()) in.error(a.at, "sum() needs an iterable");
    Ref acc = a.pos.size() > 1 ? a.pos[1] : integer(0);
    for (const Ref& x : in.to_sequence(a.pos[0], a.at)) acc = in.binop("+", acc, x, a.at);
    return acc;
  });
  def("round", [](Interp& in, CallArgs& a) -> Ref {
    if (!a.pos.empty() && is_timing(a.pos[0])) {  // still a timing, computed from one (id 0)
      Ref r = floating(a.pos[0]->f);
      r->s = kTimingMarker;
      if (Ref digits = a.get(1, "ndigits"); !digits || digits->kind == K::None)
        in.unsupported(a.at, "round() of a GPU timing to an int (torch.cuda.Event.elapsed_time)");
      return r;
    }
    Ref digits = a.get(1, "ndigits");
    if (!digits || digits->kind == K::None) {
      if (a.pos.empty()) in.raise_exception(a.at, "TypeError", "round() missing argument");
      if (is_integer(a.pos[0])) return a.pos[0]->kind == K::Bool ? integer(a.pos[0]->i) : a.pos[0];
      return integer(static_cast<int64_t>(std::nearbyint(in.to_float(a.pos[0], a.at))));
    }
    int64_t n = in.to_int(digits, a.at);
    if (a.pos[0]->kind != K::Float || n < 0 || n > 300)
      in.unsupported(a.at, "round() with ndigits of a " + a.pos[0]->type_name() + " or below 0");
    // CPython rounds the exact binary value half to even at n decimals, as glibc's printf does.
    char buf[512];
    std::snprintf(buf, sizeof buf, "%.*f", static_cast<int>(n), a.pos[0]->f);
    return floating(std::strtod(buf, nullptr));
  });
  struct Radix {
    const char* name;
    int base;
    const char* prefix;
  };
  for (Radix r : {Radix{"hex", 16, "0x"}, Radix{"oct", 8, "0o"}, Radix{"bin", 2, "0b"}})
    def(r.name, [r](Interp& in, CallArgs& a) {
      Ref x = one_arg(in, a, r.name);
      if (!is_integer(x))
        in.raise_exception(a.at, "TypeError",
                           "'" + x->type_name() + "' object cannot be interpreted as an integer");
      mpz_class z = as_mpz(x);
      return string((z < 0 ? "-" : "") + std::string(r.prefix) + mpz_class(abs(z)).get_str(r.base));
    });
  // slice(stop) / slice(start, stop[, step]), as a subscript's a:b:c makes it.
  def("slice", [](Interp& in, CallArgs& a) -> Ref {
    if (a.pos.empty() || a.pos.size() > 3)
      in.raise_exception(a.at, "TypeError", "slice expected 1 to 3 arguments");
    auto v = std::make_shared<Value>();
    v->kind = K::Slice;
    v->items = a.pos.size() == 1
                   ? std::vector<Ref>{none(), a.pos[0], none()}
                   : std::vector<Ref>{a.pos[0], a.pos[1], a.pos.size() == 3 ? a.pos[2] : none()};
    return Ref(v);
  });
  def("list", [](Interp& in, CallArgs& a) {
    return a.pos.empty() ? list({}) : list(in.to_sequence(a.pos[0], a.at));
  });
  def("tuple", [](Interp& in, CallArgs& a) {
    return a.pos.empty() ? tuple({}) : tuple(in.to_sequence(a.pos[0], a.at));
  });
  def("zip", [](Interp& in, CallArgs& a) {
    std::vector<std::vector<Ref>> seqs;
    size_t n = SIZE_MAX;
    for (const Ref& s : a.pos) {
      seqs.push_back(in.to_sequence(s, a.at));
      n = std::min(n, seqs.back().size());
    }
    std::vector<Ref> out;
    for (size_t k = 0; k < (seqs.empty() ? 0 : n); ++k) {
      std::vector<Ref> row;
      for (auto& s : seqs) row.push_back(s[k]);
      out.push_back(tuple(row));
    }
    return list(out);
  });
  // iter(x) and next(it[, default]): an iterator is the list of items left (kIteratorMarker).
  def("iter", [](Interp& in, CallArgs& a) {
    Ref x = one_arg(in, a, "iter");
    return is_iterator(x) ? x : iterator(in.to_sequence(x, a.at));
  });
  def("next", [](Interp& in, CallArgs& a) -> Ref {
    if (a.pos.empty() || a.pos.size() > 2) in.error(a.at, "next expected 1 or 2 arguments");
    Ref it = a.pos[0];
    if (!is_iterator(it))
      in.raise(a.at, "TypeError: '" + it->type_name() + "' object is not an iterator");
    if (it->items.empty()) {
      if (a.pos.size() == 2) return a.pos[1];
      in.raise(a.at, "StopIteration");
    }
    Ref first = it->items.front();
    it->items.erase(it->items.begin());
    // A generator keq ran to its end at the call (Value::i 1): taking fewer than all its values,
    // the program may never run the rest of its body, which keq did.
    if (it->i == 1 && !it->items.empty())
      in.unsupported(a.at,
                     "next() on a generator, leaving values untaken (keq ran its body to "
                     "its end at the call)");
    return first;
  });
  def("enumerate", [](Interp& in, CallArgs& a) {
    int64_t start = a.get(1, "start") ? in.to_int(a.get(1, "start"), a.at) : 0;
    std::vector<Ref> out;
    for (const Ref& x : in.to_sequence(a.pos.at(0), a.at))
      out.push_back(tuple({integer(start++), x}));
    return list(out);
  });
  // divmod, pow, map, filter, dict and repr as CPython's (host code sizing its grid:
  // `div, mod = divmod(vocab_size, MAX_FUSED_SIZE)` in unsloth's cross entropy).
  def("divmod", [](Interp& in, CallArgs& a) {
    if (a.pos.size() != 2) in.error(a.at, "divmod() takes exactly two arguments");
    return tuple(
        {in.binop("//", a.pos[0], a.pos[1], a.at), in.binop("%", a.pos[0], a.pos[1], a.at)});
  });
  def("pow", [](Interp& in, CallArgs& a) {
    if (a.pos.size() < 2 || a.pos.size() > 3) in.error(a.at, "pow() takes 2 or 3 arguments");
    Ref r = in.binop("**", a.pos[0], a.pos[1], a.at);
    return a.pos.size() == 3 ? in.binop("%", r, a.pos[2], a.at) : r;
  });
  def("map", [](Interp& in, CallArgs& a) {  // eager: a list, which every use here iterates
    if (a.pos.size() < 2) in.error(a.at, "map() needs a function and an iterable");
    std::vector<std::vector<Ref>> seqs;
    size_t n = SIZE_MAX;
    for (size_t k = 1; k < a.pos.size(); ++k) {
      seqs.push_back(in.to_sequence(a.pos[k], a.at));
      n = std::min(n, seqs.back().size());
    }
    std::vector<Ref> out;
    for (size_t i = 0; i < n; ++i) {
      std::vector<Ref> args;
      for (auto& q : seqs) args.push_back(q[i]);
      out.push_back(in.call(a.pos[0], args, a.at));
    }
    return list(out);
  });
  def("filter", [](Interp& in, CallArgs& a) {
    if (a.pos.size() != 2) in.error(a.at, "filter() takes exactly two arguments");
    std::vector<Ref> out;
    for (const Ref& x : in.to_sequence(a.pos[1], a.at)) {
      Ref keep = a.pos[0]->kind == K::None ? x : in.call(a.pos[0], {x}, a.at);
      if (in.truthy(keep, a.at)) out.push_back(x);
    }
    return list(out);
  });
  def("dict", [](Interp& in, CallArgs& a) {
    auto d = std::make_shared<Value>();
    d->kind = K::Dict;
    in.dict_update(d, a);
    return Ref(d);
  });
  def("repr", [](Interp& in, CallArgs& a) {
    Ref v = one_arg(in, a, "repr");  // a string's repr is quoted; Interp::repr prints it bare
    return string(v->kind == K::Str ? Interp::quoted(v->s) : in.repr(v));
  });
  def("sorted", [](Interp& in, CallArgs& a) {
    if (a.pos.size() != 1) in.error(a.at, "sorted() takes exactly one positional argument");
    std::vector<Ref> xs = members_in_any_order(in, a.pos[0], a.at);
    Ref key = a.get(SIZE_MAX, "key");
    if (is_set(a.pos[0])) {  // ties (a NaN among floats too) would keep hash order
      std::vector<Ref> keys = sort_keys(in, xs, key, a.at);
      for (const Ref& k : keys)
        if (k->kind == K::Float && std::isnan(k->f))
          in.unsupported(a.at, "sorted() of a set holding NaN (its order is CPython's hash order)");
      for (size_t i = 0; i < keys.size(); ++i)
        for (size_t j = i + 1; j < keys.size(); ++j)
          if (in.equal(keys[i], keys[j]))
            in.unsupported(a.at,
                           "sorted() of a set whose key ties two members (their order is "
                           "CPython's hash order, which keq does not model)");
    }
    return list(sorted_items(in, std::move(xs), key, a.get(SIZE_MAX, "reverse"), a.at));
  });
  def("reversed", [](Interp& in, CallArgs& a) {
    auto s = in.to_sequence(one_arg(in, a, "reversed"), a.at);
    std::reverse(s.begin(), s.end());
    return list(s);
  });
  def("any", [](Interp& in, CallArgs& a) {
    for (const Ref& x : members_in_any_order(in, one_arg(in, a, "any"), a.at))
      if (in.truthy(x, a.at)) return boolean(true);
    return boolean(false);
  });
  def("all", [](Interp& in, CallArgs& a) {
    for (const Ref& x : members_in_any_order(in, one_arg(in, a, "all"), a.at))
      if (!in.truthy(x, a.at)) return boolean(false);
    return boolean(true);
  });
  def("isinstance", [](Interp& in, CallArgs& a) -> Ref {
    if (a.pos.size() != 2) in.error(a.at, "isinstance() takes two arguments");
    std::vector<Ref> classes =
        a.pos[1]->kind == K::Tuple ? a.pos[1]->items : std::vector<Ref>{a.pos[1]};
    for (const Ref& c : classes) {
      const Ref& x = a.pos[0];
      if (c->kind == K::Builtin) {
        const std::string& n = c->s;
        // bool is a subclass of int; no value keq models is a complex.
        if ((n == "int" && (x->kind == K::Int || x->kind == K::BigInt || x->kind == K::Bool)) ||
            (n == "float" && (x->kind == K::Float || x->kind == K::InputDependentFloat)) ||
            (n == "bool" && x->kind == K::Bool) || (n == "str" && x->kind == K::Str) ||
            (n == "tuple" && x->kind == K::Tuple))
          return boolean(true);
        // nn.ModuleList and ModuleDict (`b`) are no list or dict, nor an iterator a list, nor a
        // set a dict; a defaultdict is one (a Module's state_dict() is checked so).
        const bool container = x->b;
        if ((n == "list" && x->kind == K::List && !container && !is_iterator(x) && !is_deque(x)) ||
            (n == "dict" && x->kind == K::Dict && !container && !is_set(x)) ||
            (n == "set" && is_set(x)))
          return boolean(true);
      } else if (c->kind == K::Class) {
        if (in.is_instance_of(x, c->s)) return boolean(true);
        if (c->s == "Tensor" && x->kind == K::Tensor) return boolean(true);
      }
    }
    return boolean(false);
  });
  // issubclass(C, B): B (or one of a tuple of them) is C or one of its bases; classes only.
  def("issubclass", [](Interp& in, CallArgs& a) -> Ref {
    if (a.pos.size() != 2) in.error(a.at, "issubclass() takes two arguments");
    if (a.pos[0]->kind != K::Class) in.raise(a.at, "TypeError: issubclass() arg 1 must be a class");
    std::vector<Ref> bases =
        a.pos[1]->kind == K::Tuple ? a.pos[1]->items : std::vector<Ref>{a.pos[1]};
    for (const Ref& b : bases) {
      if (b->kind != K::Class)
        in.unsupported(a.at, "issubclass() of a " + b->type_name() + " (modelled: classes)");
      for (Ref c = a.pos[0]; c; c = c->cls)
        if (c == b) return boolean(true);
    }
    return boolean(false);
  });
  def("getattr", [](Interp& in, CallArgs& a) -> Ref {
    if (a.pos.size() < 2 || a.pos[1]->kind != K::Str)
      in.error(a.at, "getattr(obj, name[, default])");
    if (a.pos.size() == 3) {
      try {
        return in.getattr(a.pos[0], a.pos[1]->s, a.at);
      } catch (const ProgramError&) {
        return a.pos[2];
      }
    }
    return in.getattr(a.pos[0], a.pos[1]->s, a.at);
  });
  def("callable", [](Interp& in, CallArgs& a) -> Ref {
    return boolean(is_callable(one_arg(in, a, "callable")));
  });
  def("hasattr", [](Interp& in, CallArgs& a) -> Ref {
    // A name the real library has is there whether or not keq models it (`if not hasattr(tl,
    // "softmax"): tl.softmax = shim` binds nothing under Triton 3.6).
    if (a.pos.at(1)->kind == K::Str && in.library_has(a.pos.at(0), a.pos.at(1)->s))
      return boolean(true);
    try {
      in.getattr(a.pos.at(0), a.pos.at(1)->s, a.at);
      return boolean(true);
    } catch (const ProgramError&) {
      return boolean(false);
    }
  });
  // dir(module): the names CPython lists, where keq knows them all (`if "all_gather_into_tensor"
  // not in dir(torch.distributed)` in flash-attn's cross_entropy); elsewhere not modelled.
  def("dir", [](Interp& in, CallArgs& a) -> Ref {
    if (a.pos.size() != 1) in.unsupported(a.at, "dir() without an argument (the scope's names)");
    auto names = in.module_dir(a.pos[0]);
    if (!names)
      in.unsupported(a.at, "dir() of " +
                               (a.pos[0]->kind == K::Module ? "module " + a.pos[0]->s
                                                            : "a " + a.pos[0]->type_name()) +
                               " (keq does not know all its names)");
    std::vector<Ref> items;
    for (const std::string& n : *names) items.push_back(string(n));
    return list(std::move(items));
  });
  def("setattr", [](Interp& in, CallArgs& a) -> Ref {
    in.setattr(a.pos.at(0), a.pos.at(1)->s, a.pos.at(2), a.at);
    return none();
  });
  def("super", [](Interp& in, CallArgs& a) -> Ref {
    Ref owner, self;
    if (a.pos.size() == 2) {
      owner = a.pos[0], self = a.pos[1];
    } else if (a.pos.empty() && !in.method_stack_.empty()) {
      std::tie(owner, self) = in.method_stack_.back();
    } else {
      in.unsupported(a.at, "this form of super()");
    }
    if (!owner || owner->kind != K::Class) in.error(a.at, "super(): no class");
    auto proxy = std::make_shared<Value>();
    proxy->kind = K::Instance;
    proxy->s = "super";
    proxy->cls = owner->cls;  // lookups start at the base
    proxy->items = {self};
    return proxy;
  });
  // object and exceptions, as bases and in raise statements.
  auto base_attrs = std::make_shared<absl::flat_hash_map<std::string, Ref>>();
  (*base_attrs)["__init__"] = builtin("object.__init__", [](Interp&, CallArgs&) { return none(); });
  b["object"] = make_class("object", nullptr, base_attrs);
  install_exceptions();
  // math
  Ref math = module_object("math");
  auto& m = *math->attrs;
  m["pi"] = floating(M_PI);
  m["e"] = floating(M_E);
  m["inf"] = floating(INFINITY);
  m["nan"] = floating(NAN);
  auto unary = [&](const std::string& name, double (*f)(double)) {
    m[name] = builtin("math." + name, [f, name](Interp& in, CallArgs& a) {
      return floating(f(in.to_float(one_arg(in, a, name), a.at)));
    });
  };
  unary("sqrt", std::sqrt);
  for (const char* name : {"gcd", "lcm"})
    m[name] = builtin(std::string("math.") + name, [name = std::string(name)](Interp& in,
                                                                              CallArgs& a) {
      mpz_class r = name == "gcd" ? 0 : 1;
      for (const Ref& x : a.pos) {
        if (!is_integer(x))
          in.raise_exception(a.at, "TypeError",
                             "'" + x->type_name() + "' object cannot be interpreted as an integer");
        mpz_class z = as_mpz(x);
        if (name == "gcd")
          mpz_gcd(r.get_mpz_t(), r.get_mpz_t(), z.get_mpz_t());
        else
          mpz_lcm(r.get_mpz_t(), r.get_mpz_t(), z.get_mpz_t());
      }
      return big_or_small(r);
    });
  m["isclose"] = builtin("math.isclose", [](Interp& in, CallArgs& a) {
    double x = in.to_float(a.pos.at(0), a.at), y = in.to_float(a.pos.at(1), a.at);
    Ref rel = a.get(2, "rel_tol"), abs_tol = a.get(3, "abs_tol");
    double r = rel ? in.to_float(rel, a.at) : 1e-9, t = abs_tol ? in.to_float(abs_tol, a.at) : 0;
    if (x == y) return boolean(true);
    if (std::isinf(x) || std::isinf(y)) return boolean(false);
    double d = std::fabs(x - y);
    return boolean(d <= std::fabs(r * y) || d <= std::fabs(r * x) || d <= t);
  });
  unary("exp", std::exp);
  unary("log", std::log);
  unary("tanh", std::tanh);
  unary("erf", std::erf);
  unary("log2", std::log2);
  unary("log10", std::log10);
  unary("log1p", std::log1p);
  unary("expm1", std::expm1);
  unary("fabs", std::fabs);
  for (auto [name, f] :
       std::initializer_list<std::pair<const char*, double (*)(double)>>{{"sin", std::sin},
                                                                         {"cos", std::cos},
                                                                         {"tan", std::tan},
                                                                         {"asin", std::asin},
                                                                         {"acos", std::acos},
                                                                         {"atan", std::atan},
                                                                         {"sinh", std::sinh},
                                                                         {"cosh", std::cosh}})
    unary(name, f);
  m["tau"] = floating(2 * M_PI);
  m["degrees"] = builtin("math.degrees", [](Interp& in, CallArgs& a) {
    return floating(in.to_float(one_arg(in, a, "degrees"), a.at) * (180.0 / M_PI));
  });
  m["radians"] = builtin("math.radians", [](Interp& in, CallArgs& a) {
    return floating(in.to_float(one_arg(in, a, "radians"), a.at) * (M_PI / 180.0));
  });
  for (const char* name : {"atan2", "hypot", "copysign"})
    m[name] =
        builtin(std::string("math.") + name, [name = std::string(name)](Interp& in, CallArgs& a) {
          if (a.pos.size() != 2) in.error(a.at, "math." + name + " takes two arguments");
          double x = in.to_float(a.pos[0], a.at), y = in.to_float(a.pos[1], a.at);
          return floating(name == "atan2"   ? std::atan2(x, y)
                          : name == "hypot" ? std::hypot(x, y)
                                            : std::copysign(x, y));
        });
  // math.isqrt: the exact floor of the square root of a non-negative int.
  m["isqrt"] = builtin("math.isqrt", [](Interp& in, CallArgs& a) {
    Ref x = one_arg(in, a, "isqrt");
    if (!is_integer(x))
      in.raise_exception(a.at, "TypeError",
                         "'" + x->type_name() + "' object cannot be interpreted as an integer");
    mpz_class z = as_mpz(x);
    if (z < 0) in.raise_exception(a.at, "ValueError", "isqrt() argument must be nonnegative");
    mpz_class r;
    mpz_sqrt(r.get_mpz_t(), z.get_mpz_t());
    return big_or_small(r);
  });
  m["pow"] = builtin("math.pow", [](Interp& in, CallArgs& a) {
    if (a.pos.size() != 2) in.error(a.at, "math.pow takes two arguments");
    return floating(std::pow(in.to_float(a.pos[0], a.at), in.to_float(a.pos[1], a.at)));
  });
  for (const char* name : {"isfinite", "isnan", "isinf"}) {
    std::string n = name;
    m[n] = builtin("math." + n, [n](Interp& in, CallArgs& a) {
      double x = in.to_float(one_arg(in, a, n), a.at);
      return boolean(n == "isfinite" ? std::isfinite(x)
                     : n == "isnan"  ? std::isnan(x)
                                     : std::isinf(x));
    });
  }
  m["ceil"] = builtin("math.ceil", [](Interp& in, CallArgs& a) {
    return integer(static_cast<int64_t>(std::ceil(in.to_float(one_arg(in, a, "ceil"), a.at))));
  });
  m["floor"] = builtin("math.floor", [](Interp& in, CallArgs& a) {
    return integer(static_cast<int64_t>(std::floor(in.to_float(one_arg(in, a, "floor"), a.at))));
  });
  m["prod"] = builtin("math.prod", [](Interp& in, CallArgs& a) {
    Ref acc = integer(1);
    for (const Ref& x : in.to_sequence(one_arg(in, a, "prod"), a.at))
      acc = in.binop("*", acc, x, a.at);
    return acc;
  });
  register_module("math", math);
  install_stdlib();
}

}  // namespace keq::python
