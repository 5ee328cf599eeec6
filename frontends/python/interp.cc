#include "frontends/python/interp.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "absl/strings/str_split.h"
#include "frontends/python/integers.h"
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
constexpr int64_t kMaxLoopTrips = 10'000'000;

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

Interp::Interp(ir::TermStore& store) : store_(store) {
  install_builtins();
}

std::string Interp::where(Span at) const {
  return (tree_ ? tree_->file : std::string("?")) + ":" + std::to_string(at.line) + ":" +
         std::to_string(at.col);
}
void Interp::unsupported(Span at, const std::string& what) const {
  throw Unsupported(where(at) + ": " + what);
}
void Interp::error(Span at, const std::string& what) const {
  throw ProgramError(where(at) + ": " + what);
}

void Interp::register_module(const std::string& name, Ref module) {
  modules_[name] = std::move(module);
}

std::shared_ptr<Env> Interp::run(
    const Tree& tree, const absl::flat_hash_map<std::string, std::vector<int64_t>>& overrides,
    std::vector<std::string>* applied) {
  tree_ = &tree;
  overrides_ = overrides;
  applied_ = applied;
  auto env = std::make_shared<Env>();
  env->parent = builtins_;
  module_env_ = env.get();
  env->vars["__name__"] = string("keq");  // not "__main__": main blocks are skipped
  for (NodeId s : node(tree.root).kids) exec(s, env);
  applied_ = nullptr;  // the caller's list lives for this call only
  return env;
}

// ---- statements --------------------------------------------------------------------------

Interp::Flow Interp::exec_block(NodeId block, const std::shared_ptr<Env>& env) {
  for (NodeId s : node(block).kids) {
    Flow f = exec(s, env);
    if (f != Flow::Normal) return f;
  }
  return Flow::Normal;
}

Interp::Flow Interp::exec_else(const Node& n, const std::shared_ptr<Env>& env) {
  if (n.kids[2] == kNoNode) return Flow::Normal;
  return node(n.kids[2]).kind == NodeKind::If ? exec(n.kids[2], env) : exec_block(n.kids[2], env);
}

// Both branches run from the same variables; what they leave different is merged with the
// tensor library's select. Leaving the block early cannot be merged that way.
Interp::Flow Interp::symbolic_if(const Node& n, const Ref& cond, const std::shared_ptr<Env>& env) {
  Span at = node(n.kids[0]).span;
  auto before = env->vars;
  hooks_.enter_branch(*this, cond, false, at);
  Flow taken = exec_block(n.kids[1], env);
  hooks_.leave_branch();
  auto then_vars = std::move(env->vars);
  env->vars = std::move(before);
  hooks_.enter_branch(*this, cond, true, at);
  Flow other = exec_else(n, env);
  hooks_.leave_branch();
  if (taken != Flow::Normal || other != Flow::Normal)
    unsupported(at, "return, break or continue under a condition that depends on loaded data");
  for (auto& [name, a] : then_vars) {
    auto it = env->vars.find(name);
    if (it == env->vars.end() || it->second == a) continue;
    it->second = hooks_.select(*this, cond, a, it->second, at);
  }
  // A name only one branch defined is not defined after the `if` (Triton rejects its use).
  absl::erase_if(env->vars, [&](const auto& kv) { return !then_vars.contains(kv.first); });
  return Flow::Normal;
}

