#include "frontends/torch/tensor.h"

#include "frontends/python/interp.h"

namespace keq::torch {

std::string_view dtype_name(DType d) {
  static constexpr std::string_view kNames[] = {
      "float32", "float16", "bfloat16", "float8_e4m3fn", "float8_e5m2",
      "int32",   "int64",   "bool",     "int8",          "uint8"};
  return kNames[static_cast<int>(d)];
}
std::string_view scalar_type_name(DType d) {
  static constexpr std::string_view kNames[] = {"Float",       "Half", "BFloat16", "Float8_e4m3fn",
                                                "Float8_e5m2", "Int",  "Long",     "Bool",
                                                "Char",        "Byte"};
  return kNames[static_cast<int>(d)];
}
bool is_float(DType d) {
  return d == DType::F32 || d == DType::F16 || d == DType::BF16 || d == DType::E4M3 ||
         d == DType::E5M2;
}

int64_t element_size(DType d) {
  return d == DType::F32 || d == DType::I32    ? 4
         : d == DType::I64                     ? 8
         : d == DType::F16 || d == DType::BF16 ? 2
                                               : 1;
}

python::Ref tensor_value(std::shared_ptr<Tensor> t) {
  python::Ref v = std::make_shared<python::Value>();
  v->kind = python::Value::Kind::Tensor;
  v->tensor = std::move(t);
  return v;
}
std::string shape_str(const std::vector<int64_t>& shape) {
  std::string out = "[";
  for (size_t d = 0; d < shape.size(); ++d) out += (d ? ", " : "") + std::to_string(shape[d]);
  return out + "]";
}

python::Ref size_value(const std::vector<int64_t>& shape) {
  std::vector<python::Ref> dims;
  for (int64_t d : shape) dims.push_back(python::integer(d));
  python::Ref size = python::tuple(dims);
  size->b = true;  // a Tuple's `b` marks a torch.Size (value.h)
  return size;
}
python::Ref parameter_value(std::shared_ptr<Tensor> t) {
  python::Ref v = tensor_value(std::move(t));
  v->b = true;
  return v;
}
python::Ref unmodelled_dtype_value(const std::string& name) {
  python::Ref v = std::make_shared<python::Value>();
  v->kind = python::Value::Kind::DType;
  v->b = true;
  v->s = name;
  return v;
}
bool is_unmodelled_dtype(const python::Ref& v) {
  return v && v->kind == python::Value::Kind::DType && v->b;
}
bool dtype_kind_is(const python::Ref& dtype, std::string_view query) {
  std::string_view name =
      is_unmodelled_dtype(dtype) ? std::string_view(dtype->s) : dtype_name(dtype->dtype);
  auto starts = [&](std::string_view p) { return name.substr(0, p.size()) == p; };
  if (query == "is_complex") return starts("complex");
  if (query == "is_floating_point") return starts("float") || starts("bfloat");
  return !starts("uint") && name != "bool";  // is_signed: complex dtypes count as signed
}
python::Ref python_type_as_dtype(const python::Ref& v) {
  if (!v || v->kind != python::Value::Kind::Builtin) return v;
  if (v->s == "bool") return dtype_value(DType::Bool);
  if (v->s == "int") return dtype_value(DType::I64);
  if (v->s == "float") return unmodelled_dtype_value("float64");
  if (v->s == "complex") return unmodelled_dtype_value("complex128");
  return v;
}
void require_modelled_dtype(python::Interp& in, const python::Ref& v, python::Span at) {
  if (is_unmodelled_dtype(v)) in.unsupported(at, "torch." + v->s + " tensors are not modelled");
}

python::Ref dtype_value(DType d) {
  python::Ref v = std::make_shared<python::Value>();
  v->kind = python::Value::Kind::DType;
  v->dtype = d;
  v->s = std::string(dtype_name(d));
  return v;
}

}  // namespace keq::torch
