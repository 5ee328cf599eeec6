// The interpreter's values and operators: truth, conversions, sizes, repr, equality, and the
// arithmetic and comparisons of Python's numbers, strings and sequences.
#include <algorithm>
#include <charconv>
#include <cmath>

#include "frontends/python/integers.h"
#include "frontends/python/interp.h"

namespace keq::python {
namespace {
using K = Value::Kind;
}  // namespace

// ---- values ------------------------------------------------------------------------------

bool Interp::truthy(const Ref& v, Span at) {
  switch (v->kind) {
    case K::None:
      return false;
    case K::Bool:
      return v->b;
    case K::Int:
      return v->i != 0;
    case K::BigInt:
      return true;  // never zero: zero fits int64
    case K::Float:
      return v->f != 0;
    case K::Str:
      return !v->s.empty();
    case K::Tuple:
    case K::List:
      return !v->items.empty();
    case K::Dict:
      return !v->dict.empty();
    case K::InputDependentFloat:
      input_dependent_use(at, v);
    case K::Tensor:
      if (hooks_.truth)
        if (int t = hooks_.truth(*this, v, at); t >= 0) return t == 1;
      unsupported(at,
                  "control flow on a tensor's value (data-dependent branching; only `if` "
                  "inside a kernel merges both branches)");
    default:
      return true;
  }
}

int64_t Interp::to_int(const Ref& v, Span at) {
  if (v->kind == K::Int || v->kind == K::Bool) return v->i;
  if (v->kind == K::InputDependentFloat) input_dependent_use(at, v);
  if (v->kind == K::Tensor && hooks_.host_scalar)
    return to_int(hooks_.host_scalar(*this, v, at), at);
  if (v->kind == K::BigInt)
    unsupported(at, "the integer " + integer_str(v) + " is past 64 bits (size limit)");
  error(at, "expected an int, got " + v->type_name());
}

double Interp::to_float(const Ref& v, Span at) {
  if (v->kind == K::Float) return v->f;
  if (v->kind == K::InputDependentFloat) input_dependent_use(at, v);
  if (v->kind == K::Tensor && hooks_.host_scalar)
    return to_float(hooks_.host_scalar(*this, v, at), at);
  if (is_integer(v)) {
    if (auto d = integer_to_double(v)) return *d;
    error(at, "OverflowError: int too large to convert to float");
  }
  error(at, "expected a number, got " + v->type_name());
}

void Interp::check_count(Span at, int64_t count, const std::string& what) {
  if (count < 0) raise(at, what + ": negative size " + std::to_string(count));
  if (count > kMaxElements)
    size_limit(at, what + " of " + std::to_string(count) + " elements (size limit " +
                       std::to_string(kMaxElements) + ")");
}

void Interp::check_shape(Span at, const std::vector<int64_t>& shape, const std::string& what) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0)
      raise(at, "RuntimeError: " + what + ": Trying to create tensor with negative dimension " +
                    std::to_string(d));
    if (__builtin_mul_overflow(n, d, &n)) n = INT64_MAX;
  }
  std::string dims;
  for (int64_t d : shape) dims += (dims.empty() ? "" : ", ") + std::to_string(d);
  if (n > kMaxElements)
    size_limit(at, what + " of shape [" + dims +
                       "]: " + (n == INT64_MAX ? std::string("past 2^63") : std::to_string(n)) +
                       " elements (size limit " + std::to_string(kMaxElements) + ")");
}

Ref Interp::make_set(const std::vector<Ref>& members, Span at) {
  auto v = std::make_shared<Value>();
  v->kind = K::Dict;
  v->s = kSetMarker;
  for (const Ref& m : members) {
    if (!equality_is_pythons(m)) unsupported(at, "a set of " + m->type_name() + " values");
    bool seen = false;
    for (auto& [k, _] : v->dict) seen = seen || equal(k, m);
    if (!seen) v->dict.push_back({m, none()});
  }
  return v;
}