Interp::Flow Interp::exec(NodeId s, const std::shared_ptr<Env>& env) {
  ir::Budget::tick();
  const Node& n = node(s);
  switch (n.kind) {
    case NodeKind::ExprStmt:
      eval(n.kids[0], env);
      return Flow::Normal;
    case NodeKind::Assign: {
      Ref v = eval(n.kids.back(), env);
      for (size_t k = 0; k + 1 < n.kids.size(); ++k) assign(n.kids[k], v, env);
      return Flow::Normal;
    }
    case NodeKind::AugAssign: {
      Ref target = eval(n.kids[0], env), value = eval(n.kids[1], env);
      bool host_tensor = target->kind == K::Tensor && hooks_.augassign &&
                         !(hooks_.in_kernel && hooks_.in_kernel());
      Ref v = host_tensor ? hooks_.augassign(*this, n.text, target, value, n.span)
                          : binop(n.text, target, value, n.span);
      assign(n.kids[0], v, env);
      return Flow::Normal;
    }
    case NodeKind::AnnAssign:
      if (env->class_body && node(n.kids[0]).kind == NodeKind::Name)
        env->annotated.push_back(node(n.kids[0]).text);
      if (n.kids[2] != kNoNode) assign(n.kids[0], eval(n.kids[2], env), env);
      return Flow::Normal;
    case NodeKind::Return:
      return_value_ = n.kids[0] == kNoNode ? none() : eval(n.kids[0], env);
      return Flow::Return;
    case NodeKind::If: {
      Ref c = eval(n.kids[0], env);
      Span at = node(n.kids[0]).span;
      if (c->kind == K::Tensor && hooks_.truth && hooks_.select && hooks_.truth(*this, c, at) < 0)
        return symbolic_if(n, c, env);
      if (truthy(c, at)) return exec_block(n.kids[1], env);
      return exec_else(n, env);
    }
    case NodeKind::For: {
      std::vector<Ref> seq = to_sequence(eval(n.kids[1], env), node(n.kids[1]).span);
      size_t trips = 0;
      for (const Ref& x : seq) {
        assign(n.kids[0], x, env);
        ++trips;
        Flow f = exec_block(n.kids[2], env);
        if (f == Flow::Break || f == Flow::Return) {
          if (hooks_.loop_ran) hooks_.loop_ran(*this, n.span, trips);
          return f == Flow::Break ? Flow::Normal : f;
        }
      }
      if (hooks_.loop_ran) hooks_.loop_ran(*this, n.span, trips);
      return n.kids[3] == kNoNode ? Flow::Normal : exec_block(n.kids[3], env);
    }
    case NodeKind::While: {
      int64_t trips = 0;
      auto ran = [&] {
        if (hooks_.loop_ran) hooks_.loop_ran(*this, n.span, static_cast<size_t>(trips));
      };
      while (truthy(eval(n.kids[0], env), n.span)) {
        if (++trips > kMaxLoopTrips)
          unsupported(n.span, "a while loop that ran over 10,000,000 trips");
        Flow f = exec_block(n.kids[1], env);
        if (f == Flow::Break || f == Flow::Return) {
          ran();
          return f == Flow::Break ? Flow::Normal : f;
        }
      }
      ran();
      return n.kids[2] == kNoNode ? Flow::Normal : exec_block(n.kids[2], env);
    }
    case NodeKind::Break:
      return Flow::Break;
    case NodeKind::Continue:
      return Flow::Continue;
    case NodeKind::Pass:
      return Flow::Normal;
    case NodeKind::Assert:
      if (!truthy(eval(n.kids[0], env), n.span)) {
        ProgramError e(
            where(n.span) + ": AssertionError" +
                (n.kids[1] == kNoNode ? std::string() : ": " + repr(eval(n.kids[1], env))),
            true, true);
        e.classes = exception_chain("AssertionError");
        throw e;
      }
      return Flow::Normal;
    case NodeKind::Raise:
      exec_raise(n, env);
    case NodeKind::FunctionDef: {
      auto fn = std::make_shared<Function>();
      fn->name = n.text;
      fn->tree = tree_;
      fn->def = s;
      fn->closure = env;
      for (NodeId p : node(n.kids[1]).kids)
        fn->defaults.push_back(node(p).kids[1] == kNoNode ? nullptr : eval(node(p).kids[1], env));
      Ref v = std::make_shared<Value>();
      v->kind = K::Function;
      v->s = n.text;
      v->fn = fn;
      env->vars[n.text] = decorate(n.kids[0], v, env);
      return Flow::Normal;
    }
    case NodeKind::ClassDef: {
      const auto& bases = node(n.kids[1]).kids;
      if (bases.size() > 1) unsupported(n.span, "a class with several base classes");
      Ref base = bases.empty() ? builtins_->vars.at("object")
                               : eval(bases[0], env);  // class A: is class A(object):
      if (base && base->kind != K::Class) unsupported(n.span, "a base class that is not a class");
      auto body_env = std::make_shared<Env>();
      body_env->parent = env;
      body_env->class_body = true;
      exec_block(n.kids[2], body_env);
      // Python: methods see the enclosing scope, not the class body's names.
      for (auto& [name, v] : body_env->vars)
        if (v->kind == K::Function && v->fn->closure == body_env) v->fn->closure = env;
      auto attrs = std::make_shared<absl::flat_hash_map<std::string, Ref>>(body_env->vars.begin(),
                                                                           body_env->vars.end());
      body_env->vars.clear();
      // Annotations are not evaluated (as under `from __future__ import annotations`).
      if (!body_env->annotated.empty()) {
        auto annotations = std::make_shared<Value>();
        annotations->kind = K::Dict;
        for (const std::string& name : body_env->annotated)
          annotations->dict.push_back({string(name), string("annotation")});
        (*attrs)["__annotations__"] = annotations;
      }
      Ref cls = make_class(n.text, base, attrs);
      cls->b = true;  // the program's own class, not keq's model of a library's
      env->vars[n.text] = decorate(n.kids[0], cls, env);
      return Flow::Normal;
    }
    case NodeKind::Import:
      for (NodeId a : n.kids) {
        const Node& alias = node(a);
        Ref m = module_value(alias.text, alias.span);
        if (!alias.text2.empty()) {
          env->vars[alias.text2] = m;
        } else {
          std::string top = alias.text.substr(0, alias.text.find('.'));
          env->vars[top] = module_value(top, alias.span);
        }
      }
      return Flow::Normal;
    case NodeKind::ImportFrom: {
      std::string from = n.text[0] == '.' ? resolve_relative(n.text, n.span) : n.text;
      Ref m = module_value(from, n.span);
      for (NodeId a : n.kids) {
        const Node& alias = node(a);
        if (alias.text == "*") {
          if (!m->scope) {
            for (auto& [k, v] : *m->attrs) env->vars[k] = v;
          } else {
            for (auto& [k, v] : m->scope->vars)
              if (k[0] != '_') env->vars[k] = v;
          }
          continue;
        }
        env->vars[alias.text2.empty() ? alias.text : alias.text2] =
            import_name(m, from, alias.text, alias.span);
      }
      return Flow::Normal;
    }
    case NodeKind::With:
      return exec_with(n, env);
    case NodeKind::Try:
      return exec_try(n, env);
    case NodeKind::Del:
      for (NodeId t : n.kids) {
        if (node(t).kind != NodeKind::Name) unsupported(n.span, "del of anything but a name");
        binding_scope(*env, node(t).text).vars.erase(node(t).text);
      }
      return Flow::Normal;
    case NodeKind::Global:
    case NodeKind::Nonlocal:
      declare_rebound(n, *env);
      return Flow::Normal;
    default:
      unsupported(n.span, "the statement " + std::string(kind_name(n.kind)));
  }
}

