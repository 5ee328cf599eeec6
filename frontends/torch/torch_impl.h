// The torch frontend's insides, shared by its files (one per family of ops): the Torch object
// that holds the interpreter, the term store and the ops table, and the building blocks every
// family uses. Internal to frontends/torch/; the public header is torch.h.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

#include "frontends/torch/autograd.h"
#include "frontends/torch/conv.h"
#include "frontends/torch/device.h"
#include "frontends/torch/tensor_ops.h"
#include "frontends/torch/torch.h"

namespace keq::torch::impl {

using namespace detail;
using python::CallArgs;
using python::Interp;
using python::Span;
using python::Value;
using K = Value::Kind;
using ir::Op;
using ir::TermId;

using Attrs = absl::flat_hash_map<std::string, Ref>;
using OpFn = std::function<Ref(Interp&, CallArgs&)>;
using BuiltinFn = python::BuiltinFn;

// eval() and train(mode) set `training` on a module and every submodule, as torch does.
void set_training(Interp& in, const Ref& v, bool mode, Span at, int depth);
// einops and einops.layers.torch, keq's models of them in Python (einops.cc).
void install_einops(python::Interp& in);
// torch.library's custom ops and torch.ops, keq's model of them in Python (library.cc).
void install_library(python::Interp& in);

struct Torch {
  Interp& in;
  TorchState& st;
  ir::TermStore& s;
  absl::flat_hash_map<std::string, OpFn> ops;             // torch.X and Tensor.X share these
  absl::flat_hash_map<std::string, OpFn> unchecked_ops;   // the same before define()'s checks
  absl::flat_hash_map<const Tensor*, int64_t> data_ptrs;  // Tensor.data_ptr() answers
  // The dtype a built-in layer's parameters are made in: its dtype= while its __init__ runs
  // (nn.Linear(k, n, dtype=torch.bfloat16) holds bf16 weights, finite values of bf16).
  DType parameter_dtype = DType::F32;

  Ref module(const std::string& name) { return python::module_object(name); }

  // ---- argument helpers ----
  TensorPtr tensor_arg(CallArgs& a, size_t i, const std::string& name) {
    Ref v = a.get(i, name);
    if (!v) in.error(a.at, "missing tensor argument '" + name + "'");
    if (v->kind != K::Tensor)
      in.error(a.at, "argument '" + name + "' must be a tensor, got " + v->type_name());
    return v->tensor;
  }
  std::optional<int64_t> int_arg(CallArgs& a, size_t i, const std::string& name) {
    Ref v = a.get(i, name);
    if (!v || v->kind == K::None) return std::nullopt;
    return in.to_int(v, a.at);
  }
  double float_arg(CallArgs& a, size_t i, const std::string& name, double dflt) {
    Ref v = a.get(i, name);
    if (!v || v->kind == K::None) return dflt;
    return in.to_float(v, a.at);
  }
  bool bool_arg(CallArgs& a, size_t i, const std::string& name, bool dflt) {
    Ref v = a.get(i, name);
    if (!v) return dflt;
    return in.truthy(v, a.at);
  }
  // A size given as f(2, 3), f((2, 3)) or f(size=(2, 3)), from positional index `from`.
  std::vector<int64_t> sizes(CallArgs& a, size_t from, const std::string& kw = "size") {
    std::vector<Ref> items;
    if (a.pos.size() == from + 1 &&
        (a.pos[from]->kind == K::Tuple || a.pos[from]->kind == K::List)) {
      items = a.pos[from]->items;
    } else if (a.pos.size() > from) {
      items.assign(a.pos.begin() + static_cast<long>(from), a.pos.end());
    } else if (Ref v = a.get(SIZE_MAX, kw)) {
      items = in.to_sequence(v, a.at);
    }
    std::vector<int64_t> out;
    for (const Ref& x : items) out.push_back(in.to_int(x, a.at));
    return out;
  }
  // torch.broadcast_shapes's step for argument `index` (an int or a sequence of ints), with its
  // message: `result` (1s as long as the longest shape, at first) is what mismatches are named
  // against (measured with torch 2.11).
  std::vector<int64_t> broadcast_with(std::vector<int64_t> result, const Ref& arg, size_t index,
                                      Span at) {
    std::vector<int64_t> shape;
    if (arg->kind == K::Int)
      shape = {arg->i};
    else
      for (const Ref& d : in.to_sequence(arg, at)) shape.push_back(in.to_int(d, at));
    if (shape.size() > result.size())
      result.insert(result.begin(), shape.size() - result.size(), 1);
    std::string had = "(";
    for (size_t k = 0; k < shape.size(); ++k) had += (k ? ", " : "") + std::to_string(shape[k]);
    had += shape.size() == 1 ? ",)" : ")";
    for (size_t k = 1; k <= shape.size(); ++k) {
      int64_t d = shape[shape.size() - k], &r = result[result.size() - k];
      if (d == 1 || d == r) continue;
      if (r != 1) {
        std::string expected = "[";
        for (size_t j = 0; j < result.size(); ++j)
          expected += (j ? ", " : "") + std::to_string(result[j]);
        in.raise(at, "RuntimeError: Attempting to broadcast a dimension of length " +
                         std::to_string(d) + " at -" + std::to_string(k) +
                         "! Mismatching argument at index " + std::to_string(index) + " had " +
                         had + "; but expected shape should be broadcastable to " + expected + "]");
      }
      r = d;
    }
    return result;
  }
  DType dtype_kw(CallArgs& a, DType dflt) {
    Ref d = python_type_as_dtype(a.get(SIZE_MAX, "dtype"));
    if (!d || d->kind == K::None) return dflt;
    if (d->kind != K::DType) in.error(a.at, "dtype must be a torch dtype");
    require_modelled_dtype(in, d, a.at);
    return d->dtype;
  }
  std::vector<int64_t> dims_arg(CallArgs& a, size_t i, const Tensor& t, bool* all) {
    Ref v = a.get(i, "dim");
    *all = !v || v->kind == K::None;
    std::vector<int64_t> dims;
    if (*all) {
      for (size_t d = 0; d < t.shape.size(); ++d) dims.push_back(static_cast<int64_t>(d));
      return dims;
    }
    std::vector<Ref> items =
        v->kind == K::Tuple || v->kind == K::List ? v->items : std::vector<Ref>{v};
    for (const Ref& x : items)
      dims.push_back(norm_dim(in, in.to_int(x, a.at), t.shape.size(), a.at));
    return dims;
  }
  Ref wrap(TensorPtr t) { return torch::tensor_value(std::move(t)); }
  TermId mk(Op op, std::initializer_list<TermId> kids) {
    TermId t = s.make(op, kids);
    if (op == Op::Div && kids.size() == 2 && divides_by_reciprocal(*std::next(kids.begin())))
      st.ieee_unfixed.emplace(t, kDivisionByConstant);
    return t;
  }
  static constexpr const char* kDivisionByConstant =
      "division by a constant (torch on CUDA multiplies by fl32(1/c))";
  // CUDA torch divides by a CPU scalar as x * fl32(1/c), 1/c taken in double (measured bit for
  // bit: tests/fixtures/gpu/div_by_constant.txt): binary() models a Python number divisor so
  // where 1.0f / fl32(c) is that fp32 value. Other constant divisors (a 0-d CUDA tensor takes
  // the division kernel) stay unmodelled in IEEE where 1/c is inexact.
  bool divides_by_reciprocal(TermId divisor) const {
    if (s.op(divisor) != Op::Const || s.type(divisor) != ir::Type::F32) return false;
    int e = 0;
    double m = std::frexp(std::fabs(s.constant_of(divisor).f), &e);
    return !(m == 0.5 && e >= -126 && e <= 127);  // c = 2^(e-1), 1/c a normal float
  }
  TermId fconst(double v) { return s.constant(ir::Constant::of_float(v)); }

