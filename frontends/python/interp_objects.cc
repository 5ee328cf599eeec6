// The interpreter's calls, classes and attributes: binding arguments, methods, super(), and
// attribute lookup on instances, classes, modules and keq's library classes.
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include "frontends/python/integers.h"
#include "frontends/python/interp.h"

namespace keq::python {
namespace {

// More of str's methods: search, replace, strip and split variants, character classes.
Ref more_string_method(const std::string& str, const std::string& name) {
  using K = Value::Kind;
  auto text = [name](Interp& in, CallArgs& a, size_t i) -> const std::string& {
    if (a.pos.size() <= i || a.pos[i]->kind != K::Str)
      in.raise_exception(a.at, "TypeError", "str." + name + "() needs a string argument");
    return a.pos[i]->s;
  };
  auto count_arg = [](Interp& in, CallArgs& a, size_t i, const char* kw) -> int64_t {
    Ref v = a.get(i, kw);
    return v ? in.to_int(v, a.at) : -1;
  };
  if (name == "replace")
    return builtin("str.replace", [str, text, count_arg](Interp& in, CallArgs& a) {
      const std::string &from = text(in, a, 0), &to = text(in, a, 1);
      int64_t left = count_arg(in, a, 2, "count");
      std::string out;
      size_t p = 0;
      if (from.empty()) {  // CPython inserts `to` around every character
        for (char c : str) {
          if (left-- != 0) out += to;
          out += c;
        }
        return string(left != 0 ? out + to : out);
      }
      for (size_t q; left != 0 && (q = str.find(from, p)) != std::string::npos; --left)
        out += str.substr(p, q - p) + to, p = q + from.size();
      return string(out + str.substr(p));
    });
  if (name == "count" || name == "find" || name == "rfind" || name == "index")
    return builtin("str." + name, [str, name, text](Interp& in, CallArgs& a) -> Ref {
      const std::string& sub = text(in, a, 0);
      if (name == "count") {
        if (sub.empty()) return integer(static_cast<int64_t>(str.size()) + 1);
        int64_t n = 0;
        for (size_t p = str.find(sub); p != std::string::npos; p = str.find(sub, p + sub.size()))
          ++n;
        return integer(n);
      }
      size_t p = name == "rfind" ? str.rfind(sub) : str.find(sub);
      if (p == std::string::npos && name == "index")
        in.raise_exception(a.at, "ValueError", "substring not found");
      return integer(p == std::string::npos ? -1 : static_cast<int64_t>(p));
    });
  if (name == "lstrip" || name == "rstrip")
    return builtin("str." + name, [str, name](Interp& in, CallArgs& a) {
      std::string chars = " \t\n\r\v\f";
      if (!a.pos.empty() && a.pos[0]->kind == K::Str)
        chars = a.pos[0]->s;
      else if (!a.pos.empty() && a.pos[0]->kind != K::None)
        in.raise_exception(a.at, "TypeError", "strip arg must be None or str");
      if (name == "lstrip") {
        size_t b = str.find_first_not_of(chars);
        return string(b == std::string::npos ? "" : str.substr(b));
      }
      size_t e = str.find_last_not_of(chars);
      return string(e == std::string::npos ? "" : str.substr(0, e + 1));
    });
  if (name == "rsplit")
    return builtin("str.rsplit", [str, text, count_arg](Interp& in, CallArgs& a) {
      const std::string& sep = text(in, a, 0);
      if (sep.empty()) in.raise_exception(a.at, "ValueError", "empty separator");
      int64_t left = count_arg(in, a, 1, "maxsplit");
      std::vector<Ref> parts;
      size_t end = str.size();
      for (size_t q; left != 0 && end >= sep.size() &&
                     (q = str.rfind(sep, end - sep.size())) != std::string::npos;
           --left) {
        parts.insert(parts.begin(), string(str.substr(q + sep.size(), end - q - sep.size())));
        end = q;
      }
      parts.insert(parts.begin(), string(str.substr(0, end)));
      return list(parts);
    });
  if (name == "partition" || name == "rpartition")
    return builtin("str." + name, [str, name, text](Interp& in, CallArgs& a) {
      const std::string& sep = text(in, a, 0);
      if (sep.empty()) in.raise_exception(a.at, "ValueError", "empty separator");
      bool right = name == "rpartition";
      size_t q = right ? str.rfind(sep) : str.find(sep);
      if (q == std::string::npos)
        return right ? tuple({string(""), string(""), string(str)})
                     : tuple({string(str), string(""), string("")});
      return tuple({string(str.substr(0, q)), string(sep), string(str.substr(q + sep.size()))});
    });
  if (name == "zfill")
    return builtin("str.zfill", [str](Interp& in, CallArgs& a) {
      int64_t width = a.pos.empty() ? 0 : in.to_int(a.pos[0], a.at);
      if (width <= static_cast<int64_t>(str.size())) return string(str);
      size_t sign = !str.empty() && (str[0] == '-' || str[0] == '+');
      return string(str.substr(0, sign) + std::string(width - str.size(), '0') + str.substr(sign));
    });
  if (name == "isidentifier")  // bytes past ASCII taken as letters (Python's Unicode ones)
    return builtin("str.isidentifier", [str](Interp&, CallArgs&) {
      auto word = [](unsigned char c) { return c >= 0x80 || c == '_' || std::isalnum(c); };
      bool ok = !str.empty() && !std::isdigit(static_cast<unsigned char>(str[0]));
      for (char c : str) ok = ok && word(static_cast<unsigned char>(c));
      return boolean(ok);
    });
  static const std::map<std::string, int (*)(int)> kClasses = {
      {"isdigit", ::isdigit}, {"isalpha", ::isalpha}, {"isalnum", ::isalnum},
      {"isspace", ::isspace}, {"isupper", ::isupper}, {"islower", ::islower}};
  if (auto it = kClasses.find(name); it != kClasses.end())
    return builtin("str." + name, [str, test = it->second, name](Interp&, CallArgs&) {
      bool cased = name == "isupper" || name == "islower", any = false, all = !str.empty();
      for (char c : str) {
        unsigned char u = static_cast<unsigned char>(c);
        if (cased && !std::isalpha(u)) continue;
        any = true;
        all = all && test(u);
      }
      return boolean(all && (!cased || any));
    });
  return nullptr;
}

// str's methods that host code around kernels calls (version strings, mode names).
Ref string_method(const Ref& obj, const std::string& name) {
  const std::string& str = obj->s;
  auto arg = [&name](Interp& in, CallArgs& a) -> const std::string& {
    if (a.pos.size() != 1 || a.pos[0]->kind != Value::Kind::Str)
      in.error(a.at, "str." + name + " takes one string here");
    return a.pos[0]->s;
  };
  if (name == "startswith" || name == "endswith")
    return builtin("str." + name, [str, name, arg](Interp& in, CallArgs& a) {
      const std::string& x = arg(in, a);
      bool starts = name == "startswith";
      return boolean(x.size() <= str.size() &&
                     str.compare(starts ? 0 : str.size() - x.size(), x.size(), x) == 0);
    });
  if (name == "lower" || name == "upper")
    return builtin("str." + name, [str, name](Interp&, CallArgs&) {
      std::string r = str;
      for (char& c : r) c = static_cast<char>(name == "lower" ? std::tolower(c) : std::toupper(c));
      return string(r);
    });
  if (name == "split")
    return builtin("str.split", [str, arg](Interp& in, CallArgs& a) {
      if (a.pos.empty()) in.unsupported(a.at, "str.split() on whitespace");
      const std::string& sep = arg(in, a);
      if (sep.empty()) in.raise(a.at, "ValueError: empty separator");
      std::vector<Ref> parts;
      for (size_t p = 0;;) {
        size_t q = str.find(sep, p);
        parts.push_back(string(str.substr(p, q == std::string::npos ? q : q - p)));
        if (q == std::string::npos) break;
        p = q + sep.size();
      }
      return list(parts);
    });
  if (name == "strip")
    return builtin("str.strip", [str](Interp& in, CallArgs& a) {
      if (!a.pos.empty()) in.unsupported(a.at, "str.strip(chars)");
      size_t b = str.find_first_not_of(" \t\n\r"), e = str.find_last_not_of(" \t\n\r");
      return string(b == std::string::npos ? "" : str.substr(b, e - b + 1));
    });
  if (name == "format")
    return builtin("str.format", [str](Interp& in, CallArgs& a) {
      return string(in.format_string(str, a.pos, a.kw, a.at));
    });
  if (name == "join")
    return builtin("str.join", [str](Interp& in, CallArgs& a) {
      std::string r;
      size_t k = 0;
      for (const Ref& x : in.to_sequence(a.pos.at(0), a.at)) {
        if (x->kind != Value::Kind::Str) in.raise(a.at, "TypeError: sequence item: expected str");
        r += (k++ ? str : "") + x->s;
      }
      return string(r);
    });
  return more_string_method(str, name);
}

// int.bit_length() (sizing a block: `1 << (n - 1).bit_length()`) and float.is_integer().
Ref number_method(const Ref& obj, const std::string& name) {
  bool is_float = obj->kind == Value::Kind::Float;
  if (name != (is_float ? "is_integer" : "bit_length")) return nullptr;
  std::string qualified = (is_float ? "float." : "int.") + name;
  return builtin(qualified, [obj, is_float, qualified](Interp& in, CallArgs& a) {
    if (!a.pos.empty() || !a.kw.empty())
      in.raise_exception(a.at, "TypeError",
                         qualified + "() takes no arguments (" +
                             std::to_string(a.pos.size() + a.kw.size()) + " given)");
    if (is_float) return boolean(std::isfinite(obj->f) && obj->f == std::trunc(obj->f));
    mpz_class z = abs(as_mpz(obj));
    return integer(z == 0 ? 0 : static_cast<int64_t>(mpz_sizeinbase(z.get_mpz_t(), 2)));
  });
}

}  // namespace

namespace {
using K = Value::Kind;
constexpr int kMaxDepth = 200;  // Python calls nested deeper are UNSUPPORTED (RecursionError)
}  // namespace

// ---- calls, classes, attributes ----------------------------------------------------------

Ref Interp::class_method(const Ref& instance, const std::string& name) const {
  for (Ref c = instance->cls; c; c = c->cls)
    if (auto it = c->attrs->find(name); it != c->attrs->end()) return it->second;
  return nullptr;
}

Ref Interp::call(const Ref& f, std::vector<Ref> positional, Span at) {
  CallArgs args;
  args.at = at;
  args.pos = std::move(positional);
  return call(f, std::move(args));
}

Ref Interp::call(const Ref& f, CallArgs args) {
  switch (f->kind) {
    case K::Builtin:
      try {
        return f->builtin(*this, args);
      } catch (const ir::TypeError& e) {  // keq's model built an ill-typed term: keq's gap
        unsupported(args.at,
                    f->s + ": keq's model of it built an ill-typed term (" + e.what() + ")");
      }
    case K::Function: {
      if (!hooks_.plain_kernel_helper || !hooks_.plain_kernel_helper(f))
        return call_function(f, args, nullptr, nullptr);
      struct Depth {
        int& d;
        ~Depth() { --d; }
      } depth{++plain_helper_depth_};
      return call_function(f, args, nullptr, nullptr);
    }
    case K::BoundMethod: {
      const Ref& self = f->items[0];
      const Ref& fn = f->items[1];
      args.pos.insert(args.pos.begin(), self);
      const Ref owner = f->items.size() > 2 ? f->items[2] : nullptr;
      if (fn->kind == K::Builtin && fn->b && !fn->items.empty())  // a classmethod of the program
        return call_function(fn->items[0], args, self, owner);
      if (fn->kind == K::Builtin) return fn->builtin(*this, args);
      return call_function(fn, args, self, owner);
    }
    case K::Class:
      if (is_enum_class(f) && args.pos.size() == 1 && args.kw.empty() &&
          f->attrs->contains("_member_names_"))
        return enum_lookup(f, args.pos[0], false, args.at);
      return instantiate(f, std::move(args));
    case K::Instance: {
      Ref m = getattr(f, "__call__", args.at);
      return call(m, std::move(args));
    }
    case K::None:
    case K::Bool:
    case K::Int:
    case K::BigInt:
    case K::Float:
    case K::InputDependentFloat:
    case K::Str:
    case K::Tuple:
    case K::List:
    case K::Dict:
    case K::Slice:
    case K::Range:
    case K::Tensor:
    case K::Pointer:
    case K::DType:
      // Values CPython cannot call (tl.float32(C) in a kernel): its TypeError, the program's.
      raise_exception(args.at, "TypeError", "'" + f->type_name() + "' object is not callable");
    case K::Module:
      error(args.at, "'" + f->type_name() + "' object is not callable");
    default:  // keq's stand-ins for library objects (typing.TypeVar is a module here)
      error(args.at, "'" + f->type_name() + "' object is not callable");
  }
}

std::vector<std::string> Interp::parameter_names(const Ref& f) const {
  std::vector<std::string> names;
  if (f->kind != K::Function) return names;
  const Node& def = f->fn->tree->at(f->fn->def);
  std::vector<NodeId> params;
  if (def.kind == NodeKind::FunctionDef)
    params = f->fn->tree->at(def.kids[1]).kids;
  else
    params.assign(def.kids.begin(), def.kids.end() - 1);
  for (NodeId p : params)
    if (f->fn->tree->at(p).flags == 0) names.push_back(f->fn->tree->at(p).text);
  return names;
}

namespace {

// CPython's words for the parameters a call left without a value: "missing 2 required positional
// arguments: 'a' and 'b'".
std::string missing_text(const std::vector<std::string>& names) {
  std::string list;
  for (size_t k = 0; k < names.size(); ++k)
    list += (k == 0                 ? ""
             : k + 1 < names.size() ? ", "
             : names.size() > 2     ? ", and "
                                    : " and ") +
            names[k];
  return "missing " + std::to_string(names.size()) + " required positional argument" +
         (names.size() == 1 ? "" : "s") + ": " + list;
}

}  // namespace

Ref Interp::call_function(const Ref& f, CallArgs& args, const Ref& self, const Ref& owner) {
  const Function& fn = *f->fn;
  const Tree* saved_tree = tree_;
  // A call from the program into keq's Python model of a library: what the model raises or
  // cannot do is reported where the program called it.
  const bool into_model = is_model_tree(fn.tree) && !is_model_tree(saved_tree);
  if (into_model) model_callers_.push_back(where(args.at));
  tree_ = fn.tree;
  if (++depth_ > kMaxDepth) unsupported(args.at, "calls nested deeper than 200");
  const Node& def = node(fn.def);
  std::vector<NodeId> params;
  if (def.kind == NodeKind::FunctionDef)
    params = node(def.kids[1]).kids;
  else
    params.assign(def.kids.begin(), def.kids.end() - 1);
  auto env = std::make_shared<Env>();
  env->parent = fn.closure;
  if (def.kind == NodeKind::FunctionDef) env->locals = local_names(fn.def);
  size_t next = 0;
  Ref star_args, star_kw;
  std::vector<bool> bound(params.size(), false);
  bool keyword_only = false;
  for (size_t k = 0; k < params.size(); ++k) {
    const Node& p = node(params[k]);
    if (p.flags == 1) {
      star_args = list({});
      while (next < args.pos.size()) star_args->items.push_back(args.pos[next++]);
      env->vars[p.text] = tuple(star_args->items);
      bound[k] = true;
      keyword_only = true;
    } else if (p.flags == 2) {
      star_kw = std::make_shared<Value>();
      star_kw->kind = K::Dict;
      env->vars[p.text] = star_kw;
      bound[k] = true;
    } else if (p.flags == 3) {
      keyword_only = true;
      bound[k] = true;
    } else if (p.flags == 4) {
      bound[k] = true;
    } else if (!keyword_only && next < args.pos.size()) {
      env->vars[p.text] = args.pos[next++];
      bound[k] = true;
    }
  }
  // What CPython raises binding a call to a def or lambda: a TypeError the program may catch
  // (try restores the caller's tree and depth), and a confirmed error where it does not.
  auto type_error = [&](const std::string& what) {
    raise(args.at, "TypeError: " + fn.name + "() " + what);
  };
  if (next < args.pos.size())
    type_error("takes " + std::to_string(next) + " positional argument" + (next == 1 ? "" : "s") +
               " but " + std::to_string(args.pos.size()) +
               (args.pos.size() == 1 ? " was" : " were") + " given");
  for (auto& [name, v] : args.kw) {
    bool placed = false;
    for (size_t k = 0; k < params.size() && !placed; ++k)
      if (node(params[k]).text == name && node(params[k]).flags == 0) {
        if (bound[k]) type_error("got multiple values for argument '" + name + "'");
        env->vars[name] = v;
        bound[k] = placed = true;
      }
    if (placed) continue;
    if (!star_kw) type_error("got an unexpected keyword argument '" + name + "'");
    star_kw->dict.push_back({string(name), v});
  }
  std::vector<std::string> missing;
  for (size_t k = 0; k < params.size(); ++k) {
    if (bound[k]) continue;
    if (!fn.defaults[k]) missing.push_back("'" + node(params[k]).text + "'");
    env->vars[node(params[k]).text] = fn.defaults[k];
  }
  if (!missing.empty()) type_error(missing_text(missing));
  if (self) method_stack_.push_back({owner, self});
  Ref result;
  if (def.kind == NodeKind::Lambda) {
    result = eval(def.kids.back(), env);
  } else if (is_generator(fn.def) && !std::exchange(contextmanager_call_, false)) {
    result = run_generator(def, env, args.at);
  } else {
    return_value_ = none();
    Flow flow = exec_block(def.kids[3], env);
    result = flow == Flow::Return ? return_value_ : none();
  }
  if (self) method_stack_.pop_back();
  if (into_model) model_callers_.pop_back();
  --depth_;
  tree_ = saved_tree;
  return result;
}

Ref Interp::make_class(const std::string& name, Ref base,
                       std::shared_ptr<absl::flat_hash_map<std::string, Ref>> attrs) {
  auto cls = std::make_shared<Value>();
  cls->kind = K::Class;
  cls->s = name;
  cls->cls = std::move(base);
  cls->attrs = std::move(attrs);
  return cls;
}

Ref Interp::instantiate(const Ref& cls, CallArgs args) {
  auto inst = std::make_shared<Value>();
  inst->kind = K::Instance;
  inst->cls = cls;
  inst->attrs = std::make_shared<absl::flat_hash_map<std::string, Ref>>();
  Ref init = getattr(inst, "__init__", args.at);
  call(init, std::move(args));
  return inst;
}

bool Interp::is_instance_of(const Ref& v, const std::string& class_name) const {
  if (v->kind != K::Instance) return false;
  for (Ref c = v->cls; c; c = c->cls)
    if (c->s == class_name) return true;
  return false;
}

// The first class in the chain that models a library's (nn.Module, ...): an attribute missing
// there may be one keq lacks, not one the program lacks. Python's own object and exception
// classes are complete enough that a miss is the program's error.
Ref Interp::library_base(const Ref& cls) const {
  static const std::set<std::string> kPython = {
      "object",       "Exception",           "ValueError",    "TypeError",
      "RuntimeError", "NotImplementedError", "AssertionError"};
  // A class keq models in Python says so with __keq_library__ (its missing attributes are
  // keq's gap, as for one modelled in C++).
  for (Ref c = cls; c; c = c->cls)
    if ((!c->b && !kPython.contains(c->s)) || c->attrs->contains("__keq_library__")) return c;
  return nullptr;
}

// Whether CPython's int, float, bool, str, list, tuple, dict or set has the attribute (keq
// models some of them); true for every other value, whose attributes keq does not list.
bool Interp::has_builtin_attribute(const Ref& obj, const std::string& name) const {
  static const std::set<std::string> kList = {"append", "clear",   "copy",   "count",
                                              "extend", "index",   "insert", "pop",
                                              "remove", "reverse", "sort"};
  static const std::set<std::string> kDict = {"clear",      "copy",   "fromkeys", "get",
                                              "items",      "keys",   "pop",      "popitem",
                                              "setdefault", "update", "values"};
  static const std::set<std::string> kSet = {"add",
                                             "clear",
                                             "copy",
                                             "difference",
                                             "difference_update",
                                             "discard",
                                             "intersection",
                                             "intersection_update",
                                             "isdisjoint",
                                             "issubset",
                                             "issuperset",
                                             "pop",
                                             "remove",
                                             "symmetric_difference",
                                             "symmetric_difference_update",
                                             "union",
                                             "update"};
  static const std::set<std::string> kInt = {
      "as_integer_ratio", "bit_count", "bit_length", "conjugate", "denominator",
      "from_bytes",       "imag",      "numerator",  "real",      "to_bytes"};
  static const std::set<std::string> kFloat = {
      "as_integer_ratio", "conjugate", "fromhex", "hex", "imag", "is_integer", "real"};
  static const std::set<std::string> kStr = {
      "capitalize",   "casefold",    "center",    "count",      "encode",       "endswith",
      "expandtabs",   "find",        "format",    "format_map", "index",        "isalnum",
      "isalpha",      "isascii",     "isdecimal", "isdigit",    "isidentifier", "islower",
      "isnumeric",    "isprintable", "isspace",   "istitle",    "isupper",      "join",
      "ljust",        "lower",       "lstrip",    "maketrans",  "partition",    "removeprefix",
      "removesuffix", "replace",     "rfind",     "rindex",     "rjust",        "rpartition",
      "rsplit",       "rstrip",      "split",     "splitlines", "startswith",   "strip",
      "swapcase",     "title",       "translate", "upper",      "zfill"};
  if (name.starts_with("__")) return true;
  // In a kernel an int may be a Triton constexpr or a runtime scalar, which have attributes of
  // their own (x.dtype, BLOCK.value): only host values are CPython's.
  const bool host = !(hooks_.in_kernel && hooks_.in_kernel());
  switch (obj->kind) {
    case K::Int:
    case K::BigInt:
      return !host || obj->b || kInt.contains(name);
    case K::Bool:
      return !host || obj->f != 0 || kInt.contains(name);
    case K::Float:
      return !host || obj->b || kFloat.contains(name);
    case K::Str:
      return !host || kStr.contains(name);
    case K::List:
      // an nn container has a module's attributes; a deque has more than a list
      return obj->b || is_deque(obj) || kList.contains(name);
    case K::Tuple:
      return !obj->s.empty() || obj->b || name == "count" || name == "index";
    case K::Dict:
      return obj->b || (is_set(obj) ? kSet : kDict).contains(name);
    default:
      return true;
  }
}

Ref Interp::getattr(const Ref& obj, const std::string& name, Span at) {
  auto bind = [&](const Ref& self, const Ref& fn, const Ref& owner) -> Ref {
    if (fn->kind != K::Function && fn->kind != K::Builtin) return fn;
    if (fn->kind == K::Function && fn->b) return fn;  // a staticmethod is never bound
    auto m = std::make_shared<Value>();
    m->kind = K::BoundMethod;
    // A classmethod found through an instance binds the instance's class.
    bool on_class = fn->kind == K::Builtin && fn->b && self->kind == K::Instance && self->cls;
    m->items = {on_class ? self->cls : self, fn, owner};
    return m;
  };
  auto from_classes = [&](Ref start, const Ref& self) -> Ref {
    for (Ref c = std::move(start); c; c = c->cls)
      if (auto it = c->attrs->find(name); it != c->attrs->end()) {
        const Ref& v = it->second;
        if (self && v->kind == K::Module && v->s == kPropertyTag) {
          CallArgs get;
          get.at = at;
          get.pos = {self};
          return call(v->attrs->at("fget"), get);
        }
        return self ? bind(self, v, c) : v;
      }
    return nullptr;
  };
  switch (obj->kind) {
    case K::Instance: {
      if (obj->s == "super") {  // super(): look up from the base of the running method's class
        if (Ref r = from_classes(obj->cls, obj->items[0])) return r;
        error(at, "'super' object has no attribute '" + name + "'");
      }
      if (auto it = obj->attrs->find(name); it != obj->attrs->end()) return it->second;
      if (Ref r = from_classes(obj->cls, obj)) return r;
      // A class's own __getattr__ answers what lookup did not find (torch.ops' namespaces).
      for (Ref c = obj->cls; c && name != "__getattr__"; c = c->cls)
        if (auto it = c->attrs->find("__getattr__");
            it != c->attrs->end() && it->second->kind == K::Function) {
          CallArgs get;
          get.at = at;
          get.pos = {string(name)};
          return call(bind(obj, it->second, c), get);
        }
      if (Ref lib = library_base(obj->cls))
        unsupported(at, lib->s + "." + name + " is not modelled (an attribute of " +
                            obj->type_name() + ")");
      error(at, "'" + obj->type_name() + "' object has no attribute '" + name + "'");
    }
    case K::Class:
      if (name == "__name__" || name == "__qualname__") return string(obj->s);
      if (Ref r = from_classes(obj, nullptr)) {
        // A classmethod (a builtin marked `b`, such as autograd.Function.apply) gets the class
        // it was looked up on.
        if (r->kind == K::Builtin && r->b) return bind(obj, r, obj);
        return r;
      }
      if (Ref lib = library_base(obj))
        unsupported(
            at, lib->s + "." + name + " is not modelled (an attribute of class " + obj->s + ")");
      error(at, "class " + obj->s + " has no attribute '" + name + "'");
    case K::Module:
      return available(module_attr(available(obj, at), name, at), at);
    case K::Tensor:
      if (!hooks_.getattr) unsupported(at, "tensor attribute " + name);
      return hooks_.getattr(*this, obj, name, at);
    case K::Device: {  // "cuda:0": type "cuda", index 0
      size_t colon = obj->s.find(':');
      if (name == "type") return string(obj->s.substr(0, colon));
      if (name == "index")
        return colon == std::string::npos ? none() : integer(std::stoll(obj->s.substr(colon + 1)));
      unsupported(at, "torch.device." + name + " is not modelled");
    }
    case K::Tuple: {  // a named tuple (torch.return_types) keeps its field names in `s`
      if (obj->b && name == "numel")  // torch.Size.numel(): the product of the sizes
        return builtin("torch.Size.numel", [obj](Interp& in, CallArgs& a) {
          if (!a.pos.empty() || !a.kw.empty())
            in.raise(a.at, "TypeError: numel() takes no arguments");
          int64_t n = 1;
          for (const Ref& d : obj->items) n *= d->i;
          return integer(n);
        });
      size_t field = 0;
      for (size_t p = 0; !obj->s.empty() && p <= obj->s.size(); ++field) {
        size_t q = std::min(obj->s.find(',', p), obj->s.size());
        if (obj->s.compare(p, q - p, name) == 0 && field < obj->items.size())
          return obj->items[field];
        p = q + 1;
      }
      unsupported(at, "attribute '" + name + "' of tuple");
    }
    case K::Str:
      if (Ref m = string_method(obj, name)) return m;
      break;
    case K::List:
      if (name == "sort")  // in place, as sorted() orders (key=, reverse=)
        return builtin("list.sort", [obj](Interp& in, CallArgs& a) {
          if (!a.pos.empty()) in.raise(a.at, "TypeError: sort() takes no positional arguments");
          CallArgs by = a;
          by.pos = {list(obj->items)};
          obj->items = in.call(in.builtin_value("sorted"), by)->items;
          return none();
        });
      if (name == "copy" || name == "pop" || name == "insert" || name == "index" ||
          name == "count" || name == "remove" || name == "reverse" || name == "clear")
        return builtin("list." + name, [obj, name](Interp& in, CallArgs& a) -> Ref {
          auto& xs = obj->items;
          auto position = [&](const Ref& v) {
            for (size_t k = 0; k < xs.size(); ++k)
              if (in.equal(xs[k], v)) return static_cast<int64_t>(k);
            return int64_t{-1};
          };
          auto wrap = [&](int64_t k, bool end_ok) {  // a Python index, negative from the end
            int64_t n = static_cast<int64_t>(xs.size());
            if (k < 0) k += n;
            if (end_ok) return std::clamp<int64_t>(k, 0, n);
            if (k < 0 || k >= n) in.raise(a.at, "IndexError: pop index out of range");
            return k;
          };
          if (name == "copy") return list(xs);
          if (name == "clear") xs.clear();
          if (name == "reverse") std::reverse(xs.begin(), xs.end());
          if (name == "count") {
            int64_t n = 0;
            for (const Ref& x : xs) n += in.equal(x, a.pos.at(0));
            return integer(n);
          }
          if (name == "index" || name == "remove") {
            int64_t k = position(a.pos.at(0));
            if (k < 0) in.raise(a.at, "ValueError: " + in.repr(a.pos[0]) + " is not in list");
            if (name == "index") return integer(k);
            xs.erase(xs.begin() + k);
          }
          if (name == "insert") {
            int64_t k = wrap(in.to_int(a.pos.at(0), a.at), true);
            xs.insert(xs.begin() + k, a.pos.at(1));
          }
          if (name == "pop") {
            if (xs.empty()) in.raise(a.at, "IndexError: pop from empty list");
            int64_t k = wrap(a.pos.empty() ? -1 : in.to_int(a.pos[0], a.at), false);
            Ref v = xs[static_cast<size_t>(k)];
            xs.erase(xs.begin() + k);
            return v;
          }
          return none();
        });
      if (name == "append" || name == "extend" ||
          (is_deque(obj) && (name == "appendleft" || name == "popleft")))
        return builtin("list." + name, [obj, name](Interp& in, CallArgs& a) -> Ref {
          auto& xs = obj->items;
          if (name == "popleft") {
            if (xs.empty()) in.raise(a.at, "IndexError: pop from an empty deque");
            Ref v = xs.front();
            xs.erase(xs.begin());
            return v;
          }
          if (a.pos.size() != 1) in.error(a.at, "list." + name + " takes one argument");
          if (name == "append") {
            xs.push_back(a.pos[0]);
          } else if (name == "appendleft") {
            xs.insert(xs.begin(), a.pos[0]);
          } else {
            auto more = in.to_sequence(a.pos[0], a.at);
            xs.insert(xs.end(), more.begin(), more.end());
          }
          // a full deque drops items from the end opposite the one added to
          if (is_deque(obj) && obj->i >= 0 && xs.size() > static_cast<size_t>(obj->i)) {
            if (name == "appendleft")
              xs.resize(static_cast<size_t>(obj->i));
            else
              xs.erase(xs.begin(), xs.end() - obj->i);
          }
          return none();
        });
      if (is_deque(obj) && name == "maxlen") return obj->i < 0 ? none() : integer(obj->i);
      break;
    case K::Dict:
      if (is_set(obj) && (name == "add" || name == "discard" || name == "remove" ||
                          name == "update" || name == "clear" || name == "copy"))
        return builtin("set." + name, [obj, name](Interp& in, CallArgs& a) -> Ref {
          auto find = [&](const Ref& m) {
            for (auto it = obj->dict.begin(); it != obj->dict.end(); ++it)
              if (in.equal(it->first, m)) return it;
            return obj->dict.end();
          };
          if (name == "clear") {
            obj->dict.clear();
          } else if (name == "copy") {
            auto c = std::make_shared<Value>(*obj);
            return c;
          } else if (name == "update") {
            for (const Ref& x : a.pos)
              for (const Ref& m : is_set(x) ? [&] {
                     std::vector<Ref> keys;
                     for (auto& [k, _] : x->dict) keys.push_back(k);
                     return keys;
                   }()
                                            : in.to_sequence(x, a.at))
                if (find(m) == obj->dict.end()) obj->dict.push_back({m, none()});
          } else {
            if (a.pos.size() != 1) in.error(a.at, "set." + name + " takes one argument");
            Ref m = a.pos[0];
            if (!in.equality_is_pythons(m)) in.unsupported(a.at, "a set of " + m->type_name());
            auto it = find(m);
            if (name == "add" && it == obj->dict.end()) obj->dict.push_back({m, none()});
            if (name != "add" && it != obj->dict.end()) obj->dict.erase(it);
            if (name == "remove" && it == obj->dict.end())
              in.raise_exception(a.at, "KeyError", in.repr(m));
          }
          return none();
        });
      if (name == "items" || name == "keys" || name == "values" || name == "get")
        return builtin("dict." + name, [obj, name](Interp& in, CallArgs& a) {
          std::vector<Ref> out;
          if (name == "get") {
            for (auto& [k, v] : obj->dict)
              if (in.equal(k, a.pos.at(0))) return v;
            return a.pos.size() > 1 ? a.pos[1] : none();
          }
          for (auto& [k, v] : obj->dict)
            out.push_back(name == "items" ? tuple({k, v}) : name == "keys" ? k : v);
          return list(out);
        });
      if (!is_set(obj) && (name == "clear" || name == "copy" || name == "pop" ||
                           name == "setdefault" || name == "update" || name == "popitem"))
        return builtin("dict." + name, [obj, name](Interp& in, CallArgs& a) -> Ref {
          auto find = [&](const Ref& key) {
            if (!in.equality_is_pythons(key))
              in.unsupported(a.at, "a dict key of " + key->type_name());
            for (auto it = obj->dict.begin(); it != obj->dict.end(); ++it)
              if (in.equal(it->first, key)) return it;
            return obj->dict.end();
          };
          if (name == "clear") obj->dict.clear();
          if (name == "copy") return std::make_shared<Value>(*obj);
          if (name == "popitem") {
            if (obj->dict.empty())
              in.raise_exception(a.at, "KeyError", "'popitem(): dictionary is empty'");
            auto last = obj->dict.back();
            obj->dict.pop_back();
            return tuple({last.first, last.second});
          }
          if (name == "pop" || name == "setdefault") {
            auto it = find(a.pos.at(0));
            if (it != obj->dict.end()) {
              Ref v = it->second;
              if (name == "pop") obj->dict.erase(it);
              return v;
            }
            if (name == "setdefault") {
              Ref v = a.pos.size() > 1 ? a.pos[1] : none();
              obj->dict.push_back({a.pos[0], v});
              return v;
            }
            if (a.pos.size() > 1) return a.pos[1];
            in.raise_exception(a.at, "KeyError", in.repr(a.pos[0]));
          }
          if (name == "update") in.dict_update(obj, a);
          return none();
        });
      // nn.ModuleDict / nn.ParameterDict: Module.__getattr__ finds their entries by name
      // (minGPT's `m = self.mlp; m.c_fc(x)`), after the methods above.
      if (obj->b)
        for (auto& [k, v] : obj->dict)
          if (k->kind == K::Str && k->s == name) return v;
      break;
    case K::Int:
    case K::BigInt:
    case K::Float:
    case K::Bool:  // a kernel's scalar argument is a 0-d block there: x.to(tl.float32)
      if ((name == "to" || name == "cast") && hooks_.getattr)
        return hooks_.getattr(*this, obj, name, at);
      if (Ref m = number_method(obj, name)) return m;
      if (name == "value" && obj->s == "tl.constexpr") {
        auto plain = std::make_shared<Value>(*obj);
        plain->s.clear();
        return plain;
      }
      break;
    case K::DType:    // torch.float32.is_floating_point & co.: the tensor library's
    case K::Pointer:  // ptr.dtype.element_ty: Triton's
      if (hooks_.getattr) return hooks_.getattr(*this, obj, name, at);
      break;
    case K::Function:
      return function_attribute(obj, name, at);
    default:
      break;
  }
  if (obj->kind == K::None && !name.starts_with("__"))  // None has only dunder attributes
    raise(at, "AttributeError: 'NoneType' object has no attribute '" + name + "'");
  if (!has_builtin_attribute(obj, name))  // `meta.BLOCK` in a grid lambda: meta is a dict
    raise(at, "AttributeError: '" + obj->type_name() + "' object has no attribute '" + name + "'");
  unsupported(at, "attribute '" + name + "' of " + obj->type_name());
}

// A function's attributes: those the program set (functools.wraps copies __name__ and sets
// __wrapped__, a decorator tags its wrapper), then what CPython gives every function.
Ref Interp::function_attribute(const Ref& f, const std::string& name, Span at) {
  if (f->attrs)
    if (auto it = f->attrs->find(name); it != f->attrs->end()) return available(it->second, at);
  const Function& fn = *f->fn;
  const Node& def = fn.tree->at(fn.def);
  if (name == "__name__") return string(def.kind == NodeKind::Lambda ? "<lambda>" : fn.name);
  if (name == "__module__") {
    const Env* e = fn.closure.get();
    while (e && e->parent && e->parent->parent) e = e->parent.get();  // up to the globals
    Ref n = e ? e->lookup("__name__") : nullptr;
    return n ? n : none();
  }
  if (name == "__doc__") {
    if (def.kind == NodeKind::FunctionDef) {
      const Node& body = fn.tree->at(def.kids.back());
      if (!body.kids.empty() && fn.tree->at(body.kids[0]).kind == NodeKind::ExprStmt) {
        const Node& e = fn.tree->at(fn.tree->at(body.kids[0]).kids[0]);
        if (e.kind == NodeKind::Str) return string(e.text);
      }
    }
    return none();
  }
  // CPython's AttributeError for a name no one set; its other dunders are not modelled.
  if (name == "__wrapped__" || !name.starts_with("__"))
    raise(at, "AttributeError: 'function' object has no attribute '" + name + "'");
  unsupported(at, "attribute '" + name + "' of function");
}

void Interp::setattr(const Ref& obj, const std::string& name, Ref v, Span at) {
  if (obj->kind == K::Module && obj->scope) {  // a source module's global
    obj->scope->vars[name] = std::move(v);
    return;
  }
  // A name bound on a modelled library (`if not hasattr(tl, "tanh"): tl.tanh = f`, or
  // `tl.sigmoid = _tl_sigmoid` replacing Triton's): Python binds it, and the program's later
  // reads of it get the new value (a kernel calling it calls a plain helper).
  if (obj->kind == K::Module && real_names_.contains(obj->s)) {
    (*obj->attrs)[name] = std::move(v);
    return;
  }
  if (obj->kind == K::Class && obj->b) {  // the program's own class: a class attribute
    (*obj->attrs)[name] = std::move(v);
    return;
  }
  if (obj->kind == K::Dict && obj->b && !is_set(obj)) {  // nn.ModuleDict: an entry, by name
    for (auto& [k, old] : obj->dict)
      if (k->kind == K::Str && k->s == name) {
        old = std::move(v);
        return;
      }
    obj->dict.push_back({string(name), std::move(v)});
    return;
  }
  if (obj->kind == K::Tensor && hooks_.setattr) {
    hooks_.setattr(*this, obj, name, v, at);
    return;
  }
  if (obj->kind == K::Function) {  // a function's own attributes (functools.wraps, tags)
    if (!obj->attrs) obj->attrs = std::make_shared<absl::flat_hash_map<std::string, Ref>>();
    (*obj->attrs)[name] = std::move(v);
    return;
  }
  if (obj->kind != K::Instance || obj->s == "super")
    unsupported(at, "setting attribute '" + name + "' on " + obj->type_name());
  // A modelled library object that watches its attributes (torch.backends' switches, whose
  // unset ones read through properties) defines __setattr__ as a builtin; a program's own
  // __setattr__ is not run (the value is stored).
  for (Ref c = obj->cls; c; c = c->cls)
    if (auto it = c->attrs->find("__setattr__"); it != c->attrs->end()) {
      if (it->second->kind != K::Builtin) break;
      CallArgs args;
      args.pos = {obj, string(name), std::move(v)};
      args.at = at;
      call(it->second, std::move(args));
      return;
    }
  if (Ref p = class_method(obj, name); p && p->kind == K::Module && p->s == kPropertyTag)
    unsupported(at, "assigning the property '" + name + "' (its setter is not modelled)");
  if (!obj->attrs->contains(name)) obj->attr_order.push_back(name);
  (*obj->attrs)[name] = std::move(v);
}

}  // namespace keq::python

