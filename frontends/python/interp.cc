// The interpreter: running a module, its statements and assignment (expressions are in
// interp_exprs.cc, scoping in scopes.cc, calls and attributes in interp_objects.cc).
#include "frontends/python/interp.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "frontends/python/integers.h"
#include "ir/budget.h"

namespace keq::python {

namespace {
using K = Value::Kind;

constexpr int64_t kMaxLoopTrips = 10'000'000;

// What a kernel's local holds after `x = v` (or `x += v`): Triton 3.6 makes every value but a
// tensor, a dtype or a tuple (whose items it converts alike) a tensor, so an int that was a
// constexpr is a runtime scalar there (`B = BLOCK // 4` then `tl.arange(0, B)` does not
// compile: "arange's arguments must be of type tl.constexpr"). Only `x: tl.constexpr = v`
// keeps it a constexpr. Floats stay as they are (keq rounds them where they meet fp32 tensors).
Ref kernel_local(const Ref& v) {
  if (v->kind == K::Int && !v->b) {
    Ref r = integer(v->i);
    r->b = true;
    return r;
  }
  if (v->kind != K::Tuple) return v;
  auto items = v->items;
  bool changed = false;
  for (Ref& item : items) {
    Ref local = kernel_local(item);
    changed = changed || local != item;
    item = local;
  }
  return changed ? tuple(std::move(items)) : v;
}

// The first node under `n` of kind `kind`, not looking into functions and lambdas (nor into
// nested ifs where `into_ifs` is false); kNoNode if none.
NodeId find_kind(const Tree& tree, NodeId n, NodeKind kind, bool into_ifs) {
  if (n == kNoNode) return kNoNode;
  const Node& node = tree.at(n);
  if (node.kind == kind) return n;
  if (node.kind == NodeKind::FunctionDef || node.kind == NodeKind::Lambda ||
      node.kind == NodeKind::ClassDef || (!into_ifs && node.kind == NodeKind::If))
    return kNoNode;
  for (NodeId k : node.kids)
    if (NodeId found = find_kind(tree, k, kind, into_ifs); found != kNoNode) return found;
  return kNoNode;
}

}  // namespace

bool Interp::is_block(const Ref& v, const std::string& element) const {
  if (!hooks_.kernel_type) return false;
  std::optional<KernelType> t = hooks_.kernel_type(v);
  // A block of one element is a scalar to an if (Triton unsplats it).
  return t && t->block && t->numel > 1 && (element.empty() || t->element == element);
}

Interp::Interp(ir::TermStore& store) : store_(store) {
  install_builtins();
}

std::string Interp::where(Span at) const {
  if (is_model_tree(tree_) && !model_callers_.empty()) return model_callers_.back();
  return (tree_ ? tree_->file : std::string("?")) + ":" + std::to_string(at.line) + ":" +
         std::to_string(at.col);
}
void Interp::unsupported(Span at, const std::string& what) const {
  throw Unsupported(where(at) + ": " + what);
}
void Interp::size_limit(Span at, const std::string& what) const {
  throw Unsupported(where(at) + ": " + what, true);
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

// A dynamic if in a kernel: after it, Triton keeps a name the taken branch defined only when the
// other branch binds it too (code_generator's visit_If); otherwise its use is Triton's NameError
// at compile time, and the candidate does not run (an LLM-written level-2 #89 kernel assigns
// under `if tile == 0:` in a range loop and reads after it; tests/fixtures/gpu/dynamic_scopes.txt).
Interp::Flow Interp::runtime_if(const Node& n, bool taken, bool grid_guard,
                                const std::shared_ptr<Env>& env) {
  if (hooks_.branch_ran) hooks_.branch_ran(*this, node(n.kids[0]).span, taken, grid_guard);
  if (in_jit_code()) check_dynamic_if(n, taken, env);
  absl::flat_hash_set<std::string> before;
  for (const auto& kv : env->vars) before.insert(kv.first);
  Flow f = taken ? exec_block(n.kids[1], env) : exec_else(n, env);
  if (f != Flow::Normal) return f;
  absl::flat_hash_set<std::string> other, declared;
  collect_bound(taken ? n.kids[2] : n.kids[1], other, declared);
  absl::erase_if(env->vars, [&](const auto& kv) {
    return !before.contains(kv.first) && !other.contains(kv.first);
  });
  return Flow::Normal;
}

// Measured by compiling for sm_90 (tests/golden/triton_compile_rejects): Triton refuses a
// dynamic if that holds a `return` inside a dynamic loop of the same function, and any break or
// continue; it compiles both branches, so the one not taken counts too. Breaks under an `if`
// nested in that branch are not looked for: a constexpr condition there may drop them.
void Interp::check_dynamic_if(const Node& n, bool taken, const std::shared_ptr<Env>& env) {
  if (env->dynamic_loops > 0)
    for (size_t k = 1; k < n.kids.size(); ++k)
      if (NodeId r = find_kind(*tree_, n.kids[k], NodeKind::Return, true); r != kNoNode)
        raise(n.span,
              "UnsupportedLanguageConstruct: Cannot have `return` statements inside `while` or "
              "`for` statements in triton.");
  NodeId other = taken ? (n.kids.size() > 2 ? n.kids[2] : kNoNode) : n.kids[1];
  for (NodeKind k : {NodeKind::Break, NodeKind::Continue})
    if (NodeId b = find_kind(*tree_, other, k, false); b != kNoNode)
      raise(node(b).span, std::string("UnsupportedLanguageConstruct: unsupported AST node type: ") +
                              std::string(kind_name(k)));
  check_untaken_code(other, env);
}

// What compiling the branch keq does not run refuses all the same: `module.name` where the real
// module has no such name, the AttributeError (gpt-4o's div kernel: tl.trunc under
// `elif rounding_mode == 3`, with rounding_mode 0), and a chained comparison, which the code
// generator refuses whatever its operands. A nested if is looked into only where its condition
// reads a kernel value (a runtime scalar, a block): a constexpr one may drop its code.
void Interp::check_untaken_code(NodeId n, const std::shared_ptr<Env>& env) {
  if (n == kNoNode) return;
  const Node& at = node(n);
  if (at.kind == NodeKind::FunctionDef || at.kind == NodeKind::Lambda ||
      at.kind == NodeKind::ClassDef ||
      (at.kind == NodeKind::If && !reads_kernel_value(at.kids[0], env)))
    return;
  if (at.kind == NodeKind::Attribute && node(at.kids[0]).kind == NodeKind::Name) {
    Ref base = env->lookup_where(node(at.kids[0]).text).first;
    if (base && base->kind == K::Module) {
      auto real = real_names_.find(base->s);
      if (real != real_names_.end() && !real->second.contains(at.text))
        raise_exception(at.span, "AttributeError",
                        "module '" + base->s + "' has no attribute '" + at.text + "'");
    }
  }
  if (at.kind == NodeKind::Compare && at.text.find(',') != std::string::npos)
    raise(at.span,
          "UnsupportedLanguageConstruct: simultaneous multiple comparison is not supported");
  if (at.kind == NodeKind::Assign || at.kind == NodeKind::AugAssign ||
      at.kind == NodeKind::AnnAssign) {
    size_t targets = at.kind == NodeKind::Assign ? at.kids.size() - 1 : 1;
    for (size_t k = 0; k < targets; ++k) refuse_store_in_kernel(node(at.kids[k]));
  }
  for (NodeId k : at.kids) check_untaken_code(k, env);
}

// Triton's code generator stores only into names (and tuples of them): `acc[i, j] = v` and
// `self.x = v` in a kernel are its NotImplementedError (code_generator.assignTarget), whatever
// the object, once the value is computed.
void Interp::refuse_store_in_kernel(const Node& target) const {
  if (target.kind == NodeKind::Subscript)
    raise(target.span, "NotImplementedError: __setitem__ is not supported in triton");
  if (target.kind == NodeKind::Attribute)
    raise(target.span, "NotImplementedError: Attribute assignment is not supported in triton");
}

bool Interp::reads_kernel_value(NodeId n, const std::shared_ptr<Env>& env) {
  const Node& at = node(n);
  if (at.kind == NodeKind::Name) {
    Ref v = env->lookup_where(at.text).first;
    return v && hooks_.kernel_type && hooks_.kernel_type(v);
  }
  return std::any_of(at.kids.begin(), at.kids.end(),
                     [&](NodeId k) { return k != kNoNode && reads_kernel_value(k, env); });
}

// A dynamic loop in a kernel (a range() or while loop: an scf.for or scf.while): a name first
// assigned in its body is Triton's NameError after it; the loop's own variable compiles, but what
// it holds after the loop is not Python's last value (tests/fixtures/gpu/dynamic_scopes.txt), so
// reading it there is unsupported.
Interp::LoopScope::LoopScope(Interp& in, const std::shared_ptr<Env>& env, bool dynamic,
                             NodeId target, uint32_t line)
    : in_(in), env_(env), line_(line) {
  active_ = dynamic && in.hooks_.in_kernel && in.hooks_.in_kernel();
  if (!active_) return;
  for (const auto& kv : env->vars) before_.insert(kv.first);
  in.collect_targets(target, targets_);
  ++env->dynamic_loops;
  if (!in.in_jit_code() || !in.hooks_.kernel_type) return;
  for (const auto& [name, v] : env->vars)
    if (std::optional<KernelType> t = in.hooks_.kernel_type(v); t && !targets_.contains(name))
      carried_.emplace(name, t->name);
}

void Interp::LoopScope::check_carried(Span at) const {
  for (const auto& [name, before] : carried_) {
    auto it = env_->vars.find(name);
    if (it == env_->vars.end()) continue;
    std::optional<KernelType> now = in_.hooks_.kernel_type(it->second);
    if (now && now->name != before)
      in_.raise(at, "AssertionError: Loop-carried variable " + name + " has initial type " +
                        before + " but is re-assigned to " + now->name +
                        " in loop! Please make sure that the type stays consistent.");
  }
}

Interp::LoopScope::~LoopScope() {
  if (!active_) return;
  --env_->dynamic_loops;
  absl::erase_if(env_->vars, [&](const auto& kv) {
    return !before_.contains(kv.first) || targets_.contains(kv.first);
  });
  for (const std::string& name : targets_) env_->loop_variable_after[name] = line_;
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
      if (hooks_.in_kernel && hooks_.in_kernel()) v = kernel_local(v);
      for (size_t k = 0; k + 1 < n.kids.size(); ++k) assign(n.kids[k], v, env);
      return Flow::Normal;
    }
    case NodeKind::AugAssign: {
      Ref target = eval(n.kids[0], env), value = eval(n.kids[1], env);
      bool host_tensor = target->kind == K::Tensor && hooks_.augassign &&
                         !(hooks_.in_kernel && hooks_.in_kernel());
      Ref v = host_tensor ? hooks_.augassign(*this, n.text, target, value, n.span)
                          : binop(n.text, target, value, n.span);
      if (hooks_.in_kernel && hooks_.in_kernel()) v = kernel_local(v);
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
      if (in_jit_code() && is_block(c))
        raise(n.span,
              "UnsupportedLanguageConstruct: Boolean value of Tensor with more than one value is "
              "ambiguous");
      if (c->kind == K::Tensor && hooks_.truth && hooks_.select && hooks_.truth(*this, c, at) < 0)
        return symbolic_if(n, c, env);
      // A comparison of runtime scalars in a kernel (a loop variable, a program id): Triton
      // compiles a dynamic if, whichever way this program goes.
      if (c->kind == K::Bool && c->f != 0 && hooks_.in_kernel && hooks_.in_kernel())
        return runtime_if(n, truthy(c, at), c->f == kGridGuard, env);
      bool taken = truthy(c, at);
      if (hooks_.static_branch) hooks_.static_branch(*this, at, taken);
      if (taken) return exec_block(n.kids[1], env);
      return exec_else(n, env);
    }
    case NodeKind::For: {
      Ref iterable = eval(n.kids[1], env);
      // A generator keq ran to its end at the call (Value::i 1, exceptions.cc): a loop that
      // leaves it early may never have run the rest of its body in CPython.
      const bool eager_generator = is_iterator(iterable) && iterable->i == 1;
      std::vector<Ref> seq = to_sequence(iterable, node(n.kids[1]).span);
      size_t trips = 0;
      LoopScope scope(*this, env, !seq.empty() && seq[0]->kind == K::Int && seq[0]->b, n.kids[0],
                      n.span.line);
      for (const Ref& x : seq) {
        assign(n.kids[0], x, env);
        ++trips;
        Flow f = exec_block(n.kids[2], env);
        if (f == Flow::Break || f == Flow::Return) {
          if (eager_generator && trips < seq.size())
            unsupported(n.span,
                        "a for loop leaving a generator's values untaken (keq ran its body to "
                        "its end at the call)");
          if (hooks_.loop_ran) hooks_.loop_ran(*this, n.span, trips);
          return f == Flow::Break ? Flow::Normal : f;
        }
        scope.check_carried(n.span);
      }
      if (hooks_.loop_ran) hooks_.loop_ran(*this, n.span, trips);
      return n.kids[3] == kNoNode ? Flow::Normal : exec_block(n.kids[3], env);
    }
    case NodeKind::While: {
      int64_t trips = 0;
      LoopScope scope(*this, env, /*dynamic=*/true, kNoNode, n.span.line);
      auto ran = [&] {
        if (hooks_.loop_ran) hooks_.loop_ran(*this, n.span, static_cast<size_t>(trips));
      };
      for (;;) {
        Ref c = eval(n.kids[0], env);
        if (in_jit_code() && is_block(c))  // measured: sm_90's scf.condition takes an i1
          raise(n.span,
                "RuntimeError: error encountered during parsing ('scf.condition' op operand #0 "
                "must be 1-bit signless integer, but the condition is a block)");
        if (!truthy(c, n.span)) break;
        if (++trips > kMaxLoopTrips)
          unsupported(n.span, "a while loop that ran over 10,000,000 trips");
        Flow f = exec_block(n.kids[1], env);
        if (f == Flow::Break || f == Flow::Return) {
          ran();
          return f == Flow::Break ? Flow::Normal : f;
        }
        scope.check_carried(n.span);
      }
      ran();
      return n.kids[2] == kNoNode ? Flow::Normal : exec_block(n.kids[2], env);
    }
    case NodeKind::Break:
    case NodeKind::Continue:
      if (in_jit_code())  // Triton's code generator has no visitor for them
        raise(n.span, std::string("UnsupportedLanguageConstruct: unsupported AST node type: ") +
                          std::string(kind_name(n.kind)));
      return n.kind == NodeKind::Break ? Flow::Break : Flow::Continue;
    case NodeKind::Pass:
      return Flow::Normal;
    case NodeKind::Assert:
      if (!truthy(eval(n.kids[0], env), n.span))
        fail_assertion(n.span,
                       n.kids[1] == kNoNode ? std::string() : ": " + repr(eval(n.kids[1], env)));
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
      const bool named_tuple = base && base->kind == K::Module && base->s == "typing.NamedTuple";
      if (base && base->kind != K::Class && !named_tuple)
        unsupported(n.span, "a base class that is not a class");
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
      Ref cls = named_tuple ? typed_named_tuple(n, body_env->annotated, *attrs)
                            : make_class(n.text, base, attrs);
      cls->b = true;  // the program's own class, not keq's model of a library's
      if (is_enum_class(base)) make_enum_members(cls, n.kids[2]);
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
      for (NodeId t : n.kids) delete_target(t, env);
      return Flow::Normal;
    case NodeKind::Global:
    case NodeKind::Nonlocal:
      declare_rebound(n, *env);
      return Flow::Normal;
    default:
      unsupported(n.span, "the statement " + std::string(kind_name(n.kind)));
  }
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
      if (in_jit_code()) refuse_store_in_kernel(t);
      setattr(eval(t.kids[0], env), t.text, std::move(v), t.span);
      return;
    case NodeKind::Tuple:
    case NodeKind::List: {
      std::vector<Ref> items = to_sequence(v, t.span);
      size_t star = t.kids.size();
      for (size_t k = 0; k < t.kids.size(); ++k)
        if (node(t.kids[k]).kind == NodeKind::Starred) star = k;
      if (star == t.kids.size()) {
        if (items.size() > t.kids.size())  // CPython's words
          raise(t.span, "ValueError: too many values to unpack (expected " +
                            std::to_string(t.kids.size()) + ")");
        if (items.size() < t.kids.size())
          raise(t.span, "ValueError: not enough values to unpack (expected " +
                            std::to_string(t.kids.size()) + ", got " +
                            std::to_string(items.size()) + ")");
        for (size_t k = 0; k < items.size(); ++k) assign(t.kids[k], items[k], env);
        return;
      }
      size_t after = t.kids.size() - star - 1;
      if (items.size() < star + after)
        raise(t.span, "ValueError: not enough values to unpack (expected at least " +
                          std::to_string(star + after) + ", got " + std::to_string(items.size()) +
                          ")");
      for (size_t k = 0; k < star; ++k) assign(t.kids[k], items[k], env);
      assign(node(t.kids[star]).kids[0], list({items.begin() + star, items.end() - after}), env);
      for (size_t k = 0; k < after; ++k)
        assign(t.kids[star + 1 + k], items[items.size() - after + k], env);
      return;
    }
    case NodeKind::Subscript: {
      if (in_jit_code()) refuse_store_in_kernel(t);
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
      if (obj->kind == K::Tuple || obj->kind == K::Str)  // immutable
        raise(t.span,
              "TypeError: '" + obj->type_name() + "' object does not support item assignment");
      unsupported(t.span, "item assignment into " + obj->type_name());
    }
    default:
      unsupported(t.span, "assignment to " + std::string(kind_name(t.kind)));
  }
}

