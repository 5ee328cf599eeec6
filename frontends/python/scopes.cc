// Python scoping as CPython compiles it: the names a def binds are its locals, and `global` /
// `nonlocal` bind names in the module's or an enclosing function's scope.
#include "absl/strings/str_split.h"
#include "frontends/python/interp.h"

namespace keq::python {

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

bool Interp::is_generator(NodeId def) {
  auto key = std::make_pair(tree_, def);
  if (auto it = generators_.find(key); it != generators_.end()) return it->second;
  bool yields = yields_in(node(def).kids.back());
  generators_.emplace(key, yields);
  return yields;
}

bool Interp::yields_in(NodeId n) const {
  if (n == kNoNode) return false;
  const Node& x = node(n);
  if (x.kind == NodeKind::Yield) return true;
  if (x.kind == NodeKind::FunctionDef || x.kind == NodeKind::Lambda || x.kind == NodeKind::ClassDef)
    return false;  // a scope of its own
  return std::any_of(x.kids.begin(), x.kids.end(), [&](NodeId k) { return yields_in(k); });
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

}  // namespace keq::python