  // ---- symbolic tensors ----
  TensorPtr symbolic(const std::string& origin, std::vector<int64_t> shape, DType dtype, Span at,
                     bool parameter, double lo = -INFINITY, double hi = INFINITY,
                     bool hi_open = false) {
    if (st.phase == TorchState::Phase::Forward)
      in.unsupported(at, origin + " inside forward: random values are not modelled");
    auto& list = parameter || st.phase == TorchState::Phase::Init ? st.parameters : st.inputs;
    std::string name = (parameter || st.phase == TorchState::Phase::Init ? "p" : "in") +
                       std::to_string(list.size());
    in.check_shape(at, shape, origin);
    std::vector<int64_t> naming = shape;  // the shape whose indices name the elements
    bool transposed = false;              // named by the indices reversed
    if (&list == &st.parameters && !st.parameter_aliases.empty())
      alias_parameter(list.size(), shape, name, naming, transposed);
    list.push_back({name, origin, shape, dtype, at, lo, hi, hi_open});
    auto t = std::make_shared<Tensor>();
    t->shape = std::move(shape);
    t->dtype = dtype;
    std::vector<int64_t> idx(naming.size(), 0);
    for (int64_t k = 0; k < t->numel(); ++k) {
      std::string v = name + "[";
      for (size_t d = 0; d < idx.size(); ++d)
        v += (d ? "," : "") + std::to_string(idx[transposed ? idx.size() - 1 - d : d]);
      t->elems.push_back(s.variable(v + "]", term_type(dtype)));
      for (size_t d = idx.size(); d-- > 0;) {
        if (++idx[d] < naming[d]) break;
        idx[d] = 0;
      }
    }
    if (torch::is_float(dtype) && dtype != DType::F32)  // randn(dtype=f16): values of that format
      for (TermId& e : t->elems) e = rounded(s, dtype, e);
    if (&list == &st.parameters) st.last_symbolic_parameter = t;
    return t;
  }
  // A parameter made from deterministic values (nn.Parameter(torch.ones(1)), LayerNorm's
  // weight): symbolic, as trained weights can be anything, unless --params initial asks for the
  // values or it is the candidate's own, pairing with none of the reference's: no loading of the
  // reference's weights gives that one a value, so it holds the one it starts with.
  TensorPtr initialized_parameter(const std::string& origin, TensorPtr values, Span at) {
    if (st.params_initial) return values;
    if (!holds_initial(st.parameters.size()))
      return symbolic(origin, values->shape, values->dtype, at, true);
    st.parameters.push_back(
        {unpaired_parameter(st.parameters.size()), origin, values->shape, values->dtype, at});
    st.parameters.back().held_initial = true;
    return values;
  }
  // Whether the candidate's k-th parameter pairs with no reference parameter: past the
  // reference's count in creation order, or paired with nothing under a pairing verify chose.
  bool holds_initial(size_t k) const {
    if (st.parameter_aliases.empty()) return k >= st.reference_parameters;
    return k >= st.parameter_aliases.size() || st.parameter_aliases[k].name.empty();
  }
  // Whether a Parameter made symbolic is the candidate's own, now given deterministic values
  // (nn.init.ones_ after torch.empty): it holds them from here on, as initialized_parameter's do.
  bool holds_initial(const Tensor& t) {
    for (auto& o : st.parameter_objects)
      if (o.values == &t && o.parameter >= 0 && holds_initial(static_cast<size_t>(o.parameter))) {
        st.parameters[static_cast<size_t>(o.parameter)].held_initial = true;
        o.parameter = -1;  // --repro's script leaves it as torch initializes it
        return true;
      }
    return false;
  }
  // The k-th parameter under a pairing other than creation order: the reference's variable it
  // pairs with (named by that parameter's shape), or one of its own, c<k>.
  void alias_parameter(size_t k, const std::vector<int64_t>& shape, std::string& name,
                       std::vector<int64_t>& naming, bool& transposed) const {
    auto count = [](const std::vector<int64_t>& d) {
      return std::accumulate(d.begin(), d.end(), int64_t{1}, std::multiplies<>());
    };
    const ParameterAlias* a = k < st.parameter_aliases.size() ? &st.parameter_aliases[k] : nullptr;
    if (a && !a->name.empty() && count(a->shape) == count(shape)) {
      // Transposed, the candidate's own shape walks its elements and reversed indices name them.
      name = a->name, naming = a->transposed ? shape : a->shape, transposed = a->transposed;
    } else {
      name = unpaired_parameter(k);
    }
  }
  TensorPtr filled(std::vector<int64_t> shape, DType dtype, std::optional<double> v) {
    auto t = std::make_shared<Tensor>();
    t->shape = std::move(shape);
    t->dtype = dtype;
    t->elems.assign(t->numel(), v ? constant(s, dtype, *v) : Tensor::kUninit);
    return t;
  }