// `global a, b` binds the names in the module's scope (the one whose parent is the builtins);
// `nonlocal a` in the nearest enclosing function scope that has it (class bodies and the
// module's scope are skipped, as CPython does). Declared at module level, global changes nothing.
void Interp::declare_rebound(const Node& n, Env& env) {
  bool global = n.kind == NodeKind::Global;
  for (const std::string& name : std::vector<std::string>(absl::StrSplit(n.text, ','))) {
    Env* target = nullptr;
    if (global) {
      target = &env;
      while (target->parent && target->parent != builtins_) target = target->parent.get();
    } else {
      for (Env* e = env.parent.get(); e && e->parent && e->parent != builtins_; e = e->parent.get())
        if (!e->class_body && e->vars.contains(name)) {
          target = e;
          break;
        }
      if (!target) raise(n.span, "SyntaxError: no binding for nonlocal '" + name + "' found");
    }
    if (target != &env) env.rebound[name] = target;
  }
}

std::shared_ptr<const absl::flat_hash_set<std::string>> Interp::local_names(NodeId def) {
  auto key = std::make_pair(tree_, def);
  if (auto it = local_names_.find(key); it != local_names_.end()) return it->second;
  absl::flat_hash_set<std::string> bound, declared;
  collect_bound(node(def).kids.back(), bound, declared);
  for (const std::string& name : declared) bound.erase(name);
  auto names = std::make_shared<const absl::flat_hash_set<std::string>>(std::move(bound));
  local_names_.emplace(key, names);
  return names;
}