std::vector<Ref> Interp::to_sequence(const Ref& v, Span at) {
  if (is_set(v))  // membership and len() need no order; iteration does
    unsupported(at,
                "iterating over a set: CPython visits its members in hash order, which keq "
                "does not model");
  if (v->kind == K::Class && is_enum_class(v)) return enum_members(v);
  switch (v->kind) {
    case K::Tuple:
      return v->items;
    case K::List:
      if (is_iterator(v)) {  // iterating takes every item left
        std::vector<Ref> left;
        left.swap(v->items);
        return left;
      }
      return v->items;
    case K::Dict: {
      std::vector<Ref> keys;
      for (auto& [k, _] : v->dict) keys.push_back(k);
      return keys;
    }
    case K::Str: {
      std::vector<Ref> chars;
      for (char c : v->s) chars.push_back(string(std::string(1, c)));
      return chars;
    }
    case K::Tensor:
      unsupported(at, "iterating over a tensor");
    case K::Instance: {
      // keq's own sequences (nn.Sequential) define __len__ and __getitem__ alike, so items 0 to
      // len - 1 are CPython's iteration. A class of the program's own iterates by __iter__, or
      // by __getitem__ until IndexError, whatever its __len__ says: not modelled.
      Ref len = class_method(v, "__len__"), get = class_method(v, "__getitem__");
      if (len && get && len->kind == K::Builtin && get->kind == K::Builtin &&
          !class_method(v, "__iter__")) {
        int64_t n = to_int(call(len, {v}, at), at);
        std::vector<Ref> items;
        for (int64_t k = 0; k < n; ++k) items.push_back(call(get, {v, integer(k)}, at));
        return items;
      }
      if (len || get || class_method(v, "__iter__"))
        unsupported(at, "iterating over an instance of " + v->type_name() +
                            " (its __iter__ or __getitem__ protocol is not modelled)");
      error(at, "'" + v->type_name() + "' object is not iterable");
    }
    default:
      error(at, "'" + v->type_name() + "' object is not iterable");
  }
}

// CPython's float repr: the shortest digits that round-trip, fixed notation for decimal
// exponents in [-4, 16) (with ".0" when integral), else d.ddde+XX.
std::string Interp::float_repr(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
  std::string sci(buf, res.ptr);  // [-]d[.ddd]e[+-]XX
  bool negative = sci[0] == '-';
  if (negative) sci.erase(0, 1);
  size_t e = sci.find('e');
  int exponent = std::stoi(sci.substr(e + 1));
  std::string digits = sci.substr(0, e);
  if (digits.size() > 1) digits.erase(1, 1);  // drop the point
  std::string out;
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) {
      out = "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
    } else {
      size_t point = static_cast<size_t>(exponent) + 1;
      if (digits.size() <= point)
        out = digits + std::string(point - digits.size(), '0') + ".0";
      else
        out = digits.substr(0, point) + "." + digits.substr(point);
    }
  } else {
    out = digits.substr(0, 1) + (digits.size() > 1 ? "." + digits.substr(1) : "") + "e" +
          (exponent < 0 ? "-" : "+") + (std::abs(exponent) < 10 ? "0" : "") +
          std::to_string(std::abs(exponent));
  }
  return (negative ? "-" : "") + out;
}

std::string Interp::repr(const Ref& v) const {
  switch (v->kind) {
    case K::None:
      return "None";
    case K::Bool:
      return v->b ? "True" : "False";
    case K::Int:
    case K::BigInt:
      return integer_str(v);
    case K::Float:
      return float_repr(v->f);
    case K::Str:
      return v->s;
    case K::Tuple:
    case K::List: {
      std::string s = v->kind == K::Tuple ? "(" : "[";
      for (size_t k = 0; k < v->items.size(); ++k) {
        const Ref& x = v->items[k];
        s += (k ? ", " : "") + (x->kind == K::Str ? quoted(x->s) : repr(x));
      }
      if (v->kind == K::Tuple && v->items.size() == 1) s += ",";
      return s + (v->kind == K::Tuple ? ")" : "]");
    }
    case K::Dict:
      if (!is_set(v)) {  // a set's order is CPython's hash order, which keq does not model
        std::string s = "{";
        auto shown = [this](const Ref& x) { return x->kind == K::Str ? quoted(x->s) : repr(x); };
        for (size_t k = 0; k < v->dict.size(); ++k)
          s += (k ? ", " : "") + shown(v->dict[k].first) + ": " + shown(v->dict[k].second);
        return s + "}";
      }
      return "<" + v->type_name() + ">";
    case K::Tensor:
      return hooks_.repr ? hooks_.repr(v) : "<Tensor>";
    case K::DType:  // str(x.dtype) is torch's name; Triton's dtypes share the value (tl.float32
                    // prints "fp32" there), which host code seldom prints
      return v->s.starts_with("pointer<") || v->s.empty() ? v->s : "torch." + v->s;
    case K::Instance:  // an enum member prints as Cls.NAME
      if (auto it = v->attrs->find("_name_"); it != v->attrs->end() && is_enum_class(v->cls))
        return v->cls->s + "." + it->second->s;
      return "<" + v->type_name() + ">";
    default:
      return "<" + v->type_name() + ">";
  }
}