  // ---- building blocks ----
  Ref elementwise(CallArgs& a, Op op, const std::string& name) {
    TensorPtr x = tensor_arg(a, 0, "input");
    if (!torch::is_float(x->dtype) && op != Op::Abs && op != Op::Neg)
      in.unsupported(a.at, name + " of an integer tensor");
    return wrap(map1(
        in, x, x->dtype, [&](TermId e) { return mk(op, {e}); }, a.at));
  }
  // Where an op's result is, from its operands (Python numbers have no device): theirs when they
  // agree, unknown when one is unknown; a CPU operand of one or more dimensions beside a GPU
  // tensor raises, as torch does on the GPU (tests/fixtures/gpu/cpu_tensors.txt); a CPU 0-d
  // tensor rides along as a scalar.
  using Device = Tensor::Device;
  // Whether a device argument ("cpu", torch.device("cpu")) names the CPU; an int is a CUDA index.
  static bool names_cpu(const Ref& device) {
    return (device->kind == K::Str || device->kind == K::Device) && device->s.rfind("cpu", 0) == 0;
  }
  Device result_device(std::initializer_list<Ref> operands, Span at,
                       const std::string& message =
                           "Expected all tensors to be on the same "
                           "device, but found at least two devices, "
                           "cuda:0 and cpu!") {
    bool gpu = false, cpu_dims = false, cpu = false, unknown = false;
    for (const Ref& v : operands) {
      if (!v || v->kind != K::Tensor) continue;
      Device d = v->tensor->device;
      gpu |= d == Device::Gpu, cpu |= d == Device::Cpu, unknown |= d == Device::Unknown;
      cpu_dims |= d == Device::Cpu && !v->tensor->shape.empty();
    }
    if (gpu && cpu_dims) in.raise(at, "RuntimeError: " + message);
    return unknown ? Device::Unknown : gpu ? Device::Gpu : cpu ? Device::Cpu : Device::Unknown;
  }
  Ref on_device(Ref r, Device d) {
    r->tensor->device = d;
    return r;
  }
  // A Python number (or a CPU 0-d tensor) beside an fp16 or bf16 tensor in + - * /: torch on
  // CUDA computes in float32 (its opmath) with the number's float32 value and rounds once, where
  // the tensor's format would round the number first (0.1 is 0.10009765625 in bf16: x * 0.1
  // differs for a fifth of bf16's values). Measured on an H100 for both formats, alpha= too:
  // tests/fixtures/gpu/narrow_scalars.txt. A CUDA 0-d tensor, and a number in a comparison or in
  // a Triton kernel, is rounded to the format (as binary does); torch on the CPU adds and
  // subtracts that way too (tests/fixtures/gpu/narrow_scalars_cpu.txt).
  bool computes_in_float32(const std::string& opname, const Ref& a, const Ref& b, DType out) {
    auto scalar = [](const Ref& v) {
      return v->kind == K::Float || v->kind == K::Int ||
             (v->kind == K::Tensor && v->tensor->shape.empty() && v->tensor->device == Device::Cpu);
    };
    const Ref& other = scalar(a) ? b : a;
    const bool on_cpu = other->kind == K::Tensor && other->tensor->device == Device::Cpu;
    return (opname == "*" || opname == "/" || ((opname == "+" || opname == "-") && !on_cpu)) &&
           (out == DType::F16 || out == DType::BF16) && (scalar(a) || scalar(b)) &&
           !in.in_jit_code();
  }
  // v's values as a tensor of float dtype `to`: an op's result (map1 rounds it as an op's).
  Ref with_dtype(const Ref& v, DType to, Span at) {
    if (v->kind != K::Tensor || v->tensor->dtype == to) return v;
    const DType from = v->tensor->dtype;
    Ref r = wrap(map1(
        in, v->tensor, to,
        [&](TermId e) { return torch::is_float(from) ? e : convert(s, e, from, to); }, at));
    return on_device(r, v->tensor->device);
  }
  Ref binary(const std::string& opname, const Ref& a, const Ref& b, Span at) {
    // matmul checks devices itself, with torch's message for it
    Device where = opname == "@" ? Device::Unknown : result_device({a, b}, at);
    DType out = promote(a, b, in, at);
    if (computes_in_float32(opname, a, b, out))
      return with_dtype(
          binary(opname, with_dtype(a, DType::F32, at), with_dtype(b, DType::F32, at), at), out,
          at);
    bool cmp = opname == "<" || opname == "<=" || opname == ">" || opname == ">=" ||
               opname == "==" || opname == "!=";
    TensorPtr x = as_tensor(in, a, at, out), y = as_tensor(in, b, at, out);
    DType compute = out;
    if (cmp) out = DType::Bool;
    if (opname == "/" && !torch::is_float(compute)) compute = out = DType::F32;
    auto cast = [&](TermId e, DType from) { return convert(s, e, from, compute); };
    Op op;
    if (opname == "+")
      op = Op::Add;
    else if (opname == "-")
      op = Op::Sub;
    else if (opname == "*")
      op = Op::Mul;
    else if (opname == "/")
      op = Op::Div;
    else if (opname == "<")
      op = Op::Lt;
    else if (opname == "<=")
      op = Op::Le;
    else if (opname == ">")
      op = Op::Gt;
    else if (opname == ">=")
      op = Op::Ge;
    else if (opname == "==")
      op = Op::Eq;
    else if (opname == "!=")
      op = Op::Ne;
    else if (opname == "**")
      op = Op::Pow;
    else if (opname == "%")  // torch's remainder: the divisor's sign, as Python's
      op = torch::is_float(compute) ? Op::Remainder : Op::ModPy;
    else if (opname == "//")  // floats: floor(x / y), below
      op = torch::is_float(compute) ? Op::Floor : Op::FloorDiv;
    else if (opname == "@")
      return matmul(x, y, at);
    else if (opname == "&" && compute == DType::Bool)
      op = Op::And;
    else if (opname == "|" && compute == DType::Bool)
      op = Op::Or;
    else
      in.unsupported(at, "tensor operator " + opname);
    DType xd = x->dtype, yd = y->dtype;
    // A Python number divisor: x * (recip c) is torch's x * fl32(1/c) in IEEE and x / c over
    // the reals, where 1.0f / fl32(c) rounds as 1/c in double does (3, 448, 3.3; not 0.001).
    bool reciprocal = false;
    std::optional<TermId> exact_reciprocal;  // 1/c for c a power of two: x * 0.5 as written
    if (op == Op::Div && compute == DType::F32 && (b->kind == K::Float || b->kind == K::Int)) {
      double c = b->kind == K::Float ? b->f : static_cast<double>(b->i);
      reciprocal =
          c != 0 && std::isfinite(c) && static_cast<float>(1.0 / c) == 1.0f / static_cast<float>(c);
      if (reciprocal && !divides_by_reciprocal(fconst(c))) exact_reciprocal = fconst(1.0 / c);
    }
    return on_device(
        wrap(map2(
            in, x, y, out,
            [&](TermId p, TermId q) {
              if (exact_reciprocal) return s.make(Op::Mul, {cast(p, xd), *exact_reciprocal});
              if (reciprocal)
                return s.make(Op::Mul, {cast(p, xd), s.make(Op::Recip, {cast(q, yd)})});
              // torch divides through fmod: its bits are not floor(fl(x/y))'s
              if (op == Op::Floor) {
                TermId t = mk(Op::Floor, {s.make(Op::Div, {cast(p, xd), cast(q, yd)})});
                st.ieee_unfixed.emplace(t,
                                        "torch's floor division of floats (computed through fmod)");
                return t;
              }
              return mk(op, {cast(p, xd), cast(q, yd)});
            },
            at)),
        where);
  }
  Ref matmul(const TensorPtr& a, const TensorPtr& b, Span at) {
    if (a->shape.size() < 1 || b->shape.size() < 1) in.error(at, "matmul of a 0-d tensor");
    // Devices: the second operand on the CPU beside a GPU first is the H100's message
    // (tests/fixtures/gpu/cpu_tensors.txt); the other order raises too, worded as for the others.
    if (a->device == Device::Gpu && b->device == Device::Cpu)
      in.raise(at,
               "RuntimeError: Expected all tensors to be on the same device, but got mat2 is on "
               "cpu, different from other tensors on cuda:0 (when checking argument in method "
               "wrapper_CUDA_mm)");
    if (a->device == Device::Cpu && b->device == Device::Gpu)
      in.raise(at,
               "RuntimeError: Expected all tensors to be on the same device, but found at least "
               "two devices, cuda:0 and cpu!");
    const Device where = a->device == b->device ? a->device : Device::Unknown;
    define_unwritten(in, *a, at);  // torch.empty memory a kernel left: some value, not kUninit
    define_unwritten(in, *b, at);
    TensorPtr x = a, y = b;
    bool vec_a = a->shape.size() == 1, vec_b = b->shape.size() == 1;
    if (vec_a) x = reshaped(a, {1, a->shape[0]});
    if (vec_b) y = reshaped(b, {b->shape[0], 1});
    int64_t m = x->shape[x->shape.size() - 2], k = x->shape.back(),
            k2 = y->shape[y->shape.size() - 2], n = y->shape.back();
    if (k != k2 && a->shape.size() == 2 && b->shape.size() == 2)  // torch's words for mm
      in.raise(at, "RuntimeError: mat1 and mat2 shapes cannot be multiplied (" + std::to_string(m) +
                       "x" + std::to_string(k) + " and " + std::to_string(k2) + "x" +
                       std::to_string(n) + ")");
    if (k != k2)  // torch raises a RuntimeError in each case, in words of its own
      in.raise(at, "RuntimeError: matmul shapes do not match: inner sizes " + std::to_string(k) +
                       " and " + std::to_string(k2));
    std::vector<int64_t> bx(x->shape.begin(), x->shape.end() - 2),
        by(y->shape.begin(), y->shape.end() - 2);
    std::vector<int64_t> batch = broadcast_shapes(in, bx, by, at);
    // torch promotes nothing here: every matmul, mm, bmm and linear checks one dtype (addmm's
    // words, measured on torch 2.11's CPU; a bf16 input to an fp32 nn.Linear raises).
    if (x->dtype != y->dtype)
      in.raise(at, "RuntimeError: mat1 and mat2 must have the same dtype, but got " +
                       std::string(scalar_type_name(x->dtype)) + " and " +
                       std::string(scalar_type_name(y->dtype)));
    DType out = x->dtype;
    auto r = std::make_shared<Tensor>();
    r->shape = batch;
    r->shape.push_back(m);
    r->shape.push_back(n);
    r->dtype = out;
    int64_t nb = 1;
    for (int64_t d : batch) nb *= d;
    Tensor bx_t, by_t;
    bx_t.shape = bx, by_t.shape = by;
    std::vector<int64_t> bidx(batch.size(), 0);
    for (int64_t bi = 0; bi < nb; ++bi) {
      int64_t ox = broadcast_index(bx_t, batch, bidx) * m * k,
              oy = broadcast_index(by_t, batch, bidx) * k * n;
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          std::vector<TermId> terms, column;
          for (int64_t q = 0; q < k; ++q) column.push_back(y->elems[oy + q * n + j]);
          s.make_each(Op::Mul, {x->elems.data() + ox + i * k, static_cast<size_t>(k)}, column,
                      terms);
          r->elems.push_back(round_to(s, out, sum_of_products(terms)));
        }
      for (size_t d = bidx.size(); d-- > 0;) {
        if (++bidx[d] < batch[d]) break;
        bidx[d] = 0;
      }
    }
    if (vec_a || vec_b) {
      std::vector<int64_t> shape(batch);
      if (!vec_a) shape.push_back(m);
      if (!vec_b) shape.push_back(n);
      r->shape = shape;
    }
    r->device = where;
    return wrap(r);
  }
  // torch's reshape: a view of t's storage where its strides give the shape (view_strides),
  // else a contiguous copy; a strided tensor whose torch layout keq does not track stays so.
  TensorPtr reshaped(const TensorPtr& t, std::vector<int64_t> shape) {
    auto r = std::make_shared<Tensor>(*t);
    r->shape = std::move(shape);
    if (!t->strided) {
      same_storage(t, r);
      return r;
    }
    if (t->storage.strides.empty()) return r;
    r->storage = {};
    std::optional<std::vector<int64_t>> st = view_strides(t->shape, t->storage.strides, r->shape);
    r->strided = false;
    if (!st) return r;  // torch copies
    std::vector<int64_t> row_major = r->strides();
    for (size_t d = 0; d < r->shape.size(); ++d)
      r->strided |= r->shape[d] > 1 && (*st)[d] != row_major[d];
    if (r->numel() > 0) strided_view(t, r, 0, *st);
    return r;
  }
  // r becomes a view of t's storage whose first element is t's element `first` (Tensor::write).
  static void same_storage(const TensorPtr& t, const TensorPtr& r, int64_t first = 0) {
    if (!t->storage.members) {
      t->storage.members = std::make_shared<std::vector<std::weak_ptr<Tensor>>>();
      t->storage.members->push_back(t);
    }
    r->storage.members = t->storage.members;
    r->storage.offset = t->storage.offset + first;
    if (!t->storage.version) t->storage.version = std::make_shared<int64_t>(0);
    r->storage.version = t->storage.version;
    auto& members = *r->storage.members;  // views made in a loop: drop the ones gone
    if (members.size() >= 8)
      members.erase(std::remove_if(members.begin(), members.end(),
                                   [](const std::weak_ptr<Tensor>& m) { return m.expired(); }),
                    members.end());
    members.push_back(r);
  }
  // r, whose elements are already read from t, becomes a view of t's storage at `strides` from
  // t's element `first` (positions as t's storage counts them). Strides whose places overlap
  // (stride 0) record each place's elements, so a write reaches every one (Tensor::write).
  static void strided_view(const TensorPtr& t, const TensorPtr& r, int64_t first,
                           const std::vector<int64_t>& strides) {
    same_storage(t, r, first);
    std::vector<int64_t> row_major = r->strides();
    bool dense = true;
    for (size_t d = 0; d < strides.size(); ++d)
      dense = dense && (r->shape[d] == 1 || strides[d] == row_major[d]);
    if (dense) return;
    r->storage.strides = strides;
    std::vector<size_t> order;
    for (size_t d = 0; d < strides.size(); ++d)
      if (r->shape[d] > 1) order.push_back(d);
    std::sort(order.begin(), order.end(),
              [&](size_t p, size_t q) { return strides[p] < strides[q]; });
    int64_t span = 1;
    bool nested = true;
    for (size_t d : order) {
      nested = nested && strides[d] >= span;
      span = strides[d] * r->shape[d];
    }
    if (nested) return;
    auto aliases = std::make_shared<absl::flat_hash_map<int64_t, std::vector<int64_t>>>();
    for (int64_t k = 0; k < r->numel(); ++k) (*aliases)[r->storage_position(k)].push_back(k);
    r->storage.aliases = std::move(aliases);
  }
  TensorPtr permuted(const TensorPtr& t, const std::vector<int64_t>& perm) {
    auto r = std::make_shared<Tensor>();
    r->dtype = t->dtype;
    for (int64_t p : perm) r->shape.push_back(t->shape[p]);
    // A permutation of a tensor whose torch strides keq knows (contiguous, or itself permuted)
    // is a view of its storage with those strides permuted (a weight's .T handed to a kernel
    // with its strides); contiguous still when the dimensions longer than 1 keep their order.
    bool known = !t->strided || !t->storage.strides.empty();
    std::vector<int64_t> layout = t->storage.strides.empty() ? t->strides() : t->storage.strides;
    std::vector<int64_t> view_strides;
    for (int64_t p : perm) view_strides.push_back(layout[p]);
    std::vector<int64_t> row_major = r->strides();
    r->strided = false;
    for (size_t d = 0; d < perm.size(); ++d)
      r->strided |= r->shape[d] > 1 && view_strides[d] != row_major[d];
    r->strided |= !known;
    if (known) {
      same_storage(t, r);
      if (r->strided) r->storage.strides = view_strides;
    }
    r->elems = permuted_elems(*t, perm);
    return r;
  }
  // torch.argmax/argmin: the first index of the extreme, where NaN counts as the extreme.
  TermId arg_extreme(const std::vector<TermId>& v, bool is_max) {
    TermId best = v[0], idx = s.constant(ir::Constant::of_int(ir::Type::I64, 0));
    for (size_t k = 1; k < v.size(); ++k) {
      TermId x = v[k];
      TermId better = mk(is_max ? Op::Gt : Op::Lt, {x, best});
      TermId nan_first = mk(Op::And, {mk(Op::Ne, {x, x}), mk(Op::Eq, {best, best})});
      TermId take = mk(Op::Or, {better, nan_first});
      best = s.make(Op::Select, {take, x, best});
      idx = s.make(
          Op::Select,
          {take, s.constant(ir::Constant::of_int(ir::Type::I64, static_cast<int64_t>(k))), idx});
    }
    return idx;
  }
  TermId sum_of(std::vector<TermId>& v) { return sum_from_zero(s, v); }
  // A matrix product's or convolution's sum of products: two or more are order-unspecified in
  // IEEE (verify's set-aside). One product alone is the result, and the sign of a zero one is the
  // kernel's: -0 * 1 gives -0 from mm, linear and einsum on the CPU and from einsum on CUDA, +0
  // from bmm, conv1d and CUDA's matmuls (tests/fixtures/gpu/signed_zero_sums.txt), so IEEE leaves
  // it unfixed.
  TermId sum_of_products(std::vector<TermId>& products) {
    if (products.empty()) return fconst(0.0);  // a contraction over an empty dimension: +0
    if (products.size() != 1) return s.make(Op::Sum, products);
    st.ieee_zero_sign.emplace(products[0], kOneProduct);
    return products[0];
  }
  TensorPtr conv(const TensorPtr& x, const TensorPtr& w, const TensorPtr& bias,
                 const detail::ConvSpec& c, Span at) {
    std::vector<TermId> one;
    TensorPtr r = detail::convolution(in, x, w, bias, c, at, &one);
    for (TermId p : one) st.ieee_zero_sign.emplace(p, kOneProduct);
    return r;
  }
  static constexpr const char* kOneProduct =
      "a matrix product or convolution over one product (the sign of a zero result is the "
      "kernel's)";
  // row[index] for a symbolic integer index (a gather, a cross-entropy target): one case for
  // each value the index can take over the inputs' domains, which must lie inside the row.
  TermId pick(TermId index, std::span<const TermId> row, Span at, const std::string& what) {
    auto range = int_range_over_inputs(st, s, index);
    if (!range || range->first < 0 || range->second >= static_cast<int64_t>(row.size()))
      in.unsupported(at, what + " with an index that may lie outside [0, " +
                             std::to_string(row.size()) + ") over the inputs' domain");
    std::vector<int64_t> values;
    for (int64_t v = range->first; v <= range->second; ++v) values.push_back(v);
    return ir::select_by_value(s, index, values, row.subspan(range->first, values.size()));
  }
  TermId max_of(std::vector<TermId>& v) { return extremum(Op::AMax, v); }
  TermId min_of(std::vector<TermId>& v) { return extremum(Op::AMin, v); }
  // torch's max and min reductions (amax, max(dim), pooling, cummax) return whichever of -0 and
  // +0 their kernel's order keeps: on the H200 amax gives +0 for [-0, 0] and -0 for [0, -0],
  // max_pool the reverse. keq's amax is one of them, so IEEE proves nothing about these results
  // and refutes only where they are not zero (ieee_zero_sign).
  TermId extremum(Op op, std::vector<TermId>& v) {
    if (v.size() == 1) return v[0];
    TermId t = s.make(op, v);
    mark_zero_order(t);
    return t;
  }
  void mark_zero_order(TermId t) {
    auto kids = s.children(t);
    if (kids.size() > 1 &&
        std::ranges::any_of(kids, [&](TermId c) { return may_be_negative_zero(s, c); }))
      st.ieee_zero_sign.emplace(t, kZeroOrder);
  }
  static constexpr const char* kZeroOrder =
      "torch's max or min over values that may be -0 and +0 (which zero it keeps is its kernel's "
      "order)";
  TensorPtr pool(const TensorPtr& x, const detail::PoolSpec& p, Span at,
                 TensorPtr* indices = nullptr) {
    TensorPtr r = detail::pooling(in, x, p, at, indices);
    for (TermId e : r->elems) {
      while (ir::op_info(s.op(e)).arity == 1 && s.op(e) != Op::AMax) e = s.children(e)[0];
      if (s.op(e) == Op::AMax) mark_zero_order(e);
    }
    return r;
  }
  // Applies f to each slice along dim (a scan, a sort, a softmax), returning the same shape.
  // Memory a kernel left unwritten is some value (define_unwritten), named at `at`.
  TensorPtr along(const TensorPtr& t, int64_t dim,
                  const std::function<std::vector<TermId>(std::vector<TermId>&)>& f, Span at) {
    define_unwritten(in, *t, at);
    TensorPtr p = t;
    int64_t last = static_cast<int64_t>(t->shape.size()) - 1;
    std::vector<int64_t> perm;
    for (int64_t d = 0; d <= last; ++d) perm.push_back(d);
    std::swap(perm[dim], perm[last]);
    if (dim != last) p = permuted(t, perm);
    int64_t len = p->shape.back();
    auto r = std::make_shared<Tensor>(*p);
    for (int64_t off = 0; off < p->numel(); off += len) {
      std::vector<TermId> row(p->elems.begin() + off, p->elems.begin() + off + len);
      std::vector<TermId> out = f(row);
      for (int64_t k = 0; k < len; ++k) r->elems[off + k] = round_to(s, t->dtype, out[k]);
    }
    return dim != last ? permuted(r, perm) : r;
  }
  // The row's max m and exp(x - m) of each member: the stable form softmax, log-softmax and
  // logsumexp share.
  std::pair<TermId, std::vector<TermId>> shifted_exps(const std::vector<TermId>& row) {
    std::vector<TermId> members = row;
    TermId m = max_of(members);
    std::vector<TermId> e;
    for (TermId x : row) e.push_back(mk(Op::Exp, {mk(Op::Sub, {x, m})}));
    return {m, e};
  }
  // The mean of v and its variance with `correction` (0: biased, as layer and group norm take;
  // 1: torch.var's default).
  std::pair<TermId, TermId> mean_variance(std::vector<TermId>& v, double correction) {
    TermId mean = mk(Op::Div, {sum_of(v), fconst(static_cast<double>(v.size()))});
    std::vector<TermId> sq;
    for (TermId e : v) {
      TermId d = mk(Op::Sub, {e, mean});
      sq.push_back(mk(Op::Mul, {d, d}));
    }
    return {mean, mk(Op::Div, {sum_of(sq), fconst(static_cast<double>(v.size()) - correction)})};
  }
  std::vector<TermId> softmax_row(std::vector<TermId>& row, bool log) {
    auto [m, e] = shifted_exps(row);
    TermId total = sum_of(e);
    std::vector<TermId> out;
    TermId log_total = log ? mk(Op::Log, {total}) : 0;
    for (size_t k = 0; k < row.size(); ++k)
      out.push_back(log ? mk(Op::Sub, {mk(Op::Sub, {row[k], m}), log_total})
                        : mk(Op::Div, {e[k], total}));
    return out;
  }
  TensorPtr layer_norm(const TensorPtr& x, const std::vector<int64_t>& shape, const TensorPtr& w,
                       const TensorPtr& b, double eps, Span at) {
    define_unwritten(in, *x, at);
    size_t n = shape.size();
    if (n > x->shape.size() ||
        !std::equal(shape.begin(), shape.end(), x->shape.end() - static_cast<long>(n)))
      in.raise(at,
               "RuntimeError: layer_norm: normalized_shape does not match the input's last "
               "dimensions");
    for (auto [t, name] : {std::pair{w, "weight"}, std::pair{b, "bias"}})
      if (t && t->shape != shape)  // torch's check: a weight of other elements is its error
        in.raise(at, std::string("RuntimeError: Expected ") + name +
                         " to be of same shape as normalized_shape, but got " + name +
                         " of shape " + shape_str(t->shape) +
                         " and normalized_shape = " + shape_str(shape));
    int64_t len = 1;
    for (int64_t d : shape) len *= d;
    auto r = std::make_shared<Tensor>(*x);
    TermId e = fconst(static_cast<float>(eps));
    for (int64_t off = 0; off < x->numel(); off += len) {
      std::vector<TermId> row(x->elems.begin() + off, x->elems.begin() + off + len);
      auto [mean, var] = mean_variance(row, 0);  // biased, as torch's layer_norm
      TermId den = mk(Op::Sqrt, {mk(Op::Add, {var, e})});
      for (int64_t k = 0; k < len; ++k) {
        TermId y = mk(Op::Div, {mk(Op::Sub, {row[k], mean}), den});
        if (w) y = mk(Op::Mul, {y, w->elems[k]});
        if (b) y = mk(Op::Add, {y, b->elems[k]});
        r->elems[off + k] = round_to(s, x->dtype, y);
      }
    }
    return r;
  }