void Interp::collect_targets(NodeId target, absl::flat_hash_set<std::string>& bound) const {
  if (target == kNoNode) return;
  const Node& t = node(target);
  if (t.kind == NodeKind::Name) bound.insert(t.text);
  if (t.kind == NodeKind::Tuple || t.kind == NodeKind::List || t.kind == NodeKind::Starred)
    for (NodeId k : t.kids) collect_targets(k, bound);
}

// Statements only: expressions bind nothing here (keq has no walrus), and nested defs, classes,
// lambdas and comprehensions are scopes of their own.
void Interp::collect_bound(NodeId stmt, absl::flat_hash_set<std::string>& bound,
                           absl::flat_hash_set<std::string>& declared) const {
  if (stmt == kNoNode) return;
  const Node& n = node(stmt);
  switch (n.kind) {
    case NodeKind::Block:
      for (NodeId k : n.kids) collect_bound(k, bound, declared);
      return;
    case NodeKind::Assign:
      for (size_t k = 0; k + 1 < n.kids.size(); ++k) collect_targets(n.kids[k], bound);
      return;
    case NodeKind::AugAssign:
    case NodeKind::AnnAssign:
      collect_targets(n.kids[0], bound);
      return;
    case NodeKind::Del:
      for (NodeId k : n.kids) collect_targets(k, bound);
      return;
    case NodeKind::For:
      collect_targets(n.kids[0], bound);
      for (size_t k = 2; k < n.kids.size(); ++k) collect_bound(n.kids[k], bound, declared);
      return;
    case NodeKind::If:
    case NodeKind::While:
      for (size_t k = 1; k < n.kids.size(); ++k) collect_bound(n.kids[k], bound, declared);
      return;
    case NodeKind::With:
      for (size_t k = 0; k + 1 < n.kids.size(); ++k)
        if (node(n.kids[k]).kids.size() > 1) collect_targets(node(n.kids[k]).kids[1], bound);
      collect_bound(n.kids.back(), bound, declared);
      return;
    case NodeKind::Try:
      for (NodeId k : n.kids) {
        if (k == kNoNode) continue;
        const Node& part = node(k);
        if (part.kind != NodeKind::ExceptHandler) {
          collect_bound(k, bound, declared);
          continue;
        }
        if (!part.text.empty()) bound.insert(part.text);
        collect_bound(part.kids.back(), bound, declared);
      }
      return;
    case NodeKind::FunctionDef:
    case NodeKind::ClassDef:
      bound.insert(n.text);
      return;
    case NodeKind::Import:
    case NodeKind::ImportFrom:
      for (NodeId a : n.kids) {
        const Node& alias = node(a);
        if (alias.text == "*") continue;
        bound.insert(!alias.text2.empty()         ? alias.text2
                     : n.kind == NodeKind::Import ? alias.text.substr(0, alias.text.find('.'))
                                                  : alias.text);
      }
      return;
    case NodeKind::Global:
    case NodeKind::Nonlocal:
      for (const std::string& name : std::vector<std::string>(absl::StrSplit(n.text, ',')))
        declared.insert(name);
      return;
    default:
      return;
  }
}

Env& Interp::binding_scope(Env& env, const std::string& name) {
  auto it = env.rebound.find(name);
  return it == env.rebound.end() ? env : *it->second;
}