bool Interp::equal(const Ref& a, const Ref& b) const {
  // A GPU timing's value is unknown (every timing reads 1.0 here): `times.index(min(times))`
  // would find the first timing whichever is least. An explicit == is a choice of the run
  // (compare_timings); a container's equality is not modelled.
  if ((is_timing(a) || is_timing(b)) && a != b)
    throw Unsupported(
        "host Python compares a GPU timing (torch.cuda.Event.elapsed_time) by value in a "
        "container (list.index, `in`, a dict key): keq models <, <=, >, >=, == and != of timings "
        "only");
  if (is_number(a) && is_number(b)) return compare_numbers(a, b) == 0;
  // `in`, a dict key, an item of two tuples: Python compares by identity first, then by value,
  // which an input-dependent float does not have here (equal() has no span: the message names
  // where the value was made).
  for (const Ref& v : {a, b})
    if (v->kind == K::InputDependentFloat && a != b)
      throw Unsupported(
          "host Python compares a float that depends on the inputs' values (made "
          "by " +
          v->s + ") with another value");
  if (a->kind != b->kind) return false;
  switch (a->kind) {
    case K::None:
      return true;
    case K::Str:
      return a->s == b->s;
    case K::Tuple:
    case K::List:
      if (a->items.size() != b->items.size()) return false;
      for (size_t k = 0; k < a->items.size(); ++k)
        if (!equal(a->items[k], b->items[k])) return false;
      return true;
    case K::DType:  // a pointer type (`p.dtype` in a kernel) is not its element type
      if (a->b || b->b) return a->b && b->b && a->s == b->s;  // dtypes keq has no tensors of
      return a->dtype == b->dtype &&
             (a->s.rfind("pointer<", 0) == 0) == (b->s.rfind("pointer<", 0) == 0);
    case K::Device:  // torch.device("cuda") != torch.device("cuda:0"), as in torch
      return a->s == b->s;
    case K::Slice:
      return equal(tuple(a->items), tuple(b->items));
    case K::Dict: {  // as mappings (a defaultdict equals a dict), or sets: in any order
      if (a == b) return true;
      if (is_set(a) != is_set(b) || a->dict.size() != b->dict.size()) return false;
      for (const auto& entry : a->dict) {  // (no structured binding: clang 14 cannot capture it)
        auto it = std::find_if(b->dict.begin(), b->dict.end(),
                               [&](const auto& kv) { return equal(entry.first, kv.first); });
        if (it == b->dict.end() || (!is_set(a) && !equal(entry.second, it->second))) return false;
      }
      return true;
    }
    default:
      return a == b;
  }
}

bool Interp::equality_is_pythons(const Ref& v) const {
  switch (v->kind) {
    case K::Tuple:
    case K::List:
      for (const Ref& x : v->items)
        if (!equality_is_pythons(x)) return false;
      return true;
    case K::Dict:
      for (const auto& [k, x] : v->dict)
        if (!equality_is_pythons(k) || !equality_is_pythons(x)) return false;
      return true;
    case K::Slice:
      for (const Ref& x : v->items)
        if (!equality_is_pythons(x)) return false;
      return true;
    case K::Range:
    case K::InputDependentFloat:
      return false;  // Python compares these by value, equal() by identity
    case K::Instance:
      for (Ref c = v->cls; c; c = c->cls)
        if (c->attrs->contains("__eq__")) return false;
      return true;
    default:
      return true;
  }
}

// ---- operators ---------------------------------------------------------------------------

void Interp::input_dependent_use(Span at, const Ref& v) const {
  unsupported(at, "host Python reads a float that depends on the inputs' values (made by " + v->s +
                      "): keq models such a value as a kernel's scalar argument and in tensor "
                      "operators, nothing else done with it");
}