  Ref binary_max(const Ref& a, const Ref& b, Span at, Op op) {
    DType out = promote(a, b, in, at);
    TensorPtr x = as_tensor(in, a, at, out), y = as_tensor(in, b, at, out);
    DType xd = x->dtype, yd = y->dtype;
    return wrap(map2(
        in, x, y, out,
        [&](TermId p, TermId q) {
          return mk(op, {convert(s, p, xd, out), convert(s, q, yd, out)});
        },
        at));
  }
  // An elementwise function of two fp32 operands (promoted, broadcast): composite ops whose
  // narrow-dtype rounding (once, at the end, in torch) the chain of terms would not give.
  Ref float_binary(CallArgs& a, const std::string& name,
                   const std::function<TermId(TermId, TermId)>& f) {
    Ref x = a.pos.at(0), y = a.get(1, "other");
    if (!y) in.error(a.at, name + " needs other");
    DType out = promote(x, y, in, a.at);
    if (out != DType::F32)
      in.unsupported(a.at, name + " of " + std::string(dtype_name(out)) + " tensors");
    TensorPtr p = as_tensor(in, x, a.at, out), q = as_tensor(in, y, a.at, out);
    DType pd = p->dtype, qd = q->dtype;
    return wrap(map2(
        in, p, q, out,
        [&](TermId u, TermId v) { return f(convert(s, u, pd, out), convert(s, v, qd, out)); },
        a.at));
  }
  Ref concat(CallArgs& a, bool stack);
  // The index (:, ..., :, last) that selects `last` along dim.
  Ref index_along(int64_t dim, Ref last) {
    std::vector<Ref> index;
    for (int64_t d = 0; d < dim; ++d) {
      Ref all = std::make_shared<Value>();
      all->kind = K::Slice;
      all->items = {python::none(), python::none(), python::none()};
      index.push_back(all);
    }
    index.push_back(std::move(last));
    return python::tuple(index);
  }
  Ref slice_value(int64_t lo, int64_t hi) {
    Ref sl = std::make_shared<Value>();
    sl->kind = K::Slice;
    sl->items = {python::integer(lo), python::integer(hi), python::none()};
    return sl;
  }
  // The elements t[index] selects (ints, slices with a positive step, None, ...), by flat
  // position in t, in the order of the result's shape.
  struct Selection {
    std::vector<int64_t> shape, flat;
    bool contiguous = true;
    // As a view of the source's storage: torch's strides and the first element's position,
    // from the source's torch strides (its layout, tracked or contiguous).
    std::vector<int64_t> view_strides;
    int64_t view_offset = 0;
  };
  Selection selection(const TensorPtr& t, const Ref& index, Span at);
  Ref subscript(const TensorPtr& t, const Ref& index, Span at);
  // t[i0, i1, ...] where every index is an integer tensor (or int), broadcast together: torch's
  // advanced indexing of the leading dimensions (x[idx], logp[torch.arange(n), target]).
  // Nothing when the index is not of that form.
  Ref integer_array_subscript(const TensorPtr& t, const Ref& index, Span at);
  TermId element_at(const TensorPtr& t, std::span<const TermId> index, int64_t flat, size_t d,
                    Span at);
  void setitem(const TensorPtr& t, const Ref& index, const Ref& value, Span at);
  // t[mask] = value for a boolean mask over t's leading dimensions (y[y < 0] = 0).
  void masked_setitem(const TensorPtr& t, const TensorPtr& mask, const Ref& value, Span at);
  // x moved to the CPU (`to_cpu`) or the GPU: x itself where it is there already, else a copy
  // there (a new storage, as torch's).
  Ref moved(const Ref& x, bool to_cpu) {  // unknown: left as it is (torch may not copy)
    Device to = to_cpu ? Device::Cpu : Device::Gpu, from = x->tensor->device;
    if (from == to || from == Device::Unknown) return x;
    auto r = std::make_shared<Tensor>(*x->tensor);
    r->device = to;
    return wrap(r);
  }
  Ref in_place_method(const Ref& self, const std::string& name);  // nullptr: not one keq knows
  // x OP= v on a host tensor: torch's in-place operator (x += v is x.add_(v)); returns x.
  Ref augmented(const std::string& op, const Ref& x, const Ref& v, Span at);
  // Random initial values (nn.init.normal_, Tensor.uniform_, ...) are symbolic, like torch.randn;
  // t becomes the parameter nn.Parameter(t) then takes as it is.
  void randomize(const TensorPtr& t, const std::string& origin, Span at) {
    TensorPtr fresh = symbolic(origin, t->shape, t->dtype, at, true);
    for (size_t k = 0; k < t->elems.size(); ++k) t->write(k, fresh->elems[k]);
    bump_version(t);
    st.last_symbolic_parameter = t;
  }
  // A parameter a torch module creates: its reset_parameters initialized it once in place, so
  // its _version is 1 (torch 2.11: Linear, Conv*, the norms, Embedding, PReLU).
  static TensorPtr module_weight(TensorPtr t) {
    bump_version(t);
    return t;
  }
  // A layer's parameter: on the CPU while a model is built, as torch makes it (Module.cuda()
  // moves it); one made in forward has an unknown device (a layer's device= is not read).
  Ref layer_parameter(TensorPtr t) {
    st.parameter_objects.push_back(
        {t == st.last_symbolic_parameter ? static_cast<int64_t>(st.parameters.size()) - 1 : -1,
         t.get()});
    t = module_weight(std::move(t));
    if (st.phase == TorchState::Phase::Init) t->device = Device::Cpu;
    return parameter_value(std::move(t));
  }
  // Module.cuda(): every parameter and buffer of m and its submodules to the GPU.
  void move_module_to_gpu(Interp& i2, const Ref& m);
  // Module.to(dtype), half(), bfloat16(), float(): m's floating-point parameters and buffers
  // converted in place.
  void convert_module(Interp& i2, const Ref& m, const Ref& dtype, Span at);
  // torch's factory_kwargs for a built-in layer class's __init__: dtype= makes its parameters in
  // that dtype (parameter_dtype while it runs; what it makes otherwise is converted after), and
  // device= is taken (KernelBench's .cuda() moves the model anyway).
  void take_factory_kwargs(const std::string& cls, Attrs& attrs);
  static void bump_version(const TensorPtr& t) {
    if (!t->storage.version) t->storage.version = std::make_shared<int64_t>(0);
    ++*t->storage.version;
  }
  void write_selection(const TensorPtr& t, const Selection& sel, const TensorPtr& v,
                       const std::string& what, Span at);
  Ref tensor_attr(const Ref& self, const std::string& name, Span at);
  void set_tensor_attr(const Ref& self, const std::string& name, const Ref& v, Span at);
  // The Python number a one-element host tensor holds (t.item(), int(t), `if t:`), decided
  // over the inputs' domains; unsupported where it depends on which inputs are drawn.
  Ref host_scalar(const TensorPtr& t, Span at,
                  const char* unsupported =
                      "a host value that depends on the inputs' values (t.item(), int(t) or "
                      "float(t) of a tensor that differs between inputs in the get_inputs() "
                      "domains)");