// `del name`, `del seq[i]`, `del mapping[key]`, as CPython runs them; other targets are
// UNSUPPORTED by name.
void Interp::delete_target(NodeId target, const std::shared_ptr<Env>& env) {
  const Node& t = node(target);
  if (t.kind == NodeKind::Name) {
    if (binding_scope(*env, t.text).vars.erase(t.text) == 0)
      raise(t.span, "NameError: name '" + t.text + "' is not defined");
    return;
  }
  if (t.kind == NodeKind::Tuple || t.kind == NodeKind::List) {
    for (NodeId k : t.kids) delete_target(k, env);
    return;
  }
  if (t.kind != NodeKind::Subscript)
    unsupported(t.span, "del of " + std::string(kind_name(t.kind)));
  Ref obj = eval(t.kids[0], env);
  Ref idx = eval(t.kids[1], env);
  if (obj->kind == K::List && idx->kind == K::Int) {
    int64_t i = idx->i < 0 ? idx->i + static_cast<int64_t>(obj->items.size()) : idx->i;
    if (i < 0 || i >= static_cast<int64_t>(obj->items.size()))
      raise(t.span, "IndexError: list assignment index out of range");
    obj->items.erase(obj->items.begin() + i);
    return;
  }
  if (obj->kind == K::Dict) {
    for (auto it = obj->dict.begin(); it != obj->dict.end(); ++it)
      if (equal(it->first, idx)) {
        obj->dict.erase(it);
        return;
      }
    raise(t.span, "KeyError: " + repr(idx));
  }
  if (obj->kind == K::Tuple || obj->kind == K::Str)
    raise(t.span, "TypeError: '" + obj->type_name() + "' object doesn't support item deletion");
  unsupported(t.span, "del of an item of " + obj->type_name());
}

void Interp::fail_assertion(Span at, const std::string& message) const {
  ProgramError e(where(at) + ": AssertionError" + message, true, true);
  e.classes = exception_chain("AssertionError");
  throw e;
}

}  // namespace keq::python
