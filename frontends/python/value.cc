#include "frontends/python/value.h"

namespace keq::python {

std::string_view dtype_name(DType d) {
  static constexpr std::string_view kNames[] = {
      "float32", "float16", "bfloat16", "float8_e4m3fn", "float8_e5m2", "int32", "int64", "bool"};
  return kNames[static_cast<int>(d)];
}
bool is_float(DType d) {
  return d == DType::F32 || d == DType::F16 || d == DType::BF16 || d == DType::E4M3 ||
         d == DType::E5M2;
}

Ref CallArgs::get(size_t i, const std::string& name) const {
  if (i < pos.size()) return pos[i];
  for (const auto& [k, v] : kw)
    if (k == name) return v;
  return nullptr;
}
bool CallArgs::has(const std::string& name) const {
  for (const auto& [k, v] : kw)
    if (k == name) return true;
  return false;
}

std::string Value::type_name() const {
  switch (kind) {
    case Kind::None:
      return "NoneType";
    case Kind::Bool:
      return "bool";
    case Kind::Int:
    case Kind::BigInt:
      return "int";
    case Kind::Float:
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
Ref builtin(std::string name, BuiltinFn fn) {
  Ref v = make(Value::Kind::Builtin);
  v->s = std::move(name);
  v->builtin = std::move(fn);
  return v;
}
Ref tensor_value(std::shared_ptr<Tensor> t) {
  Ref v = make(Value::Kind::Tensor);
  v->tensor = std::move(t);
  return v;
}
Ref dtype_value(DType d) {
  Ref v = make(Value::Kind::DType);
  v->dtype = d;
  v->s = std::string(dtype_name(d));
  return v;
}

}  // namespace keq::python