  // t.item(), float(t): host_scalar's number, or an InputDependentFloat (python/value.h) where
  // a floating tensor's element depends on the inputs.
  Ref item(const TensorPtr& t, Span at);

  // An int or a tuple of n ints (kernel_size=3 or (3, 3)).
  std::vector<int64_t> tuple_arg(const Ref& v, size_t n, int64_t dflt, Span at) {
    if (!v || v->kind == K::None) return std::vector<int64_t>(n, dflt);
    if (v->kind == K::Tuple || v->kind == K::List) {
      if (v->items.size() != n) in.error(at, "expected " + std::to_string(n) + " values");
      std::vector<int64_t> out;
      for (const Ref& x : v->items) out.push_back(in.to_int(x, at));
      return out;
    }
    return std::vector<int64_t>(n, in.to_int(v, at));
  }
  // Normalizes x over the elements that share key(n, c, spatial index), then applies the
  // per-channel affine (batch, group and instance norms differ only in the key).
  TensorPtr group_normalize(const TensorPtr& x,
                            const std::function<int64_t(int64_t n, int64_t c)>& key, int64_t groups,
                            double eps, const TensorPtr& w, const TensorPtr& b, Span at) {
    if (x->shape.size() < 2) in.error(at, "normalization needs [N, C, ...]");
    define_unwritten(in, *x, at);
    int64_t n_batch = x->shape[0], channels = x->shape[1],
            spatial = x->numel() / (n_batch * channels);
    std::vector<std::vector<TermId>> members(groups);
    for (int64_t n = 0; n < n_batch; ++n)
      for (int64_t c = 0; c < channels; ++c)
        for (int64_t k = 0; k < spatial; ++k)
          members[key(n, c)].push_back(x->elems[(n * channels + c) * spatial + k]);
    std::vector<TermId> mean(groups), den(groups);
    TermId e = fconst(static_cast<float>(eps));
    for (int64_t g = 0; g < groups; ++g) {
      auto [m, var] = mean_variance(members[g], 0);  // biased, as torch's group_norm
      mean[g] = m;
      den[g] = mk(Op::Sqrt, {mk(Op::Add, {var, e})});
    }
    auto r = std::make_shared<Tensor>(*x);
    for (int64_t n = 0; n < n_batch; ++n)
      for (int64_t c = 0; c < channels; ++c) {
        int64_t g = key(n, c);
        for (int64_t k = 0; k < spatial; ++k) {
          int64_t i = (n * channels + c) * spatial + k;
          TermId y = mk(Op::Div, {mk(Op::Sub, {x->elems[i], mean[g]}), den[g]});
          if (w) y = mk(Op::Mul, {y, w->elems[c]});
          if (b) y = mk(Op::Add, {y, b->elems[c]});
          r->elems[i] = round_to(s, x->dtype, y);
        }
      }
    return r;
  }
  void install_conv_pool_norm(const Ref& nn, const Ref& F, Ref module_cls);
  void install_more(const Ref& nn, const Ref& F, Ref module_cls);  // torch.cc: the rest
  void install_module_utils(const Ref& nn);                        // torch.nn.modules.utils
  void install_module_members(Attrs& module_attrs);  // Module.parameters(), modules(), ...
  void place_factories(Attrs& torch_attrs);          // which device a factory's tensor is on

