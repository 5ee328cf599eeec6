// The interpreter's expressions: names, operators, literals, comprehensions, calls and
// subscripts, and the kernel-global check Triton's compiler makes.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "frontends/python/integers.h"
#include "frontends/python/interp.h"
#include "ir/budget.h"

namespace keq::python {

namespace {
using K = Value::Kind;

// A Triton runtime scalar (value.h): an Int or Float argument not annotated tl.constexpr, what is
// computed from one, and a comparison or negation of them (a Bool with f set): a bool of the run,
// which tl.static_assert does not take as a compile-time one.
bool is_runtime_scalar(const Ref& x) {
  return ((x->kind == K::Int || x->kind == K::Float) && x->b) || (x->kind == K::Bool && x->f != 0);
}
Ref boolean_of(bool v, bool runtime) {
  Ref r = boolean(v);  // a fresh value
  if (runtime) r->f = 1;
  return r;
}

// CPython 3.11's builtins module (dir(builtins)): a name from here that keq lacks is keq's gap.
bool is_python_builtin(const std::string& name) {
  static const std::set<std::string> kNames = {"ArithmeticError",
                                               "AssertionError",
                                               "AttributeError",
                                               "BaseException",
                                               "BaseExceptionGroup",
                                               "BlockingIOError",
                                               "BrokenPipeError",
                                               "BufferError",
                                               "BytesWarning",
                                               "ChildProcessError",
                                               "ConnectionAbortedError",
                                               "ConnectionError",
                                               "ConnectionRefusedError",
                                               "ConnectionResetError",
                                               "DeprecationWarning",
                                               "EOFError",
                                               "Ellipsis",
                                               "EncodingWarning",
                                               "EnvironmentError",
                                               "Exception",
                                               "ExceptionGroup",
                                               "False",
                                               "FileExistsError",
                                               "FileNotFoundError",
                                               "FloatingPointError",
                                               "FutureWarning",
                                               "GeneratorExit",
                                               "IOError",
                                               "ImportError",
                                               "ImportWarning",
                                               "IndentationError",
                                               "IndexError",
                                               "InterruptedError",
                                               "IsADirectoryError",
                                               "KeyError",
                                               "KeyboardInterrupt",
                                               "LookupError",
                                               "MemoryError",
                                               "ModuleNotFoundError",
                                               "NameError",
                                               "None",
                                               "NotADirectoryError",
                                               "NotImplemented",
                                               "NotImplementedError",
                                               "OSError",
                                               "OverflowError",
                                               "PendingDeprecationWarning",
                                               "PermissionError",
                                               "ProcessLookupError",
                                               "RecursionError",
                                               "ReferenceError",
                                               "ResourceWarning",
                                               "RuntimeError",
                                               "RuntimeWarning",
                                               "StopAsyncIteration",
                                               "StopIteration",
                                               "SyntaxError",
                                               "SyntaxWarning",
                                               "SystemError",
                                               "SystemExit",
                                               "TabError",
                                               "TimeoutError",
                                               "True",
                                               "TypeError",
                                               "UnboundLocalError",
                                               "UnicodeDecodeError",
                                               "UnicodeEncodeError",
                                               "UnicodeError",
                                               "UnicodeTranslateError",
                                               "UnicodeWarning",
                                               "UserWarning",
                                               "ValueError",
                                               "Warning",
                                               "ZeroDivisionError",
                                               "abs",
                                               "aiter",
                                               "all",
                                               "anext",
                                               "any",
                                               "ascii",
                                               "bin",
                                               "bool",
                                               "breakpoint",
                                               "bytearray",
                                               "bytes",
                                               "callable",
                                               "chr",
                                               "classmethod",
                                               "compile",
                                               "complex",
                                               "copyright",
                                               "credits",
                                               "delattr",
                                               "dict",
                                               "dir",
                                               "divmod",
                                               "enumerate",
                                               "eval",
                                               "exec",
                                               "exit",
                                               "filter",
                                               "float",
                                               "format",
                                               "frozenset",
                                               "getattr",
                                               "globals",
                                               "hasattr",
                                               "hash",
                                               "help",
                                               "hex",
                                               "id",
                                               "input",
                                               "int",
                                               "isinstance",
                                               "issubclass",
                                               "iter",
                                               "len",
                                               "license",
                                               "list",
                                               "locals",
                                               "map",
                                               "max",
                                               "memoryview",
                                               "min",
                                               "next",
                                               "object",
                                               "oct",
                                               "open",
                                               "ord",
                                               "pow",
                                               "print",
                                               "property",
                                               "quit",
                                               "range",
                                               "repr",
                                               "reversed",
                                               "round",
                                               "set",
                                               "setattr",
                                               "slice",
                                               "sorted",
                                               "staticmethod",
                                               "str",
                                               "sum",
                                               "super",
                                               "tuple",
                                               "type",
                                               "vars",
                                               "zip",
                                               "__import__",
                                               "__build_class__",
                                               "__debug__"};
  return kNames.contains(name);
}

}  // namespace

// Triton 3.6 compiles a kernel's read of a module global only when the value is a
// tl.constexpr(...) (or a module, a function, a dtype, ...: code_generator's global_lookup): a
// plain number, string or container is a NameError at compile time, and annotating it
// `X: tl.constexpr = v` does not help. Triton's interpreter does not check it; compiling for the
// H200 does (tests/fixtures/gpu/zeros: the cases that could not run).
void Interp::check_kernel_global(const std::string& name, const Ref& v, Span at) const {
  switch (v->kind) {
    case K::Int:
    case K::Float:
    case K::Bool:
      if (v->s == "tl.constexpr") return;
      break;
    case K::Tuple:  // a namedtuple (its fields in s) or a tl.constexpr((...)) passes
      if (!v->s.empty()) return;
      break;
    default:  // strings and lists too would be refused; keq does not mark their constexprs
      return;
  }
  raise(at, "NameError: Cannot access global variable " + name +
                " from within @jit'ed function. Triton kernels can only access global "
                "variables that are instantiated as constexpr (`x = "
                "triton.language.constexpr(42)`); annotating it as constexpr is not enough");
}

Ref Interp::eval(NodeId e, const std::shared_ptr<Env>& env) {
  const Node& n = node(e);
  switch (n.kind) {
    case NodeKind::Name: {
      auto [v, scope] = env->lookup_where(n.text);
      if (!env->vars.contains(n.text))
        if (auto it = env->loop_variable_after.find(n.text); it != env->loop_variable_after.end())
          unsupported(n.span, "'" + n.text + "', the variable of the loop at line " +
                                  std::to_string(it->second) +
                                  ", read after it: Triton compiles that loop as a dynamic one, "
                                  "after which its variable does not hold its last value");
      // Found past a function scope whose body binds the name: CPython reads the local there.
      for (const Env* e = env.get(); e && e != scope; e = e->parent.get())
        if (e->locals && e->locals->contains(n.text) && !e->rebound.contains(n.text))
          raise(n.span, "UnboundLocalError: cannot access local variable '" + n.text +
                            "' where it is not associated with a value");
      if (v && scope->parent == builtins_ && hooks_.in_kernel && hooks_.in_kernel())
        check_kernel_global(n.text, v, n.span);
      if (!v) {
        if (is_python_builtin(n.text))  // CPython has it; keq does not model it
          unsupported(n.span, "the Python builtin '" + n.text + "' is not modelled");
        raise(n.span, "NameError: name '" + n.text + "' is not defined");
      }
      return available(v, n.span);
    }
    case NodeKind::Int: {
      std::string digits;
      for (char c : n.text)
        if (c != '_') digits += c;
      int base = 10;
      std::string body = digits;
      if (digits.size() > 1 && digits[0] == '0' &&
          std::isalpha(static_cast<unsigned char>(digits[1]))) {
        char b = static_cast<char>(std::tolower(static_cast<unsigned char>(digits[1])));
        base = b == 'x' ? 16 : b == 'o' ? 8 : 2;
        body = digits.substr(2);
      }
      mpz_class literal;
      if (literal.set_str(body, base) != 0) error(n.span, "invalid integer literal " + n.text);
      if (mpz_sizeinbase(literal.get_mpz_t(), 2) > kMaxIntegerBits)
        unsupported(n.span, "an integer literal of more than " + std::to_string(kMaxIntegerBits) +
                                " bits (size limit)");
      if (!mpz_fits_slong_p(literal.get_mpz_t())) return big_or_small(literal);
      long long v = literal.get_si();
      // A size written as a literal (torch.rand(n, 3, 224, 224)) is overridden by its place.
      if (!overrides_.empty()) {
        std::string key = literal_size_name(n.span);
        if (auto it = overrides_.find(key); it != overrides_.end() && it->second.size() == 1) {
          if (applied_) applied_->push_back(key);
          return integer(it->second[0]);
        }
      }
      return integer(v);
    }
    case NodeKind::Float: {
      std::string digits;
      for (char c : n.text)
        if (c != '_') digits += c;
      return floating(std::strtod(digits.c_str(), nullptr));
    }
    case NodeKind::Str:
      return string(n.text);
    case NodeKind::NamedExpr: {  // binds in the scope the expression runs in
      Ref v = eval(n.kids[1], env);
      assign(n.kids[0], v, env);
      return v;
    }
    case NodeKind::FStr: {
      std::string out;
      size_t field = 0;
      for (size_t k = 0; k < n.text.size(); ++k) {
        if (n.text[k] != kFieldStart) {
          out += n.text[k];
          continue;
        }
        size_t end = n.text.find(kFieldEnd, k);
        char conversion = n.text[k + 1];
        Ref v = eval(n.kids.at(field++), env);
        out += format_field(v, conversion == ' ' ? 0 : conversion,
                            n.text.substr(k + 2, end - k - 2), n.span);
        k = end;
      }
      return string(out);
    }
    case NodeKind::Bytes:
      unsupported(n.span, "bytes literals");
    case NodeKind::True:
      return boolean(true);
    case NodeKind::False:
      return boolean(false);
    case NodeKind::None:
      return none();
    case NodeKind::Ellipsis: {
      auto v = std::make_shared<Value>();
      v->kind = K::Ellipsis;
      return v;
    }
    case NodeKind::BinOp: {  // left before right, as CPython (C++ leaves the order of arguments
                             // open)
      Ref left = eval(n.kids[0], env);
      return binop(n.text, left, eval(n.kids[1], env), n.span);
    }
    case NodeKind::UnaryOp: {
      Ref x = eval(n.kids[0], env);
      // `not` of a boolean block in a kernel is Triton's elementwise not_ (compiled for sm_90).
      if (n.text == "not" && in_jit_code() && is_block(x, "int1") && hooks_.unop)
        return hooks_.unop(*this, "~", x, n.span);
      if (n.text == "not") return boolean_of(!truthy(x, n.span), is_runtime_scalar(x));
      if (x->kind == K::InputDependentFloat) input_dependent_use(n.span, x);
      if (x->kind == K::Tensor) {
        if (!hooks_.unop) unsupported(n.span, "tensor operator " + n.text);
        return hooks_.unop(*this, n.text, x, n.span);
      }
      if (n.text == "-" && x->kind == K::Float) return floating(-x->f);
      if (n.text == "+" && is_number(x)) return x;
      if ((n.text == "-" || n.text == "~") && is_integer(x))
        return (n.text == "-" ? integer_negate(x) : integer_invert(x)).value;
      unsupported(n.span, "operator " + n.text);
    }
    case NodeKind::BoolOp: {
      if (in_jit_code()) return kernel_bool_op(n, env);
      Ref v;
      for (NodeId k : n.kids) {
        v = eval(k, env);
        bool t = truthy(v, node(k).span);
        if (n.text == "and" ? !t : t) return v;
      }
      return v;
    }
    case NodeKind::Compare: {
      Ref left = eval(n.kids[0], env);
      std::vector<std::string> ops;
      for (size_t p = 0, q; p <= n.text.size(); p = q + 1) {
        q = n.text.find(',', p);
        if (q == std::string::npos) q = n.text.size();
        ops.push_back(n.text.substr(p, q - p));
      }
      bool runtime = false;  // of Triton runtime scalars: a runtime bool
      const Ref first = left;
      Ref second;
      auto result = [&](bool v) {
        Ref r = boolean_of(v, runtime);
        if (runtime && ops.size() == 1 && hooks_.grid_guard &&
            hooks_.grid_guard(*this, ops[0], first, second))
          r->f = kGridGuard;
        return r;
      };
      if (ops.size() > 1 && in_jit_code())
        raise(n.span,
              "UnsupportedLanguageConstruct: simultaneous multiple comparison is not supported");
      for (size_t k = 0; k < ops.size(); ++k) {
        Ref right = eval(n.kids[k + 1], env);
        if (k == 0) second = right;
        bool identity = ops[k] == "is" || ops[k] == "is not";  // never elementwise
        // A pointer block compares only through Triton's semantic, which refuses it (`b_ptr !=
        // 0` does not compile); Python's == would call it unequal.
        if (!identity && (left->kind == K::Tensor || right->kind == K::Tensor ||
                          left->kind == K::Pointer || right->kind == K::Pointer)) {
          if (ops.size() != 1) unsupported(n.span, "chained comparisons of tensors");
          return binop(ops[0], left, right, n.span);
        }
        runtime = runtime || is_runtime_scalar(left) || is_runtime_scalar(right);
        if (!compare(ops[k], left, right, n.span)) return result(false);
        left = right;
      }
      return result(true);
    }
    case NodeKind::Call:
      return eval_call(e, env);
    case NodeKind::Attribute:
      return getattr(eval(n.kids[0], env), n.text, n.span);
    case NodeKind::Subscript: {
      Ref object = eval(n.kids[0], env);
      return eval_subscript(object, eval(n.kids[1], env), n.span);
    }
    case NodeKind::Slice: {
      auto v = std::make_shared<Value>();
      v->kind = K::Slice;
      for (NodeId k : n.kids) v->items.push_back(k == kNoNode ? none() : eval(k, env));
      return v;
    }
    case NodeKind::Tuple:
    case NodeKind::List: {
      std::vector<Ref> items;
      for (NodeId k : n.kids) {
        if (node(k).kind == NodeKind::Starred) {
          auto more = to_sequence(eval(node(k).kids[0], env), node(k).span);
          items.insert(items.end(), more.begin(), more.end());
        } else {
          items.push_back(eval(k, env));
        }
      }
      return n.kind == NodeKind::Tuple ? tuple(items) : list(items);
    }
    case NodeKind::Dict: {
      auto v = std::make_shared<Value>();
      v->kind = K::Dict;
      for (size_t k = 0; k + 1 < n.kids.size(); k += 2) {
        if (n.kids[k] == kNoNode) {
          Ref m = eval(n.kids[k + 1], env);
          if (m->kind != K::Dict) error(n.span, "** of a non-dict");
          v->dict.insert(v->dict.end(), m->dict.begin(), m->dict.end());
        } else {
          v->dict.push_back({eval(n.kids[k], env), eval(n.kids[k + 1], env)});
        }
      }
      return v;
    }
    case NodeKind::Lambda: {
      auto fn = std::make_shared<Function>();
      fn->name = "<lambda>";
      fn->tree = tree_;
      fn->def = e;
      fn->closure = env;
      for (size_t k = 0; k + 1 < n.kids.size(); ++k)
        fn->defaults.push_back(
            node(n.kids[k]).kids[1] == kNoNode ? nullptr : eval(node(n.kids[k]).kids[1], env));
      auto v = std::make_shared<Value>();
      v->kind = K::Function;
      v->s = "<lambda>";
      v->fn = fn;
      return v;
    }
    case NodeKind::Yield:
      return eval_yield(n, env);
    case NodeKind::IfExp: {
      Ref c = eval(n.kids[1], env);
      if (in_jit_code() && is_block(c))  // measured: sm_90's scf.if takes an i1
        raise(n.span,
              "RuntimeError: error encountered during parsing ('scf.if' op operand #0 must be "
              "1-bit signless integer, but the condition is a block)");
      bool taken = truthy(c, n.span);
      if (hooks_.static_branch) hooks_.static_branch(*this, node(n.kids[1]).span, taken);
      return taken ? eval(n.kids[0], env) : eval(n.kids[2], env);
    }
    case NodeKind::ListComp:
    case NodeKind::GenExp:
    case NodeKind::DictComp:
      return comprehension(e, env);
    case NodeKind::SetComp:
      return make_set(to_sequence(comprehension(e, env), n.span), n.span);
    case NodeKind::Set: {
      std::vector<Ref> members;
      for (NodeId k : n.kids) members.push_back(eval(k, env));
      return make_set(members, n.span);
    }
    default:
      unsupported(n.span, "the expression " + std::string(kind_name(n.kind)));
  }
}

Ref Interp::comprehension(NodeId e, const std::shared_ptr<Env>& env) {
  const Node& n = node(e);
  auto scope = std::make_shared<Env>();
  scope->parent = env;
  std::vector<Ref> out;
  bool is_dict = n.kind == NodeKind::DictComp;  // kids: key, value, clauses...
  auto dict = std::make_shared<Value>();
  dict->kind = K::Dict;
  std::function<void(size_t)> loop = [&](size_t clause) {
    if (clause == n.kids.size()) {
      if (!is_dict) {
        out.push_back(eval(n.kids[0], scope));
        return;
      }
      Ref key = eval(n.kids[0], scope), value = eval(n.kids[1], scope);
      for (auto& [k, v] : dict->dict)
        if (equal(k, key)) {
          v = value;
          return;
        }
      dict->dict.push_back({key, value});
      return;
    }
    const Node& c = node(n.kids[clause]);
    for (const Ref& x : to_sequence(eval(c.kids[1], scope), c.span)) {
      assign(c.kids[0], x, scope);
      bool ok = true;
      for (size_t k = 2; k < c.kids.size() && ok; ++k) ok = truthy(eval(c.kids[k], scope), c.span);
      if (ok) loop(clause + 1);
    }
  };
  loop(is_dict ? 2 : 1);
  return is_dict ? Ref(dict) : list(out);
}

// A function or class through its decorators, the nearest first, as CPython applies them.
Ref Interp::decorate(NodeId decorators, Ref v, const std::shared_ptr<Env>& env) {
  const auto& decos = node(decorators).kids;
  for (auto it = decos.rbegin(); it != decos.rend(); ++it) {
    CallArgs a;
    a.pos.push_back(v);
    a.at = node(*it).span;
    v = call(eval(*it, env), a);
  }
  return v;
}

Ref Interp::eval_call(NodeId e, const std::shared_ptr<Env>& env) {
  const Node& n = node(e);
  // locals() and globals() need the caller's scope: a snapshot of it as a dict (names sorted;
  // CPython's order is insertion order, which keq's scopes do not keep).
  if (const Node& callee = node(n.kids[0]);
      n.kids.size() == 1 && callee.kind == NodeKind::Name &&
      (callee.text == "locals" || callee.text == "globals") &&
      (env->lookup_where(callee.text).second == builtins_.get() ||
       !env->lookup_where(callee.text).first)) {
    const Env* scope = env.get();
    if (callee.text == "globals")
      while (scope->parent && scope->parent.get() != builtins_.get()) scope = scope->parent.get();
    std::map<std::string, Ref> sorted(scope->vars.begin(), scope->vars.end());
    auto d = std::make_shared<Value>();
    d->kind = K::Dict;
    for (auto& [k, v] : sorted) d->dict.push_back({string(k), v});
    return d;
  }
  Ref f = eval(n.kids[0], env);
  CallArgs args;
  args.at = n.span;
  for (size_t k = 1; k < n.kids.size(); ++k) {
    const Node& a = node(n.kids[k]);
    if (a.kind == NodeKind::Starred) {
      auto more = to_sequence(eval(a.kids[0], env), a.span);
      args.pos.insert(args.pos.end(), more.begin(), more.end());
    } else if (a.kind == NodeKind::Keyword) {
      args.kw.push_back({a.text, eval(a.kids[0], env)});
    } else if (a.kind == NodeKind::DoubleStarred) {
      Ref d = eval(a.kids[0], env);
      if (d->kind != K::Dict) error(a.span, "** of a non-dict");
      for (auto& [k, v] : d->dict) {
        if (k->kind != K::Str) error(a.span, "keywords must be strings");
        args.kw.push_back({k->s, v});
      }
    } else {
      args.pos.push_back(eval(n.kids[k], env));
    }
  }
  return call(f, std::move(args));
}

Ref Interp::eval_subscript(const Ref& v, const Ref& index, Span at) {
  if (v->kind == K::Module && v->s.rfind("typing.", 0) == 0) return v;  // Optional[int]: a type
  if (v->kind == K::Class && is_enum_class(v)) return enum_lookup(v, index, true, at);
  if (v->kind == K::Tensor || (v->kind == K::Pointer && hooks_.in_kernel && hooks_.in_kernel())) {
    if (!hooks_.subscript) unsupported(at, "tensor indexing");
    return hooks_.subscript(*this, v, index, at);
  }
  if (v->kind == K::Tuple || v->kind == K::List) {
    int64_t n = static_cast<int64_t>(v->items.size());
    if (index->kind == K::Int || index->kind == K::Bool) {
      int64_t i = index->i < 0 ? index->i + n : index->i;
      if (i < 0 || i >= n) raise(at, "IndexError: " + v->type_name() + " index out of range");
      return v->items[i];
    }
    if (index->kind == K::Slice) {
      auto get = [&](int k, int64_t dflt) {
        return index->items[k]->kind == K::None ? dflt : to_int(index->items[k], at);
      };
      // slice.indices: defaults and clamping by the sign of the step, as CPython.
      int64_t step = get(2, 1);
      if (step == 0) raise_exception(at, "ValueError", "slice step cannot be zero");
      bool up = step > 0;
      int64_t lo = get(0, up ? 0 : n - 1), hi = get(1, up ? n : -1);
      auto fix = [&](int64_t& x, bool given) {
        if (given && x < 0) x += n;
        x = up ? std::clamp<int64_t>(x, 0, n) : std::clamp<int64_t>(x, -1, n - 1);
      };
      fix(lo, index->items[0]->kind != K::None);
      fix(hi, index->items[1]->kind != K::None);
      std::vector<Ref> items;
      for (int64_t i = lo; up ? i < hi : i > hi; i += step) items.push_back(v->items[i]);
      return v->kind == K::Tuple ? tuple(items) : list(items);
    }
  }
  if (v->kind == K::Str) {  // s[i], s[a:b:c]: as a list of its characters, joined again
    std::vector<Ref> chars;
    for (char c : v->s) {
      if (static_cast<unsigned char>(c) >= 0x80)
        unsupported(at, "indexing a str past ASCII (Python counts code points)");
      chars.push_back(string(std::string(1, c)));
    }
    int64_t n = static_cast<int64_t>(chars.size());
    if ((index->kind == K::Int || index->kind == K::Bool) && (index->i >= n || index->i < -n))
      raise(at, "IndexError: string index out of range");
    Ref part = eval_subscript(list(chars), index, at);
    if (part->kind == K::Str) return part;
    std::string joined;
    for (const Ref& c : part->items) joined += c->s;
    return string(joined);
  }
  if (v->kind == K::Dict) {
    bool certain = equality_is_pythons(index);
    for (auto& [k, val] : v->dict) {
      if (equal(k, index)) return val;
      certain = certain && equality_is_pythons(k);
    }
    if (!certain) unsupported(at, "a dict lookup keq cannot decide (keys compared by value)");
    // defaultdict.__missing__: the factory's value, stored under the key.
    if (v->s == kDefaultDictMarker && !v->items.empty() && v->items[0]->kind != K::None) {
      CallArgs none_given;
      none_given.at = at;
      Ref made = call(v->items[0], none_given);
      v->dict.push_back({index, made});
      return made;
    }
    raise(at, "KeyError: " + repr(index));
  }
  if (v->kind == K::Instance && v->s != "super") {  // obj[index] calls obj.__getitem__(index)
    if (Ref getitem = class_method(v, "__getitem__")) {
      CallArgs args;
      args.at = at;
      args.pos = {v, index};
      return call(getitem, args);
    }
  }
  if (v->kind == K::Function || v->kind == K::Builtin || v->kind == K::Instance) {
    // kernel[grid]: a Triton launch. Modelled by the Triton frontend (a later issue).
    unsupported(at, "subscripting " + v->type_name() + " (a Triton kernel launch?)");
  }
  unsupported(at, "subscript of " + v->type_name());
}

// `and` / `or` in a kernel as Triton's code generator (visit_BoolOp) evaluates them: every
// operand, a constexpr one short-circuiting, the others combined by logical_and/logical_or from
// the last pair back. Where a boolean block takes part the result is elementwise (compiled for
// sm_90); without one, the operands are concrete and Python's answer is the same.
Ref Interp::kernel_bool_op(const Node& n, const std::shared_ptr<Env>& env) {
  const bool is_and = n.text == "and";
  std::vector<Ref> values;
  Ref v;
  for (NodeId k : n.kids) {
    v = eval(k, env);
    if (v->kind != K::Tensor && !is_runtime_scalar(v)) {
      bool t = truthy(v, node(k).span);
      if (is_and ? !t : t) return v;
      continue;
    }
    values.push_back(v);
  }
  if (values.empty()) return v;
  if (std::none_of(values.begin(), values.end(), [&](const Ref& x) { return is_block(x); })) {
    for (const Ref& x : values)
      if (bool t = truthy(x, n.span); is_and ? !t : t) return x;
    return values.back();
  }
  for (const Ref& x : values)
    if (x->kind == K::Tensor && !is_block(x, "int1") && is_block(x))
      unsupported(n.span, std::string("`") + n.text + "` of a block that is not boolean");
  while (values.size() >= 2) {
    Ref rhs = values.back();
    values.pop_back();
    values.back() = binop(is_and ? "&" : "|", values.back(), rhs, n.span);
  }
  return values[0];
}

}  // namespace keq::python