void Interp::assign(NodeId target, Ref v, const std::shared_ptr<Env>& env) {
  const Node& t = node(target);
  switch (t.kind) {
    case NodeKind::Name:
      if (Env& scope = binding_scope(*env, t.text); &scope != env.get()) {
        scope.vars[t.text] = std::move(v);
        return;
      }
      if (env.get() == module_env_)
        if (auto it = overrides_.find(t.text); it != overrides_.end()) {
          bool int_tuple = v->kind == K::Tuple || v->kind == K::List;
          for (const Ref& x : v->items) int_tuple = int_tuple && x->kind == K::Int;
          if (v->kind == K::Int && it->second.size() == 1) {
            v = integer(it->second[0]);
          } else if (int_tuple) {
            std::vector<Ref> items;
            for (int64_t x : it->second) items.push_back(integer(x));
            v = v->kind == K::Tuple ? tuple(items) : list(items);
          } else {
            error(t.span, "--dims: '" + t.text + "' is " + v->type_name() +
                              ", not an integer constant or a tuple of them");
          }
          if (applied_) applied_->push_back(t.text);
        }
      env->vars[t.text] = std::move(v);
      return;
    case NodeKind::Attribute:
      setattr(eval(t.kids[0], env), t.text, std::move(v), t.span);
      return;
    case NodeKind::Tuple:
    case NodeKind::List: {
      std::vector<Ref> items = to_sequence(v, t.span);
      size_t star = t.kids.size();
      for (size_t k = 0; k < t.kids.size(); ++k)
        if (node(t.kids[k]).kind == NodeKind::Starred) star = k;
      if (star == t.kids.size()) {
        if (items.size() != t.kids.size())
          error(t.span, "cannot unpack " + std::to_string(items.size()) + " values into " +
                            std::to_string(t.kids.size()));
        for (size_t k = 0; k < items.size(); ++k) assign(t.kids[k], items[k], env);
        return;
      }
      size_t after = t.kids.size() - star - 1;
      if (items.size() < star + after) error(t.span, "not enough values to unpack");
      for (size_t k = 0; k < star; ++k) assign(t.kids[k], items[k], env);
      assign(node(t.kids[star]).kids[0], list({items.begin() + star, items.end() - after}), env);
      for (size_t k = 0; k < after; ++k)
        assign(t.kids[star + 1 + k], items[items.size() - after + k], env);
      return;
    }
    case NodeKind::Subscript: {
      Ref obj = eval(t.kids[0], env);
      Ref idx = eval(t.kids[1], env);
      if (obj->kind == K::List && idx->kind == K::Int) {
        int64_t i = idx->i < 0 ? idx->i + static_cast<int64_t>(obj->items.size()) : idx->i;
        if (i < 0 || i >= static_cast<int64_t>(obj->items.size()))
          raise(t.span, "IndexError: list assignment index out of range");
        obj->items[i] = std::move(v);
        return;
      }
      if (obj->kind == K::Dict) {
        for (auto& [k, val] : obj->dict)
          if (equal(k, idx)) {
            val = std::move(v);
            return;
          }
        obj->dict.push_back({idx, std::move(v)});
        return;
      }
      if (obj->kind == K::Tensor && hooks_.setitem && !(hooks_.in_kernel && hooks_.in_kernel())) {
        hooks_.setitem(*this, obj, idx, v, t.span);
        return;
      }
      unsupported(t.span, "item assignment into " + obj->type_name());
    }
    default:
      unsupported(t.span, "assignment to " + std::string(kind_name(t.kind)));
  }
}

// ---- expressions -------------------------------------------------------------------------

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
    case NodeKind::FStr: {
      for (NodeId k : n.kids)
        eval(k, env);  // evaluated for their errors; the text stays a template
      return string(n.text);
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
      for (size_t k = 0; k < ops.size(); ++k) {
        Ref right = eval(n.kids[k + 1], env);
        bool identity = ops[k] == "is" || ops[k] == "is not";  // never elementwise
        if (!identity && (left->kind == K::Tensor || right->kind == K::Tensor)) {
          if (ops.size() != 1) unsupported(n.span, "chained comparisons of tensors");
          return binop(ops[0], left, right, n.span);
        }
        runtime = runtime || is_runtime_scalar(left) || is_runtime_scalar(right);
        if (!compare(ops[k], left, right, n.span)) return boolean_of(false, runtime);
        left = right;
      }
      return boolean_of(true, runtime);
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
    case NodeKind::IfExp:
      return truthy(eval(n.kids[1], env), n.span) ? eval(n.kids[0], env) : eval(n.kids[2], env);
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
      int64_t step = get(2, 1);
      if (step != 1) unsupported(at, "slices with a step over lists");
      int64_t lo = get(0, 0), hi = get(1, n);
      if (lo < 0) lo += n;
      if (hi < 0) hi += n;
      lo = std::clamp<int64_t>(lo, 0, n), hi = std::clamp<int64_t>(hi, 0, n);
      std::vector<Ref> items(v->items.begin() + lo, v->items.begin() + std::max(lo, hi));
      return v->kind == K::Tuple ? tuple(items) : list(items);
    }
  }
  if (v->kind == K::Dict) {
    bool certain = equality_is_pythons(index);
    for (auto& [k, val] : v->dict) {
      if (equal(k, index)) return val;
      certain = certain && equality_is_pythons(k);
    }
    if (!certain) unsupported(at, "a dict lookup keq cannot decide (keys compared by value)");
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

}  // namespace keq::python