  // An op that did not read one of its call's keyword arguments would compute something else
  // than torch does: out= is torch's (the result written into it), value-irrelevant keywords
  // pass, and any other is UNSUPPORTED.
  void define(const std::string& name, OpFn fn) {
    unchecked_ops[name] = fn;
    ops[name] = [this, name, fn = std::move(fn)](Interp& i2, CallArgs& a) {
      Ref r = fn(i2, a);
      return a.kw.empty() ? r : finish_keywords(name, a, r);
    };
  }
  // torch.NAME is torch.OF under another name (its messages say NAME).
  void alias(const std::string& name, const std::string& of) {
    OpFn fn = unchecked_ops.at(of);  // a copy: define() inserts into the same map
    define(name, std::move(fn));
  }
  Ref finish_keywords(const std::string& op, const CallArgs& a, Ref result);
  void install_resampling(const Ref& F);      // resample.cc: F.pad, F.interpolate
  void install_rearrangements(const Ref& F);  // rearrange.cc: pixel_shuffle, roll, outer, ...
  void install_transformer();  // transformer.cc: nn.TransformerEncoder(Layer), in Python
  // A fresh tensor of `shape` whose element at each index is x's at from(index) (rearrange.cc).
  TensorPtr gathered(const TensorPtr& x, std::vector<int64_t> shape,
                     const std::function<int64_t(const std::vector<int64_t>&)>& from, Span at);
  // A new contiguous tensor holding t's values: no view of t's storage.
  static TensorPtr copied(const TensorPtr& t) {
    auto r = std::make_shared<Tensor>();
    r->shape = t->shape, r->dtype = t->dtype, r->elems = t->elems;
    return r;
  }
  // The offset of an index into a contiguous tensor of `shape`.
  static int64_t flat_offset(const std::vector<int64_t>& shape, const std::vector<int64_t>& idx) {
    int64_t off = 0;
    for (size_t d = 0; d < shape.size(); ++d) off = off * shape[d] + idx[d];
    return off;
  }
  // Keywords that change nothing keq models: every tensor lives on the one GPU, and gradients
  // are not computed.
  static bool value_irrelevant_keyword(const std::string& k) {
    return k == "device" || k == "requires_grad" || k == "non_blocking" || k == "pin_memory";
  }
  // A factory's requires_grad=flag: where true, the result requires grad (TorchState).
  void made_requiring_grad(const Ref& r, const Ref& flag, python::Span at);
  // F.name: the op, under torch.nn.functional.
  void expose(const Ref& F, const std::string& name) {
    (*F->attrs)[name] = python::builtin("F." + name, ops.at(name));
  }
  TermId select(TermId c, TermId a, TermId b) { return s.make(Op::Select, {c, a, b}); }
  // An elementwise function of float tensors, torch.name and Tensor.name (elementwise.cc).
  using ElementFn = std::function<TermId(Torch&, TermId, CallArgs&)>;
  void activation(const std::string& name, ElementFn f);