namespace keq::python {

// enum.Enum (stdlib_models.cc marks it __keq_enum__): what EnumMeta does, without metaclasses.
bool Interp::is_enum_class(const Ref& cls) const {
  for (Ref c = cls; c && c->kind == Value::Kind::Class; c = c->cls)
    if (c->attrs->contains("__keq_enum__")) return true;
  return false;
}

// After the class body ran: each plain name the body assigns (in source order; not _sunder_,
// __dunder__, functions or properties) becomes a member, an instance with name and value.
void Interp::make_enum_members(const Ref& cls, NodeId body) {
  std::vector<Ref> names;
  for (NodeId s : node(body).kids) {
    const Node& st = node(s);
    if (st.kind != NodeKind::Assign || st.kids.size() != 2) continue;
    const Node& target = node(st.kids[0]);
    if (target.kind != NodeKind::Name) continue;
    const std::string& name = target.text;
    if (name.size() > 1 && name.front() == '_' && name.back() == '_') continue;
    auto it = cls->attrs->find(name);
    if (it == cls->attrs->end()) continue;
    const Ref& v = it->second;
    if (v->kind == Value::Kind::Function || v->kind == Value::Kind::Builtin ||
        v->kind == Value::Kind::Module)
      continue;
    auto member = std::make_shared<Value>();
    member->kind = Value::Kind::Instance;
    member->cls = cls;
    member->attrs = std::make_shared<absl::flat_hash_map<std::string, Ref>>();
    Ref name_v = string(name), value_v = v;  // one insertion at a time: a rehash moves slots
    (*member->attrs)["name"] = name_v;
    (*member->attrs)["_name_"] = name_v;
    (*member->attrs)["value"] = value_v;
    (*member->attrs)["_value_"] = value_v;
    it->second = member;
    names.push_back(string(name));
  }
  (*cls->attrs)["_member_names_"] = list(names);
}

std::vector<Ref> Interp::enum_members(const Ref& cls) const {
  std::vector<Ref> out;
  Ref names;
  for (Ref c = cls; c && !names; c = c->cls)
    if (auto it = c->attrs->find("_member_names_"); it != c->attrs->end()) names = it->second;
  if (names)
    for (const Ref& n : names->items) out.push_back(cls->attrs->at(n->s));
  return out;
}

// Cls(value) and Cls[name].
Ref Interp::enum_lookup(const Ref& cls, const Ref& key, bool by_name, Span at) {
  for (const Ref& m : enum_members(cls))
    if (equal(m->attrs->at(by_name ? "name" : "value"), key)) return m;
  if (by_name)
    raise_exception(at, "KeyError", quoted(key->kind == Value::Kind::Str ? key->s : repr(key)));
  raise_exception(
      at, "ValueError",
      (key->kind == Value::Kind::Str ? quoted(key->s) : repr(key)) + " is not a valid " + cls->s);
}

}  // namespace keq::python