// dict(...) and dict.update(...): a mapping or (key, value) pairs (at most one positional), then
// keywords; a key already there keeps its place and takes the new value.
void Interp::dict_update(const Ref& d, const CallArgs& a) {
  if (a.pos.size() > 1)
    raise(a.at, "TypeError: expected at most 1 argument, got " + std::to_string(a.pos.size()));
  auto put = [&](const Ref& k, const Ref& v) {
    if (!equality_is_pythons(k)) unsupported(a.at, "a dict key of " + k->type_name());
    for (auto& [key, val] : d->dict)
      if (equal(key, k)) {
        val = v;
        return;
      }
    d->dict.push_back({k, v});
  };
  if (!a.pos.empty()) {
    if (a.pos[0]->kind == K::Dict) {
      for (auto& [k, v] : std::vector(a.pos[0]->dict)) put(k, v);
    } else {
      for (const Ref& kv : to_sequence(a.pos[0], a.at)) {
        std::vector<Ref> pair = to_sequence(kv, a.at);
        if (pair.size() != 2)
          raise(a.at, "ValueError: dictionary update sequence element has length " +
                          std::to_string(pair.size()) + "; 2 is required");
        put(pair[0], pair[1]);
      }
    }
  }
  for (auto& [k, v] : a.kw) put(string(k), v);
}

// Set difference, union, intersection and symmetric difference, members in the order CPython
// would not promise either (sets are not iterated by keq: membership and len only).
Ref Interp::set_operation(const std::string& op, const Ref& a, const Ref& b) const {
  auto has = [&](const Ref& set, const Ref& m) {
    for (const auto& [k, v] : set->dict)
      if (equal(k, m)) return true;
    return false;
  };
  auto out = std::make_shared<Value>();
  out->kind = K::Dict;
  out->s = kSetMarker;
  for (const auto& [k, v] : a->dict)
    if ((op == "-" || op == "^") ? !has(b, k) : op == "&" ? has(b, k) : true)
      out->dict.push_back({k, v});
  if (op == "|" || op == "^")
    for (const auto& [k, v] : b->dict)
      if (!has(a, k)) out->dict.push_back({k, v});
  return out;
}

