// TMA tensor descriptors: tl.make_tensor_descriptor in a kernel, and the host's
// triton.tools.tensor_descriptor.TensorDescriptor passed to one. A descriptor's load is a block
// of its block_shape at the given offsets, every dimension checked against its shape, and the
// lanes outside hold its padding (zero, or NaN); a store writes the lanes inside only (Triton's
// docstrings; the interpreter of the test venv's Triton 3.6 does the same, negative offsets
// included). Strides or a base that TMA cannot take reject the configuration, as the host
// TensorDescriptor's asserts do. A kernel's own descriptor where no triton.set_allocator was
// called raises at launch, as on an H100 (tests/fixtures/gpu/tma_rules.txt); an innermost
// offset that is no multiple of 16 bytes is UNSUPPORTED (the H100 stops with an illegal
// instruction at 4 bytes).
#include <string>
#include <tuple>
#include <vector>

#include "frontends/triton/triton_impl.h"

namespace keq::triton::impl {

Ref Triton::tensor_descriptor(const Ref& base, const std::vector<int64_t>& shape,
                              const std::vector<int64_t>& strides,
                              const std::vector<int64_t>& block, const std::string& padding,
                              Span at) {
  if (!base || base->kind != K::Pointer || base->offsets.size() != 1)
    in.error(at, "a tensor descriptor needs a scalar pointer as base");
  need_known_offsets(base, at, "a tensor descriptor");
  const int64_t elem = torch::element_size(base->tensor->dtype);
  // TMA's preconditions: sizes that break them reject the configuration as an assert would (a
  // host TensorDescriptor asserts the same), and the bound chooses sizes that keep them.
  if ((base->offsets[0] * elem) % 16 != 0)
    in.fail_assertion(at, ": a tensor descriptor's base must be 16-byte aligned (TMA)");
  for (size_t d = 0; d + 1 < strides.size(); ++d)
    if ((strides[d] * elem) % 16 != 0)
      in.fail_assertion(
          at, ": a tensor descriptor's strides must be multiples of 16 bytes (TMA): " +
                  std::to_string(strides[d]) + " elements of " + std::to_string(elem) + " bytes");
  auto attrs = std::make_shared<Attrs>();
  (*attrs)["block_shape"] = int_tuple(block);
  (*attrs)["shape"] = int_tuple(shape);
  (*attrs)["strides"] = int_tuple(strides);
  (*attrs)["dtype"] = torch::dtype_value(base->tensor->dtype);  // the blocks' element type
  auto block_ptr_at = [this, base, shape, strides, block](CallArgs& a, Span where) {
    Ref given = a.get(0, "offsets");
    if (!given) in.raise(where, "TypeError: a tensor descriptor access needs its offsets");
    std::vector<int64_t> offsets = ints_of(given, where);
    if (offsets.size() != block.size())
      in.raise(where, "AssertionError: expected " + std::to_string(block.size()) +
                          " offsets, but got " + std::to_string(offsets.size()));
    if ((offsets.back() * torch::element_size(base->tensor->dtype)) % 16 != 0)
      in.unsupported(where,
                     "a tensor descriptor access at an innermost offset that is not a "
                     "multiple of 16 bytes (Triton documents it as required)");
    return make_block_ptr(base, shape, strides, offsets, block, where);
  };
  std::vector<Ref> dims;
  for (size_t d = 0; d < block.size(); ++d)
    dims.push_back(python::integer(static_cast<int64_t>(d)));
  const Ref every_dim = python::tuple(dims);
  (*attrs)["load"] = python::builtin(
      "tensor_descriptor.load", [this, block_ptr_at, every_dim, padding](Interp&, CallArgs& a) {
        require_kernel(a, "tensor_descriptor.load");
        std::vector<bool> lanes;
        Ref p = block_lanes(block_ptr_at(a, a.at), every_dim, a.at, lanes);
        auto other = std::make_shared<Tensor>();
        other->dtype = p->tensor->dtype;
        other->elems = {constant(s, other->dtype, padding == "nan" ? std::nan("") : 0.0)};
        return load_lanes(p, lanes, other, a.at);
      });
  (*attrs)["store"] = python::builtin(
      "tensor_descriptor.store", [this, block_ptr_at, every_dim, block](Interp&, CallArgs& a) {
        require_kernel(a, "tensor_descriptor.store");
        Ref value = a.get(1, "value");
        if (!value || value->kind != K::Tensor || value->tensor->shape != block)
          in.raise(a.at, "AssertionError: a tensor descriptor stores a block of its block_shape");
        CallArgs c;
        c.at = a.at;
        c.pos = {block_ptr_at(a, a.at), value, python::none(), every_dim};
        return store(c);
      });
  for (const char* unmodelled : {"atomic_add", "atomic_min", "atomic_max", "atomic_and",
                                 "atomic_or", "atomic_xor", "gather", "scatter"}) {
    std::string name = std::string("tensor_descriptor.") + unmodelled;
    (*attrs)[unmodelled] = python::builtin(name, [this, name](Interp&, CallArgs& a) -> Ref {
      in.unsupported(a.at, name + " is not modelled");
    });
  }
  auto v = std::make_shared<Value>();
  v->kind = K::Instance;
  v->cls = descriptor_class;
  v->attrs = attrs;
  return v;
}

// tl.make_tensor_descriptor's checks are semantic.py's (Triton 3.6), at compile time.
Ref Triton::make_tensor_descriptor(CallArgs& a) {
  require_kernel(a, "tl.make_tensor_descriptor");
  Ref base = a.get(0, "base");
  std::vector<int64_t> shape = ints_of(a.get(1, "shape"), a.at),
                       strides = ints_of(a.get(2, "strides"), a.at),
                       block = ints_of(a.get(3, "block_shape"), a.at);
  Ref pad = a.get(4, "padding_option");
  std::string padding = pad && pad->kind == K::Str ? pad->s : "zero";
  const size_t n = shape.size();
  if (n < 1 || n > 5)
    in.raise(a.at,
             "ValueError: Expected 1 <= ndim <= 5 but got " + std::to_string(n) + " dimensions");
  if (strides.size() != n)
    in.raise(a.at, "ValueError: Expected " + std::to_string(n) + " strides but got " +
                       std::to_string(strides.size()));
  if (block.size() != n)
    in.raise(a.at, "ValueError: Expected block_shape to have " + std::to_string(n) +
                       " dimensions but got " +
                       std::to_string(strides.size()));  // len(strides): Triton's message
  if (!base || base->kind != K::Pointer)
    in.error(a.at, "tl.make_tensor_descriptor needs a pointer as base");
  const int64_t elem = torch::element_size(base->tensor->dtype);
  if (block.back() * elem < 16)
    in.raise(a.at,
             "ValueError: Descriptor block shape must have at least 16 bytes in the last "
             "dimension, but got " +
                 std::to_string(block.back()) + " * " + std::to_string(elem) + " = " +
                 std::to_string(block.back() * elem) + " bytes");
  if (strides.back() != 1)
    in.raise(a.at, "ValueError: Tensor descriptor last dim must be 1 but got " +
                       std::to_string(strides.back()));
  check_block_shape(in, a.at, in.to_sequence(a.get(3, "block_shape"), a.at));
  if (padding != "zero" && padding != "nan")
    in.raise(a.at, "ValueError: padding_option is \"zero\" or \"nan\"");
  if (padding == "nan" && !torch::is_float(base->tensor->dtype))
    in.raise(a.at, "ValueError: Padding option `nan` is not supported for integer blocks");
  // The compiled kernel needs scratch memory for its descriptors, which its launch asks the
  // allocator for: with none set, Triton 3.6's launch raises (measured on an H100:
  // tests/fixtures/gpu/tma_rules.txt). keq raises where the kernel makes one.
  if (!allocator_set_)
    in.raise(a.at,
             "RuntimeError: Kernel requires a runtime memory allocation, but no allocator was "
             "set. Use triton.set_allocator to specify an allocator.");
  return tensor_descriptor(base, shape, strides, block, padding, a.at);
}

// triton.tools.tensor_descriptor.TensorDescriptor(base, shape, strides, block_shape, padding):
// the dataclass's __post_init__ asserts, then the fields. As a kernel argument it is the
// descriptor of its base tensor (kernel_descriptor).
void Triton::install_descriptors(const Ref& tl) {
  define_tl(tl, "make_tensor_descriptor",
            [this](Interp&, CallArgs& a) { return make_tensor_descriptor(a); });
  // tl.load_tensor_descriptor(desc, offsets), tl.store_tensor_descriptor(desc, offsets, value):
  // the descriptor's own method with the rest of the arguments.
  for (const auto& [name, method, params] :
       {std::tuple{"load_tensor_descriptor", "load", std::vector<std::string>{"offsets"}},
        std::tuple{"store_tensor_descriptor", "store",
                   std::vector<std::string>{"offsets", "value"}}}) {
    std::string tl_name = name, method_name = method;
    std::vector<std::string> rest = params;
    define_tl(tl, tl_name, [this, tl_name, method_name, rest](Interp&, CallArgs& a) {
      Ref desc = a.get(0, "desc");
      if (!desc || desc->kind != K::Instance || desc->cls != descriptor_class)
        in.error(a.at, "tl." + tl_name + " needs a tensor descriptor");
      CallArgs c;
      c.at = a.at;
      for (size_t k = 0; k < rest.size(); ++k) {
        Ref v = a.get(k + 1, rest[k]);
        if (!v) in.raise(a.at, "TypeError: " + tl_name + "() missing argument '" + rest[k] + "'");
        c.pos.push_back(v);
      }
      return in.call(desc->attrs->at(method_name), c);
    });
  }
  descriptor_class = in.make_class("tensor_descriptor", nullptr, std::make_shared<Attrs>());
  auto host_attrs = std::make_shared<Attrs>();
  host_descriptor_class = in.make_class("TensorDescriptor", nullptr, host_attrs);
  (*host_attrs)["__init__"] =
      python::builtin("TensorDescriptor.__init__", [this](Interp&, CallArgs& a) {
        Ref self = a.pos.at(0);
        Ref base = a.get(1, "base"), padding = a.get(5, "padding");
        std::vector<int64_t> shape = ints_of(a.get(2, "shape"), a.at),
                             strides = ints_of(a.get(3, "strides"), a.at),
                             block = ints_of(a.get(4, "block_shape"), a.at);
        auto check = [&](bool ok, const std::string& what) {  // the dataclass's asserts
          if (!ok) in.fail_assertion(a.at, ": " + what);
        };
        const size_t rank = shape.size();
        check(strides.size() == rank && block.size() == rank, "rank mismatch");
        check(rank > 0, "rank must not be zero");
        check(rank <= 5, "rank cannot be more than 5");
        if (!base || base->kind != K::Tensor)
          in.unsupported(a.at, "a TensorDescriptor over something that is not a tensor");
        check_block_shape(in, a.at, in.to_sequence(a.get(4, "block_shape"), a.at));
        const int64_t elem = torch::element_size(base->tensor->dtype);
        for (size_t d = 0; d + 1 < rank; ++d)
          check((strides[d] * elem) % 16 == 0, "strides must be 16-byte aligned");
        for (int64_t x : shape) check(x > 0, "shape must be positive");
        check(strides.back() == 1, "Last dimension must be contiguous");
        std::string pad = padding && padding->kind == K::Str ? padding->s : "zero";
        check(pad == "zero" || pad == "nan", "Illegal value for padding");
        if (pad == "nan")
          check(torch::is_float(base->tensor->dtype),
                "Padding option `nan` is only supported for floating point tensors");
        (*self->attrs)["base"] = base;
        (*self->attrs)["shape"] = python::list(int_tuple(shape)->items);
        (*self->attrs)["strides"] = python::list(int_tuple(strides)->items);
        (*self->attrs)["block_shape"] = python::list(int_tuple(block)->items);
        (*self->attrs)["padding"] = python::string(pad);
        return python::none();
      });
  (*host_attrs)["from_tensor"] =
      python::builtin("TensorDescriptor.from_tensor", [this](Interp&, CallArgs& a) {
        Ref t = a.get(0, "tensor");
        if (!t || t->kind != K::Tensor)
          in.unsupported(a.at, "TensorDescriptor.from_tensor of something that is not a tensor");
        CallArgs c;
        c.at = a.at;
        CallArgs none;
        none.at = a.at;
        Ref strides = in.call(in.getattr(t, "stride", a.at), none);
        Ref shape = in.getattr(t, "shape", a.at);
        Ref pad = a.get(2, "padding");
        c.pos = {t, shape, strides, a.get(1, "block_shape"), pad ? pad : python::string("zero")};
        return in.instantiate(host_descriptor_class, c);
      });
  Ref module = python::module_object("triton.tools.tensor_descriptor");
  (*module->attrs)["TensorDescriptor"] = host_descriptor_class;
  Ref tools = python::module_object("triton.tools");
  (*tools->attrs)["tensor_descriptor"] = module;
  in.register_module("triton.tools", tools);
  in.register_module("triton.tools.tensor_descriptor", module);
}

// A host TensorDescriptor passed to a kernel: the descriptor of its base tensor's pointer.
Ref Triton::kernel_descriptor(const Ref& host, Span at) {
  const Attrs& f = *host->attrs;
  Ref base = kernel_arg(f.at("base"), true, at);
  return tensor_descriptor(base, ints_of(f.at("shape"), at), ints_of(f.at("strides"), at),
                           ints_of(f.at("block_shape"), at), f.at("padding")->s, at);
}

}  // namespace keq::triton::impl