  // The families, one file each.
  void install_ops();                       // torch.cc: the three below
  void install_elementwise();               // elementwise.cc: math, activations, arithmetic, matmul
  void install_reductions();                // reductions.cc: sum, mean, var, softmax, ...
  void install_views();                     // shape.cc: reshape, permute, cat, split
  void install_creation(const Ref& torch);  // creation.cc
  void install_inductor(const Ref& torch, const Ref& cuda);  // inductor.cc
  Ref assert_size_stride(CallArgs& a);                       // inductor.cc
  Ref convolution(CallArgs& a);                              // inductor.cc
  void install_type_info(const Ref& torch);          // creation.cc: torch.finfo, torch.iinfo
  void install_nn(const Ref& nn, const Ref& F);      // modules.cc: nn.Module and the layers
  void install_init(const Ref& nn);                  // modules.cc: torch.nn.init
  void install_activations(const Ref& F);            // activations.cc: the F.* activations
  void install_scans_and_selection();                // selection.cc
  void install_linalg(const Ref& F);                 // linalg.cc: einsum, attention
  Ref multihead_attention(Interp& i2, CallArgs& a);  // linalg.cc: nn.MultiheadAttention.forward
  Ref bilinear(CallArgs& a);                         // linalg.cc: F.bilinear
  // A module parameter: install_nn's `param` (self, attribute, origin, shape, where, initial).
  using ParamFn = std::function<void(Interp&, const Ref&, const std::string&, const std::string&,
                                     std::vector<int64_t>, Span, std::optional<double>)>;
  void recurrent_init(Interp& i2, CallArgs& a, const std::string& kind, const ParamFn& param);
  Ref recurrent_forward(Interp& i2, CallArgs& a, const std::string& kind);  // recurrent.cc
  void install_losses(const Ref& nn, const Ref& F, const Ref& module_cls);  // losses.cc
  void check_norm_input(const std::string& cls, const Tensor& x, double eps, bool training,
                        int64_t groups, Span at);  // conv_pool_norm.cc
  void install_adaptive_pooling(const Ref& nn, const Ref& F,
                                const Ref& module_cls);  // conv_pool_norm.cc
};

}  // namespace keq::torch::impl