Ref Interp::binop(const std::string& op, const Ref& a, const Ref& b, Span at) {
  if (a->kind == K::Tensor || b->kind == K::Tensor || a->kind == K::Pointer ||
      b->kind == K::Pointer) {
    if (!hooks_.binop) unsupported(at, "tensor operator " + op);
    return hooks_.binop(*this, op, a, b, at);
  }
  for (const Ref& v : {a, b})
    if (v->kind == K::InputDependentFloat) input_dependent_use(at, v);
  if (is_set(a) && is_set(b) && (op == "-" || op == "|" || op == "&" || op == "^"))
    return set_operation(op, a, b);
  if (is_number(a) && is_number(b)) {
    bool ints = a->kind != K::Float && b->kind != K::Float;
    if (ints) {
      // bool & bool is a bool in CPython (a mask of scalar comparisons in a kernel), not an int.
      if (a->kind == K::Bool && b->kind == K::Bool && (op == "&" || op == "|" || op == "^"))
        return boolean(op == "&" ? a->i & b->i : op == "|" ? a->i | b->i : a->i ^ b->i);
      IntegerResult r = integer_binop(op, a, b);
      // An int computed from a Triton runtime scalar is one too (value.h: Int's `b`).
      bool runtime = (a->kind == K::Int && a->b) || (b->kind == K::Int && b->b);
      if (op == "*" && a->kind == K::Int && a->b && b->kind == K::Int && b->b &&
          hooks_.runtime_product)
        hooks_.runtime_product(*this, a->i, b->i, at);
      if (r.value && runtime && r.value->kind == K::Int) {
        r.value = integer(r.value->i);
        r.value->b = true;
      }
      if (r.value) return r.value;
      if (r.failure->program_error) raise(at, r.failure->message);
      unsupported(at, r.failure->message);
    } else {
      // Arithmetic with a Triton runtime scalar runs in the kernel, in fp32 (a 0-d tensor), not
      // in Python's doubles: 1.0 / n for a runtime n is a division keq must see (exact over the
      // reals, div.full in IEEE), not a rounded constant.
      auto runtime_scalar = [](const Ref& v) {
        return (v->kind == K::Int || v->kind == K::Float) && v->b;
      };
      bool runtime = runtime_scalar(a) || runtime_scalar(b);
      if (runtime && hooks_.binop && hooks_.in_kernel && hooks_.in_kernel())
        return hooks_.binop(*this, op, a, b, at);
      double x = to_float(a, at), y = to_float(b, at);
      // A GPU timing stays one through arithmetic (ms * 1000 compared is still a choice).
      bool timing = (a->kind == K::Float && a->s == kTimingMarker) ||
                    (b->kind == K::Float && b->s == kTimingMarker);
      auto number = [timing](double v) {
        Ref r = floating(v);
        if (timing) r->s = kTimingMarker;  // computed from timings: id 0 (TimingChoices)
        return r;
      };
      if (op == "+") return number(x + y);
      if (op == "-") return number(x - y);
      if (op == "*") return number(x * y);
      // CPython's ZeroDivisionErrors: the program raises (a NaN or inf here would be a guess).
      if (y == 0 && (op == "/" || op == "//" || op == "%"))
        raise(at, op == "/"    ? "ZeroDivisionError: float division by zero"
                  : op == "//" ? "ZeroDivisionError: float floor division by zero"
                               : "ZeroDivisionError: float modulo");
      if (op == "/") return number(x / y);
      if (op == "//") return number(std::floor(x / y));
      if (op == "%") return number(x - std::floor(x / y) * y);
      if (op == "**" && x == 0 && y < 0)
        raise(at, "ZeroDivisionError: 0.0 cannot be raised to a negative power");
      if (op == "**") return number(std::pow(x, y));
    }
  }
  if (op == "+" && a->kind == b->kind && (a->kind == K::Str)) return string(a->s + b->s);
  if (op == "%" && a->kind == K::Str) return string(percent_format(a->s, b, at));
  if (op == "+" && a->kind == b->kind && (a->kind == K::Tuple || a->kind == K::List)) {
    std::vector<Ref> items = a->items;
    items.insert(items.end(), b->items.begin(), b->items.end());
    return a->kind == K::Tuple ? tuple(items) : list(items);
  }
  // A sequence repeated, either way round ("/" * n as posixpath writes it, [0] * n).
  auto repeatable = [](const Ref& v) {
    return v->kind == K::List || v->kind == K::Tuple || v->kind == K::Str;
  };
  auto count = [](const Ref& v) { return v->kind == K::Int || v->kind == K::Bool; };
  if (op == "*" && ((repeatable(a) && count(b)) || (count(a) && repeatable(b)))) {
    const Ref& seq = repeatable(a) ? a : b;
    int64_t times = std::max<int64_t>((repeatable(a) ? b : a)->i, 0), n = 0;
    size_t size = seq->kind == K::Str ? seq->s.size() : seq->items.size();
    if (__builtin_mul_overflow(static_cast<int64_t>(size), times, &n)) n = INT64_MAX;
    check_count(at, n, "a " + seq->type_name() + " repeated");
    if (seq->kind == K::Str) {
      std::string text;
      for (int64_t k = 0; k < times; ++k) text += seq->s;
      return string(text);
    }
    std::vector<Ref> items;
    for (int64_t k = 0; k < times; ++k)
      items.insert(items.end(), seq->items.begin(), seq->items.end());
    return seq->kind == K::Tuple ? tuple(items) : list(items);
  }
  // None has no arithmetic: beside another built-in scalar CPython raises TypeError, and so does
  // Triton's compiler for constexprs (gpt-5's `out_col[1 * 0 + None, :]`).
  auto scalar = [](const Ref& v) {
    return v->kind == K::None || v->kind == K::Bool || v->kind == K::Int || v->kind == K::Float ||
           v->kind == K::Str;
  };
  if (op == "+" && a->kind == K::Str && scalar(b) && b->kind != K::Str)
    raise(at, "TypeError: can only concatenate str (not \"" + b->type_name() + "\") to str");
  if (op == "+" && b->kind == K::Str && scalar(a) && a->kind != K::Str)
    raise(at, "TypeError: unsupported operand type(s) for +: '" + a->type_name() + "' and 'str'");
  if ((a->kind == K::None || b->kind == K::None) && scalar(a) && scalar(b))
    raise(at, "TypeError: unsupported operand type(s) for " + op + ": '" + a->type_name() +
                  "' and '" + b->type_name() + "'");
  unsupported(at, "operator " + op + " on " + a->type_name() + " and " + b->type_name());
}

