#include "frontends/python/value.h"

namespace keq::python {

Ref CallArgs::get(size_t i, const std::string& name) const {
  if (i < pos.size()) return pos[i];
  for (size_t k = 0; k < kw.size(); ++k)
    if (kw[k].first == name) {
      if (k < 64) kw_read |= uint64_t{1} << k;
      return kw[k].second;
    }
  return nullptr;
}
bool CallArgs::has(const std::string& name) const {
  for (size_t k = 0; k < kw.size(); ++k)
    if (kw[k].first == name) {
      if (k < 64) kw_read |= uint64_t{1} << k;
      return true;
    }
  return false;
}
const std::string* CallArgs::unread_keyword() const {
  for (size_t k = 0; k < kw.size() && k < 64; ++k)
    if (!(kw_read >> k & 1)) return &kw[k].first;
  return nullptr;
}

std::string Value::type_name() const {
  if (kind == Kind::Dict && s == kSetMarker) return "set";
  if (kind == Kind::List && s == kIteratorMarker) return "list_iterator";
  if (kind == Kind::List && s == kDequeMarker) return "deque";
  switch (kind) {
    case Kind::None:
      return "NoneType";
    case Kind::Bool:
      return "bool";
    case Kind::Int:
    case Kind::BigInt:
      return "int";
    case Kind::Float:
    case Kind::InputDependentFloat:
      return "float";
    case Kind::Str:
      return "str";
    case Kind::Tuple:
      return "tuple";
    case Kind::List:
      return "list";
    case Kind::Dict:
      return "dict";
    case Kind::Function:
      return "function";
    case Kind::Builtin:
      return "builtin " + s;
    case Kind::Class:
      return "class " + s;
    case Kind::Instance:
      return cls ? cls->s : "object";
    case Kind::Module:
      return "module " + s;
    case Kind::BoundMethod:
      return "method";
    case Kind::Tensor:
      return "Tensor";
    case Kind::Slice:
      return "slice";
    case Kind::Ellipsis:
      return "ellipsis";
    case Kind::DType:
      return "dtype";
    case Kind::Device:
      return "device";
    case Kind::Range:
      return "range";
    case Kind::Pointer:
      return "pointer";
  }
  return "?";
}

namespace {
Ref make(Value::Kind k) {
  auto v = std::make_shared<Value>();
  v->kind = k;
  return v;
}
}  // namespace

Ref none() {
  static const Ref n = make(Value::Kind::None);
  return n;
}
Ref boolean(bool b) {
  Ref v = make(Value::Kind::Bool);
  v->b = b;
  v->i = b;
  return v;
}
Ref integer(int64_t i) {
  Ref v = make(Value::Kind::Int);
  v->i = i;
  return v;
}
Ref floating(double f) {
  Ref v = make(Value::Kind::Float);
  v->f = f;
  return v;
}
Ref string(std::string s) {
  Ref v = make(Value::Kind::Str);
  v->s = std::move(s);
  return v;
}
Ref tuple(std::vector<Ref> items) {
  Ref v = make(Value::Kind::Tuple);
  v->items = std::move(items);
  return v;
}
Ref list(std::vector<Ref> items) {
  Ref v = make(Value::Kind::List);
  v->items = std::move(items);
  return v;
}
Ref iterator(std::vector<Ref> items) {
  Ref v = list(std::move(items));
  v->s = kIteratorMarker;
  return v;
}
Ref builtin(std::string name, BuiltinFn fn) {
  Ref v = make(Value::Kind::Builtin);
  v->s = std::move(name);
  v->builtin = std::move(fn);
  return v;
}
Ref module_object(std::string name) {
  auto m = std::make_shared<Value>();
  m->kind = Value::Kind::Module;
  m->s = std::move(name);
  m->attrs = std::make_shared<absl::flat_hash_map<std::string, Ref>>();
  return m;
}
bool is_callable(const Ref& v) {
  using K = Value::Kind;
  if (v->kind == K::Instance) {
    for (Ref c = v->cls; c; c = c->cls)
      if (c->attrs->contains("__call__")) return true;
    return false;
  }
  return v->kind == K::Function || v->kind == K::Builtin || v->kind == K::BoundMethod ||
         v->kind == K::Class;
}
Ref triton_constexpr(Interp&, CallArgs& a) {
  Ref v = a.pos.at(0);
  bool tuple = v->kind == Value::Kind::Tuple && v->s.empty();  // s: a namedtuple's fields
  if (v->kind != Value::Kind::Int && v->kind != Value::Kind::Float &&
      v->kind != Value::Kind::Bool && !tuple)
    return v;
  auto marked = std::make_shared<Value>(*v);
  marked->s = "tl.constexpr";
  return marked;
}

}  // namespace keq::python
