// What torch.compile's generated wrapper code calls, as LLM-written kernels copy it (KernelBook,
// KernelLLM): torch._C's guards (assert_size_stride, empty_strided, reinterpret_tensor) and raw
// stream, torch.cuda's device guard, and torch._inductor's extern kernels (mm, addmm, bmm,
// convolution) and triton_heuristics, whose `grid` torch 2.11 no longer has: importing it is
// CPython's ImportError, as on the H200. The Triton helpers (triton_helpers.maximum & co.) are
// Triton code, modelled in Python by the Triton frontend.
#include "frontends/torch/torch_impl.h"

namespace keq::torch::impl {

namespace {

const std::pair<const char*, std::vector<std::string>> kInductorNames[] = {
#include "frontends/torch/inductor_names.inc"
};

std::vector<int64_t> int_list(Interp& in, const Ref& v, const char* what, Span at) {
  if (!v) in.error(at, std::string("missing argument '") + what + "'");
  std::vector<int64_t> out;
  for (const Ref& e : in.to_sequence(v, at)) out.push_back(in.to_int(e, at));
  return out;
}

Ref registered(Interp& in, const Ref& parent, const std::string& leaf, const Ref& m) {
  (*parent->attrs)[leaf] = m;
  in.register_module(m->s, m);
  return m;
}

}  // namespace

// assert_size_stride(item, size, stride, op_name=None): torch 2.11's messages; a stride is
// compared only where the size exceeds 1, as torch does.
Ref Torch::assert_size_stride(CallArgs& a) {
  TensorPtr x = tensor_arg(a, 0, "item");
  std::vector<int64_t> size = int_list(in, a.get(1, "size"), "size", a.at),
                       stride = int_list(in, a.get(2, "stride"), "stride", a.at);
  Ref op = a.get(3, "op_name");
  size_t n = x->shape.size();
  if (size.size() != n || stride.size() != n)
    in.fail_assertion(a.at, ": wrong number of dimensions" + std::to_string(n) +
                                (op && op->kind == K::Str ? " for op: " + op->s : ""));
  CallArgs q;
  q.at = a.at;
  q.pos = {wrap(x)};
  std::vector<Ref> actual = ops.at("stride")(in, q)->items;
  std::string msg;
  for (size_t d = 0; d < n; ++d) {
    int64_t st = in.to_int(actual[d], a.at);
    if (x->shape[d] == size[d] && (x->shape[d] <= 1 || st == stride[d])) continue;
    msg += (msg.empty() ? ": " : "; ") + std::string("expected size ") +
           std::to_string(x->shape[d]) + "==" + std::to_string(size[d]) + ", stride " +
           std::to_string(st) + "==" + std::to_string(stride[d]) + " at dim=" + std::to_string(d);
  }
  if (!msg.empty())
    in.fail_assertion(a.at, msg +
                                "\nThis error most often comes from a incorrect fake (aka meta) "
                                "kernel for a custom op.");
  return python::none();
}

// torch.convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding,
// groups), as F.conv{1,2,3}d or F.conv_transpose{1,2,3}d by the weight's rank.
Ref Torch::convolution(CallArgs& a) {
  TensorPtr w = tensor_arg(a, 1, "weight");
  if (w->shape.size() < 3 || w->shape.size() > 5)
    in.unsupported(a.at,
                   "torch.convolution of a weight of rank " + std::to_string(w->shape.size()));
  bool transposed = bool_arg(a, 6, "transposed", false);
  std::string name =
      (transposed ? "conv_transpose" : "conv") + std::to_string(w->shape.size() - 2) + "d";
  CallArgs c;
  c.at = a.at;
  c.pos = {a.get(0, "input"), wrap(w), a.get(2, "bias")};
  if (!c.pos[0] || !c.pos[2]) in.error(a.at, "torch.convolution() needs input, weight and bias");
  const std::pair<const char*, size_t> kKeywords[] = {
      {"stride", 3}, {"padding", 4}, {"dilation", 5}, {"output_padding", 7}, {"groups", 8}};
  for (const auto& [kw, i] : kKeywords) {
    Ref v = a.get(i, kw);
    if (!v) in.error(a.at, std::string("torch.convolution() missing argument '") + kw + "'");
    if (transposed || std::string(kw) != "output_padding") c.kw.emplace_back(kw, v);
  }
  return in.call(in.getattr(in.module_value("torch.nn.functional", a.at), name, a.at), c);
}

void Torch::install_inductor(const Ref& torch, const Ref& cuda) {
  auto fn = [this](const std::string& name, Ref (Torch::*f)(CallArgs&)) {
    return python::builtin(name, [this, f](Interp&, CallArgs& a) { return (this->*f)(a); });
  };
  // torch._C: the raw stream (one stream) and dynamo's guards.
  Ref c = registered(in, torch, "_C", module("torch._C"));
  (*c->attrs)["_cuda_getCurrentRawStream"] = python::builtin(
      "torch._C._cuda_getCurrentRawStream", [](Interp&, CallArgs&) { return python::integer(0); });
  Ref dynamo = registered(in, c, "_dynamo", module("torch._C._dynamo"));
  Ref guards = registered(in, dynamo, "guards", module("torch._C._dynamo.guards"));
  auto& g = *guards->attrs;
  g["assert_size_stride"] =
      fn("torch._C._dynamo.guards.assert_size_stride", &Torch::assert_size_stride);
  // empty_strided_cuda(size, stride, dtype), reinterpret_tensor(t, size, stride, offset):
  // torch.empty_strided, and as_strided at t's own offset plus `offset`.
  for (const char* device : {"_empty_strided_cuda", "_empty_strided_cpu"})
    g[device] = python::builtin(
        std::string("torch._C._dynamo.guards.") + device, [device](Interp& i2, CallArgs& a) {
          CallArgs b;
          b.at = a.at;
          b.pos = {a.get(0, "size"), a.get(1, "stride")};
          if (Ref d = a.get(2, "dtype")) b.kw.emplace_back("dtype", d);
          if (std::string(device) == "_empty_strided_cuda")  // on the GPU, as its name says
            b.kw.emplace_back("device", python::string("cuda"));
          return i2.call(i2.getattr(i2.module_value("torch", a.at), "empty_strided", a.at), b);
        });
  g["_reinterpret_tensor"] =
      python::builtin("torch._C._dynamo.guards._reinterpret_tensor", [this](Interp&, CallArgs& a) {
        TensorPtr x = tensor_arg(a, 0, "self");
        CallArgs b;
        b.at = a.at;
        b.pos = {
            wrap(x), a.get(1, "size"), a.get(2, "stride"),
            python::integer(x->storage.offset + int_arg(a, 3, "offset_increment").value_or(0))};
        return ops.at("as_strided")(in, b);
      });
  // torch.cuda's device guard and set_device: the one GPU is already current.
  (*cuda->attrs)["_DeviceGuard"] =
      python::builtin("torch.cuda._DeviceGuard",
                      [](Interp&, CallArgs&) { return python::module_object("context:device"); });
  (*cuda->attrs)["set_device"] =
      python::builtin("torch.cuda.set_device", [](Interp& i2, CallArgs& a) {
        Ref d = a.get(0, "device");
        if (!d || !((d->kind == K::Int && d->i == 0) || d->kind == K::Device ||
                    (d->kind == K::Str && (d->s == "cuda" || d->s == "cuda:0"))))
          i2.unsupported(a.at, "torch.cuda.set_device to a device other than the one GPU (0)");
        return python::none();
      });
  // torch._inductor: extern kernels are torch's own functions (out= included).
  Ref inductor = registered(in, torch, "_inductor", module("torch._inductor"));
  Ref select =
      registered(in, inductor, "select_algorithm", module("torch._inductor.select_algorithm"));
  Ref externs = module("torch._inductor.select_algorithm.extern_kernels");
  for (const char* op : {"mm", "addmm", "bmm"})
    (*externs->attrs)[op] = python::builtin(std::string("extern_kernels.") + op, ops.at(op));
  (*externs->attrs)["convolution"] = fn("extern_kernels.convolution", &Torch::convolution);
  (*select->attrs)["extern_kernels"] = externs;
  Ref runtime = registered(in, inductor, "runtime", module("torch._inductor.runtime"));
  registered(in, runtime, "triton_heuristics", module("torch._inductor.runtime.triton_heuristics"));
  // torch's own names too: hasattr(torch, "npu") is False, as on the H200.
  for (const auto& [name, names] : kInductorNames)
    in.set_real_names(name, absl::flat_hash_set<std::string>(names.begin(), names.end()));
}

}  // namespace keq::torch::impl