// A comparison of GPU timings: which way it goes is the run's choice (TimingChoices), unless
// every timing would give one answer. Comparing them otherwise than as numbers is unmodelled.
bool Interp::compare_timings(const std::string& op, const Ref& a, const Ref& b, Span at) {
  static const char* kOps[] = {"<", "<=", ">", ">=", "==", "!="};
  auto side = [&](const Ref& v) -> std::optional<TimingChoices::Side> {
    if (is_timing(v)) return TimingChoices::Side{v->i, 0};
    if (v->kind == K::Int || v->kind == K::Float || v->kind == K::Bool)
      return TimingChoices::Side{-1, to_float(v, at)};
    return std::nullopt;
  };
  auto x = side(a), y = side(b);
  if (!x || !y || std::find(std::begin(kOps), std::end(kOps), op) == std::end(kOps))
    unsupported(at, "'" + op + "' of a GPU timing (torch.cuda.Event.elapsed_time) and " +
                        (x ? b : a)->type_name());
  auto outcome = timing().compare(op, *x, *y, where(at));
  if (!outcome)
    unsupported(at, "more than " + std::to_string(TimingChoices::kMax) +
                        " comparisons of GPU timings (torch.cuda.Event.elapsed_time): keq runs "
                        "every outcome of up to " +
                        std::to_string(TimingChoices::kMax));
  return *outcome;
}

bool Interp::compare(const std::string& op, const Ref& a, const Ref& b, Span at) {
  if (op == "is") return a == b || (a->kind == K::None && b->kind == K::None);
  if (op == "is not") return !(a == b || (a->kind == K::None && b->kind == K::None));
  if (is_timing(a) || is_timing(b)) return compare_timings(op, a, b, at);
  for (const Ref& v : {a, b})
    if (v->kind == K::InputDependentFloat) input_dependent_use(at, v);
  if (op == "==" || op == "!=") {
    // A class's own __eq__ answers (CPython tries the left operand's first); != inverts it,
    // as object.__ne__ does.
    for (const auto& [self, other] : {std::pair{a, b}, std::pair{b, a}})
      if (self->kind == K::Instance)
        if (Ref eq = class_method(self, "__eq__"); eq && eq->kind == K::Function) {
          CallArgs args;
          args.at = at;
          args.pos = {self, other};
          return truthy(call(eq, std::move(args)), at) == (op == "==");
        }
    if (!equality_is_pythons(a) || !equality_is_pythons(b))
      unsupported(at, "comparison " + op + " of " + a->type_name() + " and " + b->type_name() +
                          " (keq compares them by identity)");
    return equal(a, b) == (op == "==");
  }
  if (op == "in" || op == "not in") {
    bool found = false;
    if (b->kind == K::Str && a->kind == K::Str) {
      found = b->s.find(a->s) != std::string::npos;
    } else if (b->kind == K::Dict) {  // a dict's keys, a set's members: in any order
      for (auto& [k, _] : b->dict) found = found || equal(a, k);
    } else {
      for (const Ref& x : to_sequence(b, at)) found = found || equal(a, x);
    }
    return op == "in" ? found : !found;
  }
  if (is_number(a) && is_number(b)) {
    std::optional<int> c = compare_numbers(a, b);  // nothing: a NaN, every ordering false
    if (op == "<") return c && *c < 0;
    if (op == "<=") return c && *c <= 0;
    if (op == ">") return c && *c > 0;
    if (op == ">=") return c && *c >= 0;
  }
  if (a->kind == K::Str && b->kind == K::Str) {
    if (op == "<") return a->s < b->s;
    if (op == ">") return a->s > b->s;
    if (op == "<=") return a->s <= b->s;
    if (op == ">=") return a->s >= b->s;
  }
  // Sequences of one kind order lexicographically: the first unequal items decide.
  if (a->kind == b->kind && (a->kind == K::Tuple || a->kind == K::List)) {
    size_t k = 0;
    while (k < a->items.size() && k < b->items.size() && equal(a->items[k], b->items[k])) ++k;
    if (k < a->items.size() && k < b->items.size())
      return compare(op, a->items[k], b->items[k], at);
    size_t m = a->items.size(), n = b->items.size();
    if (op == "<") return m < n;
    if (op == "<=") return m <= n;
    if (op == ">") return m > n;
    if (op == ">=") return m >= n;
  }
  unsupported(at, "comparison " + op + " of " + a->type_name() + " and " + b->type_name());
}

}  // namespace keq::python
