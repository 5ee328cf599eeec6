#include "frontends/torch/torch.h"

#include <algorithm>
#include <cmath>

#include "frontends/torch/autograd.h"
#include "frontends/torch/conv.h"
#include "frontends/torch/device.h"
#include "frontends/torch/tensor_ops.h"

namespace keq::torch {

using namespace detail;
using python::CallArgs;
using python::Interp;
using python::Span;
using python::Value;
using K = Value::Kind;
using ir::Op;
using ir::TermId;

namespace {

using Attrs = absl::flat_hash_map<std::string, Ref>;
using OpFn = std::function<Ref(Interp&, CallArgs&)>;

// eval() and train(mode) set `training` on a module and every submodule, as torch does.
void set_training(Interp& in, const Ref& v, bool mode, Span at, int depth) {
  if (depth > 64) return;
  if (v->kind == Value::Kind::Instance && v->attrs && v->attrs->contains("training")) {
    in.setattr(v, "training", python::boolean(mode), at);
    for (auto& [k, child] : *v->attrs)
      if (k != "training") set_training(in, child, mode, at, depth + 1);
  } else if (v->kind == Value::Kind::List || v->kind == Value::Kind::Tuple) {
    for (const Ref& x : v->items) set_training(in, x, mode, at, depth + 1);
  }
}

struct Torch {
  Interp& in;
  TorchState& st;
  ir::TermStore& s;
  absl::flat_hash_map<std::string, OpFn> ops;             // torch.X and Tensor.X share these
  absl::flat_hash_map<const Tensor*, int64_t> data_ptrs;  // Tensor.data_ptr() answers

  Ref module(const std::string& name) {
    auto m = std::make_shared<Value>();
    m->kind = K::Module;
    m->s = name;
    m->attrs = std::make_shared<Attrs>();
    return m;
  }

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
  DType dtype_kw(CallArgs& a, DType dflt) {
    Ref d = a.get(SIZE_MAX, "dtype");
    if (!d || d->kind == K::None) return dflt;
    if (d->kind != K::DType) in.error(a.at, "dtype must be a torch dtype");
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
  Ref wrap(TensorPtr t) { return python::tensor_value(std::move(t)); }
  TermId mk(Op op, std::initializer_list<TermId> kids) {
    TermId t = s.make(op, kids);
    if (op == Op::Div && kids.size() == 2 && divides_by_reciprocal(*std::next(kids.begin())))
      st.ieee_unfixed.emplace(t, "division by a constant (torch on CUDA multiplies by 1/c)");
    return t;
  }
  // CUDA torch divides by a scalar as a multiply by its reciprocal (tests/fixtures/gpu:
  // fp8_quantize's / 448.0, hardswish's / 6): the same bits only where 1/c is exact.
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
    list.push_back({name, origin, shape, dtype, at, lo, hi, hi_open});
    auto t = std::make_shared<Tensor>();
    t->shape = std::move(shape);
    t->dtype = dtype;
    std::vector<int64_t> idx(t->shape.size(), 0);
    for (int64_t k = 0; k < t->numel(); ++k) {
      std::string v = name + "[";
      for (size_t d = 0; d < idx.size(); ++d) v += (d ? "," : "") + std::to_string(idx[d]);
      t->elems.push_back(s.variable(v + "]", term_type(dtype)));
      for (size_t d = idx.size(); d-- > 0;) {
        if (++idx[d] < t->shape[d]) break;
        idx[d] = 0;
      }
    }
    if (python::is_float(dtype) && dtype != DType::F32)  // randn(dtype=f16): values of that format
      for (TermId& e : t->elems) e = round_to(s, dtype, e);
    if (&list == &st.parameters) st.last_symbolic_parameter = t;
    return t;
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
    if (!python::is_float(x->dtype) && op != Op::Abs && op != Op::Neg)
      in.unsupported(a.at, name + " of an integer tensor");
    return wrap(map1(
        in, x, x->dtype, [&](TermId e) { return mk(op, {e}); }, a.at));
  }
  Ref binary(const std::string& opname, const Ref& a, const Ref& b, Span at) {
    DType out = promote(a, b, in, at);
    bool cmp = opname == "<" || opname == "<=" || opname == ">" || opname == ">=" ||
               opname == "==" || opname == "!=";
    TensorPtr x = as_tensor(in, a, at, out), y = as_tensor(in, b, at, out);
    DType compute = out;
    if (cmp) out = DType::Bool;
    if (opname == "/" && !python::is_float(compute)) compute = out = DType::F32;
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
    else if (opname == "@")
      return matmul(x, y, at);
    else if (opname == "&" && compute == DType::Bool)
      op = Op::And;
    else if (opname == "|" && compute == DType::Bool)
      op = Op::Or;
    else
      in.unsupported(at, "tensor operator " + opname);
    DType xd = x->dtype, yd = y->dtype;
    return wrap(map2(
        in, x, y, out,
        [&](TermId p, TermId q) {
          return mk(op, {cast(p, xd), cast(q, yd)});
        },
        at));
  }
  Ref matmul(const TensorPtr& a, const TensorPtr& b, Span at) {
    if (a->shape.size() < 1 || b->shape.size() < 1) in.error(at, "matmul of a 0-d tensor");
    TensorPtr x = a, y = b;
    bool vec_a = a->shape.size() == 1, vec_b = b->shape.size() == 1;
    if (vec_a) x = reshaped(a, {1, a->shape[0]});
    if (vec_b) y = reshaped(b, {b->shape[0], 1});
    int64_t m = x->shape[x->shape.size() - 2], k = x->shape.back(),
            k2 = y->shape[y->shape.size() - 2], n = y->shape.back();
    if (k != k2)
      in.error(at, "matmul shapes do not match: inner sizes " + std::to_string(k) + " and " +
                       std::to_string(k2));
    std::vector<int64_t> bx(x->shape.begin(), x->shape.end() - 2),
        by(y->shape.begin(), y->shape.end() - 2);
    std::vector<int64_t> batch = broadcast_shapes(in, bx, by, at);
    DType out = x->dtype == y->dtype ? x->dtype : DType::F32;
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
          std::vector<TermId> terms;
          for (int64_t q = 0; q < k; ++q)
            terms.push_back(mk(Op::Mul, {x->elems[ox + i * k + q], y->elems[oy + q * n + j]}));
          r->elems.push_back(
              round_to(s, out, terms.size() == 1 ? terms[0] : s.make(Op::Sum, terms)));
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
    return wrap(r);
  }
  TensorPtr reshaped(const TensorPtr& t, std::vector<int64_t> shape) {
    auto r = std::make_shared<Tensor>(*t);
    r->shape = std::move(shape);
    return r;
  }
  TensorPtr permuted(const TensorPtr& t, const std::vector<int64_t>& perm) {
    auto r = std::make_shared<Tensor>();
    r->dtype = t->dtype;
    for (int64_t p : perm) r->shape.push_back(t->shape[p]);
    // Contiguous still when the dimensions longer than 1 keep their order.
    int64_t last = -1;
    r->strided = t->strided;
    for (int64_t p : perm)
      if (t->shape[p] > 1) {
        if (p < last) r->strided = true;
        last = p;
      }
    std::vector<int64_t> st = t->strides();
    std::vector<int64_t> idx(r->shape.size(), 0);
    for (int64_t k = 0; k < t->numel(); ++k) {
      int64_t src = 0;
      for (size_t d = 0; d < idx.size(); ++d) src += idx[d] * st[perm[d]];
      r->elems.push_back(t->elems[src]);
      for (size_t d = idx.size(); d-- > 0;) {
        if (++idx[d] < r->shape[d]) break;
        idx[d] = 0;
      }
    }
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
  TermId sum_of(std::vector<TermId>& v) { return v.size() == 1 ? v[0] : s.make(Op::Sum, v); }
  TermId max_of(std::vector<TermId>& v) { return v.size() == 1 ? v[0] : s.make(Op::AMax, v); }
  TermId min_of(std::vector<TermId>& v) { return v.size() == 1 ? v[0] : s.make(Op::AMin, v); }
  // Applies f to each slice along dim (softmax and friends), returning the same shape.
  TensorPtr along(const TensorPtr& t, int64_t dim,
                  const std::function<std::vector<TermId>(std::vector<TermId>&)>& f) {
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
  std::vector<TermId> softmax_row(std::vector<TermId>& row, bool log) {
    TermId m = max_of(row);
    std::vector<TermId> e;
    for (TermId x : row) e.push_back(mk(Op::Exp, {mk(Op::Sub, {x, m})}));
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
    size_t n = shape.size();
    if (n > x->shape.size() ||
        !std::equal(shape.begin(), shape.end(), x->shape.end() - static_cast<long>(n)))
      in.error(at, "layer_norm: normalized_shape does not match the input's last dimensions");
    int64_t len = 1;
    for (int64_t d : shape) len *= d;
    auto r = std::make_shared<Tensor>(*x);
    TermId count = fconst(static_cast<double>(len)), e = fconst(static_cast<float>(eps));
    for (int64_t off = 0; off < x->numel(); off += len) {
      std::vector<TermId> row(x->elems.begin() + off, x->elems.begin() + off + len);
      TermId mean = mk(Op::Div, {sum_of(row), count});
      std::vector<TermId> sq;
      for (TermId v : row) {
        TermId d = mk(Op::Sub, {v, mean});
        sq.push_back(mk(Op::Mul, {d, d}));
      }
      TermId var = mk(Op::Div, {sum_of(sq), count});  // biased, as torch's layer_norm
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
  Ref subscript(const TensorPtr& t, const Ref& index, Span at);
  Ref tensor_attr(const Ref& self, const std::string& name, Span at);

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
    check_initialized(in, *x, at);
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
      TermId count = fconst(static_cast<double>(members[g].size()));
      mean[g] = mk(Op::Div, {sum_of(members[g]), count});
      std::vector<TermId> sq;
      for (TermId v : members[g]) {
        TermId d = mk(Op::Sub, {v, mean[g]});
        sq.push_back(mk(Op::Mul, {d, d}));
      }
      den[g] =
          mk(Op::Sqrt, {mk(Op::Add, {mk(Op::Div, {sum_of(sq), count}), e})});  // biased variance
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
  void install_more(const Ref& nn, const Ref& F, Ref module_cls);
  TensorPtr along_dim(const TensorPtr& t, int64_t dim,
                      const std::function<std::vector<TermId>(std::vector<TermId>&)>& f) {
    return along(t, dim, f);
  }

  void define(const std::string& name, OpFn fn) { ops[name] = std::move(fn); }
  void install_ops();
  void install_creation(const Ref& torch);
  void install_nn(const Ref& nn, const Ref& F);
};

}  // namespace
}  // namespace keq::torch

namespace keq::torch {
namespace {

void Torch::install_ops() {
  // Elementwise math: every op the table spells in torch.
  for (auto [name, op] : ir::ops_spelled("torch")) {
    Op o = op;
    std::string n(name);
    define(n, [this, o, n](Interp&, CallArgs& a) { return elementwise(a, o, n); });
  }
  auto act = [&](const std::string& name, std::function<TermId(Torch&, TermId, CallArgs&)> f) {
    define(name, [this, f, name](Interp&, CallArgs& a) {
      TensorPtr x = tensor_arg(a, 0, "input");
      if (!python::is_float(x->dtype)) in.unsupported(a.at, name + " of an integer tensor");
      return wrap(map1(
          in, x, x->dtype, [&](TermId e) { return f(*this, e, a); }, a.at));
    });
  };
  act("relu", [](Torch& t, TermId x, CallArgs&) { return t.mk(Op::Max, {x, t.fconst(0)}); });
  act("relu6", [](Torch& t, TermId x, CallArgs&) {
    return t.s.make(Op::Clamp, {x, t.fconst(0), t.fconst(6)});
  });
  act("silu", [](Torch& t, TermId x, CallArgs&) {
    return t.mk(Op::Mul, {x, t.mk(Op::Sigmoid, {x})});
  });
  act("gelu", [](Torch& t, TermId x, CallArgs& a) {
    Ref approx = a.get(SIZE_MAX, "approximate");
    if (approx && approx->kind == K::Str &&
        approx->s == "tanh") {  // 0.5x(1 + tanh(sqrt(2/pi)(x + 0.044715x^3)))
      // torch's kernels use the fp32 constants kBeta = sqrt(2/pi) and 0.044715.
      TermId c = t.fconst(static_cast<float>(std::sqrt(2.0 / M_PI)));
      TermId inner =
          t.mk(Op::Mul,
               {c, t.mk(Op::Add, {x, t.mk(Op::Mul, {t.fconst(static_cast<float>(0.044715)),
                                                    t.mk(Op::Mul, {x, t.mk(Op::Mul, {x, x})})})})});
      return t.mk(Op::Mul, {t.mk(Op::Mul, {t.fconst(0.5), x}),
                            t.mk(Op::Add, {t.fconst(1), t.mk(Op::Tanh, {inner})})});
    }
    if (approx && !(approx->kind == K::Str && approx->s == "none"))
      t.in.error(a.at, "gelu: approximate must be 'none' or 'tanh'");
    // torch: x * 0.5 * (1 + erf(x * kAlpha)) with kAlpha = M_SQRT1_2 as an fp32 constant.
    TermId scaled = t.mk(Op::Mul, {x, t.fconst(static_cast<float>(M_SQRT1_2))});
    return t.mk(Op::Mul, {t.mk(Op::Mul, {x, t.fconst(0.5)}),
                          t.mk(Op::Add, {t.fconst(1), t.mk(Op::Erf, {scaled})})});
  });
  act("leaky_relu", [](Torch& t, TermId x, CallArgs& a) {
    TermId slope = t.fconst(static_cast<float>(t.float_arg(a, 1, "negative_slope", 0.01)));
    return t.s.make(Op::Select, {t.mk(Op::Gt, {x, t.fconst(0)}), x, t.mk(Op::Mul, {x, slope})});
  });
  act("softplus", [](Torch& t, TermId x, CallArgs& a) {  // torch: x where beta*x > threshold
    double beta = t.float_arg(a, 1, "beta", 1), threshold = t.float_arg(a, 2, "threshold", 20);
    TermId bx = t.mk(Op::Mul, {x, t.fconst(static_cast<float>(beta))});
    TermId soft = t.mk(Op::Div, {t.mk(Op::Log, {t.mk(Op::Add, {t.fconst(1), t.mk(Op::Exp, {bx})})}),
                                 t.fconst(static_cast<float>(beta))});
    return t.s.make(Op::Select,
                    {t.mk(Op::Gt, {bx, t.fconst(static_cast<float>(threshold))}), x, soft});
  });
  act("mish", [](Torch& t, TermId x, CallArgs&) {
    TermId bx = x, soft = t.mk(Op::Log, {t.mk(Op::Add, {t.fconst(1), t.mk(Op::Exp, {x})})});
    TermId sp = t.s.make(Op::Select, {t.mk(Op::Gt, {bx, t.fconst(20)}), x, soft});
    return t.mk(Op::Mul, {x, t.mk(Op::Tanh, {sp})});
  });
  act("elu", [](Torch& t, TermId x, CallArgs& a) {
    TermId alpha = t.fconst(static_cast<float>(t.float_arg(a, 1, "alpha", 1)));
    TermId neg = t.mk(Op::Mul, {alpha, t.mk(Op::Sub, {t.mk(Op::Exp, {x}), t.fconst(1)})});
    return t.s.make(Op::Select, {t.mk(Op::Gt, {x, t.fconst(0)}), x, neg});
  });
  act("selu", [](Torch& t, TermId x, CallArgs&) {
    TermId alpha = t.fconst(static_cast<float>(1.6732632423543772848170429916717));
    TermId scale = t.fconst(static_cast<float>(1.0507009873554804934193349852946));
    TermId neg = t.mk(Op::Mul, {alpha, t.mk(Op::Sub, {t.mk(Op::Exp, {x}), t.fconst(1)})});
    return t.mk(Op::Mul, {scale, t.s.make(Op::Select, {t.mk(Op::Gt, {x, t.fconst(0)}), x, neg})});
  });
  act("hardtanh", [](Torch& t, TermId x, CallArgs& a) {
    return t.s.make(Op::Clamp, {x, t.fconst(static_cast<float>(t.float_arg(a, 1, "min_val", -1))),
                                t.fconst(static_cast<float>(t.float_arg(a, 2, "max_val", 1)))});
  });
  act("hardsigmoid", [](Torch& t, TermId x, CallArgs&) {
    return t.mk(Op::Div,
                {t.s.make(Op::Clamp, {t.mk(Op::Add, {x, t.fconst(3)}), t.fconst(0), t.fconst(6)}),
                 t.fconst(6)});
  });
  act("hardswish", [](Torch& t, TermId x, CallArgs&) {
    return t.mk(Op::Div, {t.mk(Op::Mul, {x, t.s.make(Op::Clamp, {t.mk(Op::Add, {x, t.fconst(3)}),
                                                                 t.fconst(0), t.fconst(6)})}),
                          t.fconst(6)});
  });
  act("softsign", [](Torch& t, TermId x, CallArgs&) {
    return t.mk(Op::Div, {x, t.mk(Op::Add, {t.fconst(1), t.mk(Op::Abs, {x})})});
  });
  define("clamp", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    Ref lo = a.get(1, "min"), hi = a.get(2, "max");
    if ((!lo || lo->kind == K::None) && (!hi || hi->kind == K::None))
      in.error(a.at, "clamp needs min or max");
    Ref cur = wrap(x);
    if (lo && lo->kind != K::None) cur = binary_max(cur, lo, a.at, Op::Max);
    if (hi && hi->kind != K::None) cur = binary_max(cur, hi, a.at, Op::Min);
    return cur;
  });
  ops["clip"] = ops["clamp"];
  define("maximum", [this](Interp&, CallArgs& a) {
    return binary_max(a.pos.at(0), a.pos.at(1), a.at, Op::Max);
  });
  define("minimum", [this](Interp&, CallArgs& a) {
    return binary_max(a.pos.at(0), a.pos.at(1), a.at, Op::Min);
  });
  define("where", [this](Interp&, CallArgs& a) {
    TensorPtr c = tensor_arg(a, 0, "condition");
    if (c->dtype != DType::Bool) in.error(a.at, "where: condition must be bool");
    DType out = promote(a.pos.at(1), a.pos.at(2), in, a.at);
    TensorPtr x = as_tensor(in, a.pos[1], a.at, out), y = as_tensor(in, a.pos[2], a.at, out);
    DType xd = x->dtype, yd = y->dtype;
    return wrap(map3(
        in, c, x, y, out,
        [&](TermId p, TermId q, TermId r) {
          return s.make(Op::Select, {p, convert(s, q, xd, out), convert(s, r, yd, out)});
        },
        a.at));
  });
  define("pow",
         [this](Interp&, CallArgs& a) { return binary("**", a.pos.at(0), a.pos.at(1), a.at); });
  // add/sub scale the second operand by alpha=; div's rounding_mode= is not modelled.
  for (const char* name : {"add", "sub"}) {
    std::string op = name == std::string("add") ? "+" : "-";
    define(name, [this, op](Interp&, CallArgs& a) {
      Ref other = a.get(1, "other");
      if (!other)
        in.error(a.at, "torch." + std::string(op == "+" ? "add" : "sub") + " needs other");
      if (Ref alpha = a.get(2, "alpha"); alpha && alpha->kind != K::None)
        other = binary("*", other, alpha, a.at);
      return binary(op, a.pos.at(0), other, a.at);
    });
  }
  define("mul", [this](Interp&, CallArgs& a) {
    return binary("*", a.pos.at(0), a.get(1, "other"), a.at);
  });
  define("div", [this](Interp&, CallArgs& a) {
    if (Ref mode = a.get(2, "rounding_mode"); mode && mode->kind != K::None)
      in.unsupported(a.at, "div with rounding_mode=");
    return binary("/", a.pos.at(0), a.get(1, "other"), a.at);
  });
  ops["multiply"] = ops["mul"];
  ops["divide"] = ops["true_divide"] = ops["div"];
  ops["subtract"] = ops["sub"];
  // Matrix products.
  define("matmul", [this](Interp&, CallArgs& a) {
    return matmul(tensor_arg(a, 0, "input"), tensor_arg(a, 1, "other"), a.at);
  });
  ops["mm"] = ops["bmm"] = ops["matmul"];
  define("addmm", [this](Interp&, CallArgs& a) {
    Ref prod = matmul(tensor_arg(a, 1, "mat1"), tensor_arg(a, 2, "mat2"), a.at);
    return binary("+", a.pos.at(0), prod, a.at);
  });
  // Reductions.
  auto reduction = [&](const std::string& name,
                       std::function<TermId(Torch&, std::vector<TermId>&)> f, bool mean) {
    define(name, [this, f, mean](Interp&, CallArgs& a) {
      TensorPtr x = tensor_arg(a, 0, "input");
      bool all;
      std::vector<int64_t> dims = dims_arg(a, 1, *x, &all);
      bool keep = bool_arg(a, 2, "keepdim", false);
      DType out = dtype_kw(a, mean && !python::is_float(x->dtype) ? DType::F32 : x->dtype);
      return wrap(reduce(
          in, x, dims, keep, out,
          [&](std::vector<TermId>& v) {
            TermId r = f(*this, v);
            return mean ? mk(Op::Div, {r, fconst(static_cast<double>(v.size()))}) : r;
          },
          a.at));
    });
  };
  reduction(
      "sum", [](Torch& t, std::vector<TermId>& v) { return t.sum_of(v); }, false);
  reduction(
      "mean", [](Torch& t, std::vector<TermId>& v) { return t.sum_of(v); }, true);
  reduction(
      "amax", [](Torch& t, std::vector<TermId>& v) { return t.max_of(v); }, false);
  reduction(
      "amin", [](Torch& t, std::vector<TermId>& v) { return t.min_of(v); }, false);
  reduction(
      "prod",
      [](Torch& t, std::vector<TermId>& v) { return v.size() == 1 ? v[0] : t.s.make(Op::Prod, v); },
      false);
  reduction(
      "logsumexp",
      [](Torch& t, std::vector<TermId>& v) {
        TermId m = t.max_of(v);
        std::vector<TermId> e;
        for (TermId x : v) e.push_back(t.mk(Op::Exp, {t.mk(Op::Sub, {x, m})}));
        return t.mk(Op::Add, {m, t.mk(Op::Log, {t.sum_of(e)})});
      },
      false);
  for (const char* name : {"max", "min"}) {
    bool is_max = std::string(name) == "max";
    define(name, [this, is_max](Interp&, CallArgs& a) -> Ref {
      TensorPtr x = tensor_arg(a, 0, "input");
      Ref d = a.get(1, "dim");
      if (d && d->kind == K::Tensor)
        return binary_max(a.pos[0], d, a.at, is_max ? Op::Max : Op::Min);
      if (!d || d->kind == K::None) {
        bool all;
        return wrap(reduce(
            in, x, dims_arg(a, SIZE_MAX, *x, &all), false, x->dtype,
            [&](std::vector<TermId>& v) { return is_max ? max_of(v) : min_of(v); }, a.at));
      }
      // With a dim: (values, indices). Indices of ties and NaN follow torch's rules, which are
      // not modelled: only the values are available.
      int64_t dim = norm_dim(in, in.to_int(d, a.at), x->shape.size(), a.at);
      Ref values = wrap(reduce(
          in, x, {dim}, bool_arg(a, 2, "keepdim", false), x->dtype,
          [&](std::vector<TermId>& v) { return is_max ? max_of(v) : min_of(v); }, a.at));
      Ref indices = wrap(reduce(
          in, x, {dim}, bool_arg(a, 2, "keepdim", false), DType::I64,
          [&](std::vector<TermId>& v) { return arg_extreme(v, is_max); }, a.at));
      Ref r = python::tuple({values, indices});
      r->s = "values,indices";  // torch.return_types: .values and .indices too
      return r;
    });
  }
  auto variance = [&](const std::string& name, bool sqrt) {
    define(name, [this, sqrt](Interp&, CallArgs& a) {
      TensorPtr x = tensor_arg(a, 0, "input");
      bool all;
      std::vector<int64_t> dims = dims_arg(a, 1, *x, &all);
      double correction = 1;
      if (Ref u = a.get(2, "unbiased"); u && u->kind == K::Bool) correction = u->b ? 1 : 0;
      if (Ref c = a.get(SIZE_MAX, "correction"); c && c->kind != K::None)
        correction = in.to_float(c, a.at);
      bool keep = bool_arg(a, 3, "keepdim", false);
      return wrap(reduce(
          in, x, dims, keep, x->dtype,
          [&](std::vector<TermId>& v) {
            TermId mean = mk(Op::Div, {sum_of(v), fconst(static_cast<double>(v.size()))});
            std::vector<TermId> sq;
            for (TermId e : v) {
              TermId d = mk(Op::Sub, {e, mean});
              sq.push_back(mk(Op::Mul, {d, d}));
            }
            TermId var =
                mk(Op::Div, {sum_of(sq), fconst(static_cast<double>(v.size()) - correction)});
            return sqrt ? mk(Op::Sqrt, {var}) : var;
          },
          a.at));
    });
  };
  variance("var", false);
  variance("std", true);
  define("norm", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    // p='fro' is the 2-norm of the elements (over dim when given): the same sum of squares.
    Ref p = a.get(1, "p");
    bool fro = p && p->kind == K::Str && p->s == "fro";
    if (p && p->kind == K::Str && !fro) in.unsupported(a.at, "norm with p='" + p->s + "'");
    if (!fro && float_arg(a, 1, "p", 2) != 2) in.unsupported(a.at, "norm with p other than 2");
    bool all;
    std::vector<int64_t> dims = dims_arg(a, 2, *x, &all);
    return wrap(reduce(
        in, x, dims, bool_arg(a, 3, "keepdim", false), x->dtype,
        [&](std::vector<TermId>& v) {
          std::vector<TermId> sq;
          for (TermId e : v) sq.push_back(mk(Op::Mul, {e, e}));
          return mk(Op::Sqrt, {sum_of(sq)});
        },
        a.at));
  });
  for (bool log : {false, true}) {
    define(log ? "log_softmax" : "softmax", [this, log](Interp&, CallArgs& a) {
      TensorPtr x = tensor_arg(a, 0, "input");
      Ref d = a.get(1, "dim");
      if (!d || d->kind == K::None) in.error(a.at, "softmax needs dim");
      int64_t dim = norm_dim(in, in.to_int(d, a.at), x->shape.size(), a.at);
      return wrap(along(x, dim, [&](std::vector<TermId>& row) { return softmax_row(row, log); }));
    });
  }
  // Views and shape changes.
  define("reshape", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    std::vector<int64_t> shape = sizes(a, 1, "shape");
    int64_t known = 1, infer = -1;
    for (size_t k = 0; k < shape.size(); ++k) {
      if (shape[k] == -1) {
        if (infer >= 0) in.error(a.at, "only one dimension can be inferred");
        infer = static_cast<int64_t>(k);
      } else {
        known *= shape[k];
      }
    }
    if (infer >= 0) shape[infer] = known ? x->numel() / known : 0;
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    if (n != x->numel())
      in.error(a.at, "shape does not match the " + std::to_string(x->numel()) + " elements");
    return wrap(reshaped(x, shape));
  });
  ops["view"] = ops["reshape"];
  define("flatten", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    int64_t r = static_cast<int64_t>(x->shape.size());
    if (r == 0) return wrap(reshaped(x, {1}));
    int64_t lo = norm_dim(in, int_arg(a, 1, "start_dim").value_or(0), x->shape.size(), a.at);
    int64_t hi = norm_dim(in, int_arg(a, 2, "end_dim").value_or(-1), x->shape.size(), a.at);
    std::vector<int64_t> shape(x->shape.begin(), x->shape.begin() + lo);
    int64_t m = 1;
    for (int64_t d = lo; d <= hi; ++d) m *= x->shape[d];
    shape.push_back(m);
    shape.insert(shape.end(), x->shape.begin() + hi + 1, x->shape.end());
    return wrap(reshaped(x, shape));
  });
  define("permute", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    std::vector<int64_t> perm = sizes(a, 1, "dims");
    if (perm.size() != x->shape.size()) in.error(a.at, "permute: wrong number of dimensions");
    for (int64_t& p : perm) p = norm_dim(in, p, x->shape.size(), a.at);
    return wrap(permuted(x, perm));
  });
  define("transpose", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    int64_t d0 = norm_dim(in, int_arg(a, 1, "dim0").value_or(0), x->shape.size(), a.at);
    int64_t d1 = norm_dim(in, int_arg(a, 2, "dim1").value_or(1), x->shape.size(), a.at);
    std::vector<int64_t> perm;
    for (size_t d = 0; d < x->shape.size(); ++d) perm.push_back(static_cast<int64_t>(d));
    std::swap(perm[d0], perm[d1]);
    return wrap(permuted(x, perm));
  });
  define("t", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    if (x->shape.size() < 2) return wrap(x);
    return wrap(permuted(x, {1, 0}));
  });
  define("unsqueeze", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    int64_t d = in.to_int(a.get(1, "dim"), a.at);
    if (d < 0) d += static_cast<int64_t>(x->shape.size()) + 1;
    std::vector<int64_t> shape = x->shape;
    shape.insert(shape.begin() + d, 1);
    return wrap(reshaped(x, shape));
  });
  define("squeeze", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    std::optional<int64_t> d = int_arg(a, 1, "dim");
    std::vector<int64_t> shape;
    for (size_t k = 0; k < x->shape.size(); ++k) {
      bool drop = x->shape[k] == 1 &&
                  (!d || norm_dim(in, *d, x->shape.size(), a.at) == static_cast<int64_t>(k));
      if (!drop) shape.push_back(x->shape[k]);
    }
    return wrap(reshaped(x, shape));
  });
  define("contiguous", [this](Interp&, CallArgs& a) {
    auto r = std::make_shared<Tensor>(*tensor_arg(a, 0, "input"));
    r->strided = false;
    return wrap(r);
  });
  define("is_contiguous", [this](Interp&, CallArgs& a) {
    return python::boolean(!tensor_arg(a, 0, "input")->strided);
  });
  define("stride", [this](Interp&, CallArgs& a) -> Ref {
    TensorPtr x = tensor_arg(a, 0, "input");
    if (x->strided)
      in.unsupported(a.at,
                     "stride() of a view whose torch layout is not contiguous (keq models "
                     "contiguous layouts; call .contiguous() first)");
    std::vector<int64_t> st = x->strides();
    if (Ref d = a.get(1, "dim"); d && d->kind != K::None)
      return python::integer(st[norm_dim(in, in.to_int(d, a.at), x->shape.size(), a.at)]);
    std::vector<Ref> items;
    for (int64_t v : st) items.push_back(python::integer(v));
    return python::tuple(items);
  });
  define("select", [this](Interp&, CallArgs& a) {  // x.select(dim, i) is x[..., i, ...]
    TensorPtr x = tensor_arg(a, 0, "input");
    int64_t dim = norm_dim(in, in.to_int(a.get(1, "dim"), a.at), x->shape.size(), a.at);
    return subscript(x, index_along(dim, a.get(2, "index")), a.at);
  });
  for (bool is_max : {true, false}) {
    define(is_max ? "argmax" : "argmin", [this, is_max](Interp&, CallArgs& a) {
      TensorPtr x = tensor_arg(a, 0, "input");
      Ref d = a.get(1, "dim");
      bool flat = !d || d->kind == K::None;
      TensorPtr src = flat ? reshaped(x, {x->numel()}) : x;
      int64_t dim = flat ? 0 : norm_dim(in, in.to_int(d, a.at), x->shape.size(), a.at);
      return wrap(reduce(
          in, src, {dim}, !flat && bool_arg(a, 2, "keepdim", false), DType::I64,
          [&](std::vector<TermId>& v) { return arg_extreme(v, is_max); }, a.at));
    });
  }
  for (bool by_count : {false, true}) {
    define(by_count ? "chunk" : "split", [this, by_count](Interp&, CallArgs& a) {
      TensorPtr x = tensor_arg(a, 0, "input");
      Ref spec = a.get(1, by_count ? "chunks" : "split_size_or_sections");
      if (!spec) in.error(a.at, "split/chunk needs a size");
      int64_t dim = norm_dim(in, int_arg(a, 2, "dim").value_or(0), x->shape.size(), a.at);
      int64_t n = x->shape[dim];
      std::vector<int64_t> parts;
      if (spec->kind == K::List || spec->kind == K::Tuple) {
        for (const Ref& p : spec->items) parts.push_back(in.to_int(p, a.at));
      } else {
        int64_t size = in.to_int(spec, a.at);
        if (size <= 0) in.error(a.at, "split/chunk size must be positive");
        if (by_count) size = (n + size - 1) / size;  // torch.chunk: ceil(n / chunks) per piece
        for (int64_t lo = 0; lo < n; lo += size) parts.push_back(std::min(size, n - lo));
      }
      std::vector<Ref> out;
      int64_t lo = 0;
      for (int64_t len : parts) {
        out.push_back(subscript(x, index_along(dim, slice_value(lo, lo + len)), a.at));
        lo += len;
      }
      if (lo != n) in.error(a.at, "split sizes do not add up to the dimension");
      return python::tuple(out);
    });
  }
  define("cat", [this](Interp&, CallArgs& a) { return concat(a, false); });
  ops["concat"] = ops["cat"];
  define("stack", [this](Interp&, CallArgs& a) { return concat(a, true); });
}

}  // namespace
}  // namespace keq::torch

namespace keq::torch {
namespace {

Ref Torch::concat(CallArgs& a, bool stack) {
  Ref seq = a.get(0, "tensors");
  if (!seq) in.error(a.at, "missing tensors");
  std::vector<TensorPtr> ts;
  for (const Ref& v : in.to_sequence(seq, a.at)) {
    if (v->kind != K::Tensor) in.error(a.at, "cat/stack of a non-tensor");
    ts.push_back(v->tensor);
  }
  if (ts.empty()) in.error(a.at, "cat/stack of no tensors");
  int64_t rank = static_cast<int64_t>(ts[0]->shape.size()) + (stack ? 1 : 0);
  int64_t dim = in.to_int(a.get(1, "dim") ? a.get(1, "dim") : python::integer(0), a.at);
  if (dim < 0) dim += rank;
  if (dim < 0 || dim >= rank) in.error(a.at, "dimension out of range");
  if (stack)
    for (TensorPtr& t : ts) {
      std::vector<int64_t> shape = t->shape;
      shape.insert(shape.begin() + dim, 1);
      t = reshaped(t, shape);
    }
  std::vector<int64_t> shape = ts[0]->shape;
  shape[dim] = 0;
  for (const TensorPtr& t : ts) {
    if (t->shape.size() != shape.size() || t->dtype != ts[0]->dtype)
      in.error(a.at, "cat/stack: tensors differ in rank or dtype");
    for (size_t d = 0; d < shape.size(); ++d)
      if (static_cast<int64_t>(d) != dim && t->shape[d] != ts[0]->shape[d])
        in.error(a.at, "cat/stack: sizes differ");
    shape[dim] += t->shape[dim];
  }
  auto r = std::make_shared<Tensor>();
  r->shape = shape;
  r->dtype = ts[0]->dtype;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= shape[d];
  for (size_t d = dim + 1; d < shape.size(); ++d) inner *= shape[d];
  for (int64_t o = 0; o < outer; ++o)
    for (const TensorPtr& t : ts) {
      int64_t chunk = t->shape[dim] * inner;
      r->elems.insert(r->elems.end(), t->elems.begin() + o * chunk,
                      t->elems.begin() + (o + 1) * chunk);
    }
  return wrap(r);
}

// Basic indexing: ints, slices (any step), None and one Ellipsis. Tensor indices are advanced
// indexing, which is not modelled.
// A view picks one contiguous run of memory when, from the last dimension back, every dimension
// is whole, then one is a step-1 range, and every one before it picks a single position.
static bool contiguous_picks(const std::vector<std::vector<int64_t>>& pick,
                             const std::vector<int64_t>& shape) {
  size_t d = pick.size();
  while (d > 0 && static_cast<int64_t>(pick[d - 1].size()) == shape[d - 1]) --d;
  if (d == 0) return true;
  const auto& p = pick[d - 1];
  for (size_t k = 1; k < p.size(); ++k)
    if (p[k] != p[k - 1] + 1) return false;
  for (size_t q = 0; q + 1 < d; ++q)
    if (pick[q].size() > 1) return false;
  return true;
}

Ref Torch::subscript(const TensorPtr& t, const Ref& index, Span at) {
  std::vector<Ref> idx = index->kind == K::Tuple ? index->items : std::vector<Ref>{index};
  size_t consumed = 0;
  for (const Ref& i : idx)
    if (i->kind != K::None && i->kind != K::Ellipsis) ++consumed;
  if (consumed > t->shape.size())
    in.error(at, "too many indices for a tensor of rank " + std::to_string(t->shape.size()));
  // Per source dimension: the selected positions; per output dimension: where it comes from.
  std::vector<std::vector<int64_t>> pick(t->shape.size());
  std::vector<int64_t> out_shape;
  std::vector<int> out_src;  // source dim, or -1 for a new axis
  size_t d = 0;
  for (const Ref& i : idx) {
    if (i->kind == K::None) {
      out_shape.push_back(1);
      out_src.push_back(-1);
    } else if (i->kind == K::Ellipsis) {
      size_t skip = t->shape.size() - consumed;
      for (size_t k = 0; k < skip; ++k, ++d) {
        for (int64_t p = 0; p < t->shape[d]; ++p) pick[d].push_back(p);
        out_shape.push_back(t->shape[d]);
        out_src.push_back(static_cast<int>(d));
      }
    } else if (i->kind == K::Int || i->kind == K::Bool) {
      int64_t p = i->i < 0 ? i->i + t->shape[d] : i->i;
      if (p < 0 || p >= t->shape[d])
        in.error(at, "index " + std::to_string(i->i) + " is out of bounds for size " +
                         std::to_string(t->shape[d]));
      pick[d++] = {p};
    } else if (i->kind == K::Slice) {
      int64_t n = t->shape[d];
      auto get = [&](int k) -> std::optional<int64_t> {
        return i->items[k]->kind == K::None ? std::nullopt
                                            : std::optional(in.to_int(i->items[k], at));
      };
      int64_t step = get(2).value_or(1);
      if (step <= 0) in.unsupported(at, "slices with a step that is not positive");
      int64_t lo = get(0).value_or(0), hi = get(1).value_or(n);
      if (lo < 0) lo += n;
      if (hi < 0) hi += n;
      lo = std::clamp<int64_t>(lo, 0, n), hi = std::clamp<int64_t>(hi, 0, n);
      for (int64_t p = lo; p < hi; p += step) pick[d].push_back(p);
      out_shape.push_back(static_cast<int64_t>(pick[d].size()));
      out_src.push_back(static_cast<int>(d));
      ++d;
    } else if (i->kind == K::Tensor) {
      in.unsupported(at, "indexing a tensor with a tensor (advanced or data-dependent indexing)");
    } else {
      in.error(at, "a tensor index must be an int, a slice, None or ...");
    }
  }
  for (; d < t->shape.size(); ++d) {
    for (int64_t p = 0; p < t->shape[d]; ++p) pick[d].push_back(p);
    out_shape.push_back(t->shape[d]);
    out_src.push_back(static_cast<int>(d));
  }
  auto r = std::make_shared<Tensor>();
  r->shape = out_shape;
  r->dtype = t->dtype;
  r->strided = t->strided || !contiguous_picks(pick, t->shape);
  std::vector<int64_t> strides = t->strides();
  // Walk every combination of picks (source dims in order).
  std::vector<size_t> pos(t->shape.size(), 0);
  int64_t total = 1;
  for (auto& p : pick) total *= static_cast<int64_t>(p.size());
  for (int64_t k = 0; k < total; ++k) {
    int64_t flat = 0;
    for (size_t q = 0; q < pos.size(); ++q) flat += pick[q][pos[q]] * strides[q];
    r->elems.push_back(t->elems[flat]);
    for (size_t q = pos.size(); q-- > 0;) {
      if (++pos[q] < pick[q].size()) break;
      pos[q] = 0;
    }
  }
  return wrap(r);
}

Ref Torch::tensor_attr(const Ref& self, const std::string& name, Span at) {
  const TensorPtr& t = self->tensor;
  if (name == "shape") {
    std::vector<Ref> dims;
    for (int64_t d : t->shape) dims.push_back(python::integer(d));
    return python::tuple(dims);
  }
  if (name == "dtype") return python::dtype_value(t->dtype);
  if (name == "ndim") return python::integer(static_cast<int64_t>(t->shape.size()));
  if (name == "T") {
    std::vector<int64_t> perm;
    for (size_t d = t->shape.size(); d-- > 0;) perm.push_back(static_cast<int64_t>(d));
    return wrap(permuted(t, perm));
  }
  if (name == "device") {
    auto dev = std::make_shared<Value>();
    dev->kind = K::Device;
    dev->s = "cuda:0";
    st.host_assumptions.insert("tensor.device is cuda:0 (keq models the H200 KernelBench runs on)");
    return dev;
  }
  if (name == "is_cuda" || name == "is_cpu") {
    st.host_assumptions.insert("tensor.is_cuda is True (keq models the H200 KernelBench runs on)");
    return python::boolean(name == "is_cuda");
  }
  auto method = [&](const OpFn& f) {
    return python::builtin("Tensor." + name, [self, f](Interp& i2, CallArgs& a) {
      a.pos.insert(a.pos.begin(), self);
      return f(i2, a);
    });
  };
  if (auto it = ops.find(name); it != ops.end()) return method(it->second);
  auto self_fn = [&](std::function<Ref(Interp&, CallArgs&)> f) { return method(std::move(f)); };
  if (name == "size")
    return self_fn([this](Interp&, CallArgs& a) -> Ref {
      const TensorPtr& x = a.pos[0]->tensor;
      if (a.pos.size() > 1)
        return python::integer(
            x->shape[norm_dim(in, in.to_int(a.pos[1], a.at), x->shape.size(), a.at)]);
      std::vector<Ref> dims;
      for (int64_t d : x->shape) dims.push_back(python::integer(d));
      return python::tuple(dims);
    });
  if (name == "dim")
    return self_fn([](Interp&, CallArgs& a) {
      return python::integer(static_cast<int64_t>(a.pos[0]->tensor->shape.size()));
    });
  if (name == "numel")
    return self_fn([](Interp&, CallArgs& a) { return python::integer(a.pos[0]->tensor->numel()); });
  if (name == "cuda" || name == "cpu" || name == "detach" || name == "clone")
    return self_fn([](Interp&, CallArgs& a) { return a.pos[0]; });
  if (name == "element_size")
    return self_fn([](Interp&, CallArgs& a) {
      DType d = a.pos[0]->tensor->dtype;
      int64_t bytes = d == DType::F32 || d == DType::I32    ? 4
                      : d == DType::I64                     ? 8
                      : d == DType::F16 || d == DType::BF16 ? 2
                                                            : 1;
      return python::integer(bytes);
    });
  if (name == "data_ptr")
    return self_fn([this](Interp&, CallArgs& a) {
      // Distinct tensors get distinct addresses, each aligned as the caching allocator aligns
      // a fresh allocation (keq's tensors are contiguous and start at their buffer).
      auto [it, fresh] = data_ptrs.try_emplace(
          a.pos[0]->tensor.get(), (int64_t{0x7f} << 40) + (int64_t(data_ptrs.size()) << 30));
      st.host_assumptions.insert(
          "data_ptr() is 1 GiB-aligned and distinct per tensor (a fresh CUDA allocation)");
      return python::integer(it->second);
    });
  auto cast_to = [&](DType d) {
    return self_fn([this, d](Interp&, CallArgs& a) {
      TensorPtr x = a.pos[0]->tensor;
      DType from = x->dtype;
      return wrap(map1(
          in, x, d, [&](TermId e) { return convert(s, e, from, d); }, a.at));
    });
  };
  if (name == "float") return cast_to(DType::F32);
  if (name == "half") return cast_to(DType::F16);
  if (name == "bfloat16") return cast_to(DType::BF16);
  if (name == "int") return cast_to(DType::I32);
  if (name == "long") return cast_to(DType::I64);
  if (name == "bool") return cast_to(DType::Bool);
  if (name == "to" || name == "type")
    return self_fn([this](Interp&, CallArgs& a) -> Ref {
      Ref target;
      for (size_t k = 1; k < a.pos.size(); ++k)
        if (a.pos[k]->kind == K::DType) target = a.pos[k];
      if (Ref d = a.get(SIZE_MAX, "dtype")) target = d;
      if (!target) return a.pos[0];  // .to(device)
      TensorPtr x = a.pos[0]->tensor;
      DType from = x->dtype, to = target->dtype;
      return wrap(map1(
          in, x, to, [&](TermId e) { return convert(s, e, from, to); }, a.at));
    });
  if (name == "expand")
    return self_fn([this](Interp&, CallArgs& a) {
      TensorPtr x = a.pos[0]->tensor;
      std::vector<int64_t> shape = sizes(a, 1);
      size_t off = shape.size() - x->shape.size();
      for (size_t d = 0; d < x->shape.size(); ++d)
        if (shape[d + off] == -1) shape[d + off] = x->shape[d];
      TensorPtr zero = filled(shape, x->dtype, 0);
      TensorPtr r = map2(
          in, x, zero, x->dtype, [](TermId p, TermId) { return p; }, a.at);
      r->strided |= r->numel() != x->numel();  // broadcast dimensions have stride 0
      return wrap(r);
    });
  if (name == "repeat")
    return self_fn([this](Interp&, CallArgs& a) {
      TensorPtr x = a.pos[0]->tensor;
      std::vector<int64_t> reps = sizes(a, 1);
      if (reps.size() < x->shape.size()) in.error(a.at, "repeat: too few dimensions");
      std::vector<int64_t> shape(reps.size() - x->shape.size(), 1);
      shape.insert(shape.end(), x->shape.begin(), x->shape.end());
      TensorPtr base = reshaped(x, shape);
      auto r = std::make_shared<Tensor>();
      r->dtype = x->dtype;
      for (size_t d = 0; d < shape.size(); ++d) r->shape.push_back(shape[d] * reps[d]);
      std::vector<int64_t> idx(r->shape.size(), 0), st = base->strides();
      for (int64_t k = 0; k < r->numel(); ++k) {
        int64_t flat = 0;
        for (size_t d = 0; d < idx.size(); ++d) flat += (idx[d] % shape[d]) * st[d];
        r->elems.push_back(base->elems[flat]);
        for (size_t d = idx.size(); d-- > 0;) {
          if (++idx[d] < r->shape[d]) break;
          idx[d] = 0;
        }
      }
      return wrap(r);
    });
  in.unsupported(at, "Tensor." + name + " is not modelled");
}

}  // namespace
}  // namespace keq::torch

namespace keq::torch {
namespace {

using BuiltinFn = python::BuiltinFn;

void Torch::install_creation(const Ref& torch) {
  auto& t = *torch->attrs;
  auto def = [&](const std::string& name, BuiltinFn fn) {
    t[name] = python::builtin("torch." + name, std::move(fn));
  };
  for (DType d : {DType::F32, DType::F16, DType::BF16, DType::E4M3, DType::E5M2, DType::I32,
                  DType::I64, DType::Bool})
    t[std::string(python::dtype_name(d))] = python::dtype_value(d);
  t["float"] = t["float32"], t["half"] = t["float16"], t["int"] = t["int32"],
  t["long"] = t["int64"];
  for (const char* name : {"randn", "rand"}) {
    std::string n = name;
    bool unit = n == "rand";  // rand: [0, 1); randn: any finite value
    def(n, [this, n, unit](Interp&, CallArgs& a) {
      return wrap(symbolic("torch." + n, sizes(a, 0), dtype_kw(a, DType::F32), a.at, false,
                           unit ? 0 : -INFINITY, unit ? 1 : INFINITY, unit));
    });
    def(n + "_like", [this, n](Interp&, CallArgs& a) {
      TensorPtr x = tensor_arg(a, 0, "input");
      TensorPtr r = symbolic("torch." + n + "_like", x->shape, dtype_kw(a, x->dtype), a.at, false);
      r->strided = x->strided;  // *_like keeps the input's strides (preserve_format)
      return wrap(r);
    });
  }
  def("randint", [this](Interp&, CallArgs& a) {
    // randint(high, size) or randint(low, high, size): integers in [low, high).
    size_t size_at = a.pos.size() >= 3 ? 2 : 1;
    Ref size = a.get(size_at, "size");
    if (!size) in.error(a.at, "randint needs a size");
    CallArgs sz;
    sz.pos = {size};
    sz.at = a.at;
    int64_t lo = a.pos.size() >= 3 ? in.to_int(a.pos[0], a.at) : 0;
    int64_t hi = in.to_int(a.pos.size() >= 3 ? a.pos[1] : a.pos.at(0), a.at);
    if (lo >= hi) in.error(a.at, "randint: low must be below high");
    return wrap(symbolic("torch.randint", sizes(sz, 0), dtype_kw(a, DType::I64), a.at, false,
                         static_cast<double>(lo), static_cast<double>(hi), true));
  });
  for (const char* name : {"zeros", "ones", "empty"}) {
    std::string n = name;
    std::optional<double> v = n == "zeros"  ? std::optional(0.0)
                              : n == "ones" ? std::optional(1.0)
                                            : std::nullopt;
    def(n, [this, v, n](Interp&, CallArgs& a) {
      std::vector<int64_t> shape = sizes(a, 0);
      in.check_shape(a.at, shape, "torch." + n);
      return wrap(filled(shape, dtype_kw(a, DType::F32), v));
    });
    def(n + "_like", [this, v](Interp&, CallArgs& a) {
      TensorPtr x = tensor_arg(a, 0, "input");
      TensorPtr r = filled(x->shape, dtype_kw(a, x->dtype), v);
      r->strided = x->strided;  // *_like keeps the input's strides (preserve_format)
      return wrap(r);
    });
  }
  def("full", [this](Interp&, CallArgs& a) {
    Ref v = a.get(1, "fill_value");
    if (!v) in.error(a.at, "full needs a fill value");
    CallArgs sz;
    sz.pos = {a.pos.at(0)};
    sz.at = a.at;
    DType d = dtype_kw(a, v->kind == K::Float  ? DType::F32
                          : v->kind == K::Bool ? DType::Bool
                                               : DType::I64);
    std::vector<int64_t> shape = sizes(sz, 0);
    in.check_shape(a.at, shape, "torch.full");
    return wrap(filled(shape, d, in.to_float(v, a.at)));
  });
  def("tensor", [this](Interp&, CallArgs& a) {  // concrete data: nested lists of numbers
    Ref data = a.get(0, "data");
    if (!data) in.error(a.at, "torch.tensor needs data");
    std::vector<int64_t> shape;
    std::vector<Ref> flat;
    bool any_float = false, all_bool = true;
    std::function<void(const Ref&, size_t)> walk = [&](const Ref& v, size_t depth) {
      if (v->kind == K::List || v->kind == K::Tuple) {
        if (depth == shape.size())
          shape.push_back(static_cast<int64_t>(v->items.size()));
        else if (shape[depth] != static_cast<int64_t>(v->items.size()))
          in.error(a.at, "torch.tensor: ragged nested lists");
        for (const Ref& x : v->items) walk(x, depth + 1);
        return;
      }
      if (v->kind == K::Tensor) in.unsupported(a.at, "torch.tensor of tensors");
      any_float = any_float || v->kind == K::Float;
      all_bool = all_bool && v->kind == K::Bool;
      flat.push_back(v);
    };
    walk(data, 0);
    DType d = dtype_kw(a, any_float                   ? DType::F32
                          : all_bool && !flat.empty() ? DType::Bool
                                                      : DType::I64);
    auto r = std::make_shared<Tensor>();
    r->shape = shape;
    r->dtype = d;
    for (const Ref& v : flat) r->elems.push_back(constant(s, d, in.to_float(v, a.at)));
    return wrap(r);
  });
  def("arange", [this](Interp&, CallArgs& a) {
    double lo = 0, hi, step = 1;
    bool any_float = false;
    for (const Ref& p : a.pos) any_float = any_float || p->kind == K::Float;
    if (a.pos.size() == 1)
      hi = in.to_float(a.pos[0], a.at);
    else
      lo = in.to_float(a.pos.at(0), a.at), hi = in.to_float(a.pos.at(1), a.at);
    if (a.pos.size() > 2) step = in.to_float(a.pos[2], a.at);
    if (step == 0 || !std::isfinite(lo) || !std::isfinite(hi) || !std::isfinite(step))
      in.error(a.at, "RuntimeError: torch.arange needs a finite start, end and a nonzero step");
    double count = std::ceil((hi - lo) / step);
    in.check_count(a.at, count > 9e18 ? INT64_MAX : static_cast<int64_t>(std::max(count, 0.0)),
                   "torch.arange");
    DType d = dtype_kw(a, any_float ? DType::F32 : DType::I64);
    auto r = std::make_shared<Tensor>();
    r->dtype = d;
    for (double v = lo; step > 0 ? v < hi : v > hi; v += step)
      r->elems.push_back(constant(s, d, v));
    r->shape = {static_cast<int64_t>(r->elems.size())};
    return wrap(r);
  });
  for (bool lower : {true, false}) {
    def(lower ? "tril" : "triu", [this, lower](Interp&, CallArgs& a) {
      TensorPtr x = tensor_arg(a, 0, "input");
      int64_t diag = int_arg(a, 1, "diagonal").value_or(0);
      if (x->shape.size() < 2) in.error(a.at, "tril/triu need a matrix");
      auto r = std::make_shared<Tensor>(*x);
      int64_t rows = x->shape[x->shape.size() - 2], cols = x->shape.back();
      TermId zero = constant(s, x->dtype, 0);
      for (int64_t k = 0; k < x->numel(); ++k) {
        int64_t i = (k / cols) % rows, j = k % cols;
        bool keep = lower ? j - i <= diag : j - i >= diag;
        if (!keep) r->elems[k] = zero;
      }
      return wrap(r);
    });
  }
  for (const char* name : {"no_grad", "inference_mode", "enable_grad"}) {
    std::string n = name;
    def(n, [this, n](Interp&, CallArgs&) {
      Ref ctx = module(std::string("context:") + n);
      return ctx;
    });
  }
  def("device", [this](Interp&, CallArgs& a) {
    auto dev = std::make_shared<Value>();
    dev->kind = K::Device;
    dev->s = a.pos.empty() ? "cuda" : in.repr(a.pos[0]);
    return Ref(dev);
  });
  // KernelBench runs on a GPU: torch.cuda.is_available() is True in the modelled world.
  Ref cuda = module("torch.cuda");
  (*cuda->attrs)["is_available"] = python::builtin(
      "torch.cuda.is_available", [](Interp&, CallArgs&) { return python::boolean(true); });
  (*cuda->attrs)["synchronize"] =
      python::builtin("torch.cuda.synchronize", [](Interp&, CallArgs&) { return python::none(); });
  install_cuda_queries(st, cuda);
  install_autograd(in, torch);
  t["cuda"] = cuda;
  for (auto& [name, fn] : ops) t[name] = python::builtin("torch." + name, fn);
  // torch.Tensor, for isinstance.
  t["Tensor"] = in.make_class("Tensor", nullptr, std::make_shared<Attrs>());
}

void Torch::install_nn(const Ref& nn, const Ref& F) {
  auto& fa = *F->attrs;
  for (const char* name :
       {"relu", "relu6", "gelu", "sigmoid", "tanh", "silu", "softmax", "log_softmax", "leaky_relu",
        "softplus", "elu", "selu", "hardtanh", "hardsigmoid", "hardswish", "mish", "softsign"})
    fa[name] = python::builtin(std::string("F.") + name, ops.at(name));
  fa["linear"] = python::builtin("F.linear", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input"), w = tensor_arg(a, 1, "weight");
    Ref y = matmul(x, permuted(w, {1, 0}), a.at);
    Ref b = a.get(2, "bias");
    return b && b->kind != K::None ? binary("+", y, b, a.at) : y;
  });
  fa["layer_norm"] = python::builtin("F.layer_norm", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    CallArgs sz;
    sz.pos = {a.get(1, "normalized_shape")};
    sz.at = a.at;
    Ref w = a.get(2, "weight"), b = a.get(3, "bias");
    return wrap(layer_norm(x, sizes(sz, 0), w && w->kind == K::Tensor ? w->tensor : nullptr,
                           b && b->kind == K::Tensor ? b->tensor : nullptr,
                           float_arg(a, 4, "eps", 1e-5), a.at));
  });
  fa["dropout"] = python::builtin("F.dropout", [this](Interp&, CallArgs& a) -> Ref {
    double p = float_arg(a, 1, "p", 0.5);
    bool training = bool_arg(a, 2, "training", true);
    if (p != 0 && training) in.unsupported(a.at, "dropout with p > 0 in training mode is random");
    return a.pos.at(0);
  });

  // nn.Module and the layers. A layer is a class whose __init__ and forward are builtins.
  auto& na = *nn->attrs;
  auto module_attrs = std::make_shared<Attrs>();
  (*module_attrs)["__init__"] = python::builtin("Module.__init__", [](Interp& i2, CallArgs& a) {
    i2.setattr(a.pos.at(0), "training", python::boolean(true), a.at);
    return python::none();
  });
  (*module_attrs)["__call__"] = python::builtin("Module.__call__", [](Interp& i2, CallArgs& a) {
    Ref self = a.pos.at(0);
    a.pos.erase(a.pos.begin());
    return i2.call(i2.getattr(self, "forward", a.at), a);
  });
  for (const char* same : {"cuda", "cpu", "to", "float", "requires_grad_"})
    (*module_attrs)[same] = python::builtin(std::string("Module.") + same,
                                            [](Interp&, CallArgs& a) { return a.pos.at(0); });
  (*module_attrs)["eval"] = python::builtin("Module.eval", [](Interp& i2, CallArgs& a) {
    set_training(i2, a.pos.at(0), false, a.at, 0);
    return a.pos.at(0);
  });
  (*module_attrs)["train"] = python::builtin("Module.train", [](Interp& i2, CallArgs& a) {
    Ref mode = a.get(1, "mode");
    set_training(i2, a.pos.at(0), !mode || i2.truthy(mode, a.at), a.at, 0);
    return a.pos.at(0);
  });
  Ref module_cls = in.make_class("Module", nullptr, module_attrs);
  na["Module"] = module_cls;
  na["Parameter"] = python::builtin("nn.Parameter", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "data");
    if (x == st.last_symbolic_parameter) return a.pos[0];  // nn.Parameter(torch.randn(...))
    bool deterministic = std::all_of(x->elems.begin(), x->elems.end(), [&](TermId e) {
      return e != Tensor::kUninit && s.op(e) == Op::Const;
    });
    if (st.params_initial && deterministic) return a.pos[0];
    // Trained weights can be anything: the initial values are not the parameter's.
    return wrap(symbolic("nn.Parameter", x->shape, x->dtype, a.at, true));
  });
  auto layer = [&](const std::string& name, BuiltinFn init, BuiltinFn forward) {
    auto attrs = std::make_shared<Attrs>();
    (*attrs)["__init__"] = python::builtin(name + ".__init__", [init](Interp& i2, CallArgs& a) {
      i2.setattr(a.pos.at(0), "training", python::boolean(true), a.at);
      return init(i2, a);
    });
    (*attrs)["forward"] = python::builtin(name + ".forward", std::move(forward));
    na[name] = in.make_class(name, module_cls, attrs);
  };
  // A module weight; `initial` is its deterministic initial value (1 or 0), if it has one.
  auto param = [this](Interp& i2, const Ref& self, const std::string& attr,
                      const std::string& origin, std::vector<int64_t> shape, Span at,
                      std::optional<double> initial = std::nullopt) {
    if (st.params_initial && initial) {
      i2.setattr(self, attr, wrap(filled(std::move(shape), DType::F32, *initial)), at);
      return;
    }
    i2.setattr(self, attr, wrap(symbolic(origin, std::move(shape), DType::F32, at, true)), at);
  };
  auto x_of = [this](CallArgs& a) { return tensor_arg(a, 1, "input"); };
  layer(
      "Linear",
      [this, param](Interp& i2, CallArgs& a) {
        int64_t fin = i2.to_int(a.get(1, "in_features"), a.at),
                fout = i2.to_int(a.get(2, "out_features"), a.at);
        param(i2, a.pos[0], "weight", "nn.Linear.weight", {fout, fin}, a.at);
        if (bool_arg(a, 3, "bias", true))
          param(i2, a.pos[0], "bias", "nn.Linear.bias", {fout}, a.at);
        else
          i2.setattr(a.pos[0], "bias", python::none(), a.at);
        return python::none();
      },
      [this, x_of](Interp& i2, CallArgs& a) {
        Ref self = a.pos.at(0);
        Ref y = matmul(x_of(a), permuted(i2.getattr(self, "weight", a.at)->tensor, {1, 0}), a.at);
        Ref b = i2.getattr(self, "bias", a.at);
        return b->kind == K::None ? y : binary("+", y, b, a.at);
      });
  auto norm_init = [this, param](const std::string& origin, bool has_bias_default) {
    return [this, param, origin, has_bias_default](Interp& i2, CallArgs& a) {
      Ref shape_v = a.get(1, "normalized_shape");
      CallArgs sz;
      sz.pos = {shape_v};
      sz.at = a.at;
      std::vector<int64_t> shape = sizes(sz, 0);
      Ref self = a.pos[0];
      i2.setattr(self, "normalized_shape", shape_v, a.at);
      // As torch stores it: LayerNorm's eps defaults to 1e-5, RMSNorm's to None.
      Ref eps = a.get(2, "eps");
      bool layer_norm = origin == "nn.LayerNorm";
      i2.setattr(self, "eps",
                 eps          ? eps
                 : layer_norm ? python::floating(1e-5)
                              : python::none(),
                 a.at);
      bool affine = bool_arg(a, 3, "elementwise_affine", true);
      if (affine)
        param(i2, self, "weight", origin + ".weight", shape, a.at, 1.0);
      else
        i2.setattr(self, "weight", python::none(), a.at);
      if (affine && has_bias_default && bool_arg(a, 4, "bias", true))
        param(i2, self, "bias", origin + ".bias", shape, a.at, 0.0);
      else
        i2.setattr(self, "bias", python::none(), a.at);
      return python::none();
    };
  };
  layer("LayerNorm", norm_init("nn.LayerNorm", true), [this, x_of](Interp& i2, CallArgs& a) {
    Ref self = a.pos.at(0);
    CallArgs sz;
    sz.pos = {i2.getattr(self, "normalized_shape", a.at)};
    sz.at = a.at;
    Ref w = i2.getattr(self, "weight", a.at), b = i2.getattr(self, "bias", a.at),
        eps = i2.getattr(self, "eps", a.at);
    return wrap(layer_norm(x_of(a), sizes(sz, 0), w->kind == K::Tensor ? w->tensor : nullptr,
                           b->kind == K::Tensor ? b->tensor : nullptr,
                           eps->kind == K::None ? 1e-5 : i2.to_float(eps, a.at), a.at));
  });
  layer("RMSNorm", norm_init("nn.RMSNorm", false), [this, x_of](Interp& i2, CallArgs& a) {
    Ref self = a.pos.at(0);
    TensorPtr x = x_of(a);
    CallArgs sz;
    sz.pos = {i2.getattr(self, "normalized_shape", a.at)};
    sz.at = a.at;
    std::vector<int64_t> shape = sizes(sz, 0);
    int64_t len = 1;
    for (int64_t d : shape) len *= d;
    Ref w = i2.getattr(self, "weight", a.at), epsv = i2.getattr(self, "eps", a.at);
    // eps=None: torch uses the dtype's machine epsilon (fp32: 2^-23).
    double eps = epsv->kind == K::None ? std::ldexp(1.0, -23) : i2.to_float(epsv, a.at);
    auto r = std::make_shared<Tensor>(*x);
    for (int64_t off = 0; off < x->numel(); off += len) {
      std::vector<TermId> sq;
      for (int64_t k = 0; k < len; ++k)
        sq.push_back(mk(Op::Mul, {x->elems[off + k], x->elems[off + k]}));
      TermId rstd =
          mk(Op::Rsqrt, {mk(Op::Add, {mk(Op::Div, {sum_of(sq), fconst(static_cast<double>(len))}),
                                      fconst(static_cast<float>(eps))})});
      for (int64_t k = 0; k < len; ++k) {
        TermId y = mk(Op::Mul, {x->elems[off + k], rstd});
        if (w->kind == K::Tensor) y = mk(Op::Mul, {y, w->tensor->elems[k]});
        r->elems[off + k] = round_to(s, x->dtype, y);
      }
    }
    return wrap(r);
  });
  // Stateless layers forward to the functional op with their constructor's arguments.
  auto functional_layer = [&](const std::string& name, const std::string& op,
                              std::vector<std::string> params) {
    layer(
        name,
        [params](Interp& i2, CallArgs& a) {
          for (size_t k = 0; k < params.size(); ++k)
            if (Ref v = a.get(k + 1, params[k])) i2.setattr(a.pos[0], params[k], v, a.at);
          return python::none();
        },
        [this, op, params](Interp& i2, CallArgs& a) {
          Ref self = a.pos.at(0);
          CallArgs c;
          c.at = a.at;
          c.pos = {a.pos.at(1)};
          for (const std::string& p : params)
            if (self->attrs->contains(p)) c.kw.push_back({p, (*self->attrs)[p]});
          return ops.at(op)(i2, c);
        });
  };
  functional_layer("ReLU", "relu", {});
  functional_layer("ReLU6", "relu6", {});
  functional_layer("GELU", "gelu", {"approximate"});
  functional_layer("Sigmoid", "sigmoid", {});
  functional_layer("Tanh", "tanh", {});
  functional_layer("SiLU", "silu", {});
  functional_layer("Mish", "mish", {});
  functional_layer("Softsign", "softsign", {});
  functional_layer("Hardsigmoid", "hardsigmoid", {});
  functional_layer("Hardswish", "hardswish", {});
  functional_layer("Softmax", "softmax", {"dim"});
  functional_layer("LogSoftmax", "log_softmax", {"dim"});
  functional_layer("LeakyReLU", "leaky_relu", {"negative_slope"});
  functional_layer("ELU", "elu", {"alpha"});
  functional_layer("SELU", "selu", {});
  functional_layer("Hardtanh", "hardtanh", {"min_val", "max_val"});
  functional_layer("Softplus", "softplus", {"beta", "threshold"});
  functional_layer("Flatten", "flatten", {"start_dim", "end_dim"});
  layer(
      "Identity", [](Interp&, CallArgs&) { return python::none(); },
      [](Interp&, CallArgs& a) { return a.pos.at(1); });
  layer(
      "Dropout",
      [](Interp& i2, CallArgs& a) {
        i2.setattr(a.pos[0], "p", a.get(1, "p") ? a.get(1, "p") : python::floating(0.5), a.at);
        return python::none();
      },
      [](Interp& i2, CallArgs& a) -> Ref {
        Ref self = a.pos.at(0);
        if (i2.to_float(i2.getattr(self, "p", a.at), a.at) != 0 &&
            i2.truthy(i2.getattr(self, "training", a.at), a.at))
          i2.unsupported(a.at, "nn.Dropout with p > 0 in training mode is random");
        return a.pos.at(1);
      });
  layer(
      "Sequential",
      [](Interp& i2, CallArgs& a) {
        std::vector<Ref> mods(a.pos.begin() + 1, a.pos.end());
        i2.setattr(a.pos[0], "_modules_list", python::list(mods), a.at);
        return python::none();
      },
      [](Interp& i2, CallArgs& a) {
        Ref x = a.pos.at(1);
        for (const Ref& m : i2.getattr(a.pos[0], "_modules_list", a.at)->items) {
          CallArgs c;
          c.at = a.at;
          c.pos = {x};
          x = i2.call(m, c);
        }
        return x;
      });
  // nn.ModuleList: a list of modules (iteration, indexing, len, append are the list's).
  na["ModuleList"] = python::builtin("nn.ModuleList", [](Interp& i2, CallArgs& a) {
    Ref mods = a.get(0, "modules");
    return python::list(mods && mods->kind != K::None ? i2.to_sequence(mods, a.at)
                                                      : std::vector<Ref>{});
  });
  install_conv_pool_norm(nn, F, module_cls);
  install_more(nn, F, module_cls);
}

void Torch::install_conv_pool_norm(const Ref& nn, const Ref& F, Ref module_cls) {
  auto& na = *nn->attrs;
  auto& fa = *F->attrs;
  auto optional_tensor = [](const Ref& v) {
    return v && v->kind == K::Tensor ? v->tensor : TensorPtr();
  };
  // ---- convolutions ----
  for (int nd = 1; nd <= 3; ++nd)
    for (bool transposed : {false, true}) {
      std::string suffix = std::to_string(nd) + "d";
      auto spec_from = [this, nd, transposed](CallArgs& a, const Ref& stride, const Ref& padding,
                                              const Ref& dilation, const Ref& groups,
                                              const Ref& output_padding,
                                              const std::vector<int64_t>& ksize) {
        ConvSpec c;
        c.transposed = transposed;
        c.stride = tuple_arg(stride, nd, 1, a.at);
        c.dilation = tuple_arg(dilation, nd, 1, a.at);
        c.output_padding = tuple_arg(output_padding, nd, 0, a.at);
        c.groups = groups && groups->kind != K::None ? in.to_int(groups, a.at) : 1;
        if (padding && padding->kind == K::Str) {
          if (padding->s == "valid") {
            c.padding.assign(nd, 0);
          } else if (padding->s == "same" && !transposed) {
            for (int d = 0; d < nd; ++d) {
              int64_t total = c.dilation[d] * (ksize[d] - 1);
              if (c.stride[d] != 1 || total % 2)
                in.unsupported(a.at, "padding='same' that is not symmetric");
              c.padding.push_back(total / 2);
            }
          } else {
            in.error(a.at, "padding must be 'valid', 'same' or numbers");
          }
        } else {
          c.padding = tuple_arg(padding, nd, 0, a.at);
        }
        return c;
      };
      std::string fname = transposed ? "conv_transpose" + suffix : "conv" + suffix;
      fa[fname] = python::builtin("F." + fname, [this, spec_from, transposed, optional_tensor](
                                                    Interp&, CallArgs& a) {
        TensorPtr x = tensor_arg(a, 0, "input"), w = tensor_arg(a, 1, "weight");
        std::vector<int64_t> ksize(w->shape.begin() + 2, w->shape.end());
        // F.conv: (input, weight, bias, stride, padding, dilation, groups);
        // F.conv_transpose: (input, weight, bias, stride, padding, output_padding, groups,
        // dilation).
        ConvSpec c =
            transposed ? spec_from(a, a.get(3, "stride"), a.get(4, "padding"), a.get(7, "dilation"),
                                   a.get(6, "groups"), a.get(5, "output_padding"), ksize)
                       : spec_from(a, a.get(3, "stride"), a.get(4, "padding"), a.get(5, "dilation"),
                                   a.get(6, "groups"), nullptr, ksize);
        return wrap(convolution(in, x, w, optional_tensor(a.get(2, "bias")), c, a.at));
      });
      std::string cls = transposed ? "ConvTranspose" + suffix : "Conv" + suffix;
      auto attrs = std::make_shared<Attrs>();
      (*attrs)["__init__"] = python::builtin(cls + ".__init__", [this, nd, transposed, cls](
                                                                    Interp& i2, CallArgs& a) {
        Ref self = a.pos.at(0);
        i2.setattr(self, "training", python::boolean(true), a.at);
        int64_t cin = i2.to_int(a.get(1, "in_channels"), a.at),
                cout = i2.to_int(a.get(2, "out_channels"), a.at);
        std::vector<int64_t> k = tuple_arg(a.get(3, "kernel_size"), nd, 1, a.at);
        // Positions count self: Conv(self, in, out, kernel, stride, padding, dilation, groups,
        // bias); ConvTranspose(self, in, out, kernel, stride, padding, output_padding, groups,
        // bias, dilation).
        Ref groups = a.get(7, "groups");
        int64_t g = groups && groups->kind != K::None ? i2.to_int(groups, a.at) : 1;
        std::vector<int64_t> wshape =
            transposed ? std::vector<int64_t>{cin, cout / g} : std::vector<int64_t>{cout, cin / g};
        wshape.insert(wshape.end(), k.begin(), k.end());
        i2.setattr(self, "weight",
                   wrap(symbolic("nn." + cls + ".weight", wshape, DType::F32, a.at, true)), a.at);
        bool has_bias = bool_arg(a, 8, "bias", true);
        i2.setattr(self, "bias",
                   has_bias ? wrap(symbolic("nn." + cls + ".bias", {cout}, DType::F32, a.at, true))
                            : python::none(),
                   a.at);
        for (auto [name, idx] : std::vector<std::pair<const char*, size_t>>{
                 {"stride", 4},
                 {"padding", 5},
                 {"dilation", transposed ? 9u : 6u},
                 {"groups", 7},
                 {"output_padding", transposed ? 6u : SIZE_MAX}})
          i2.setattr(self, name, a.get(idx, name) ? a.get(idx, name) : python::none(), a.at);
        return python::none();
      });
      (*attrs)["forward"] = python::builtin(
          cls + ".forward", [this, spec_from, optional_tensor](Interp& i2, CallArgs& a) {
            Ref self = a.pos.at(0);
            TensorPtr w = i2.getattr(self, "weight", a.at)->tensor;
            std::vector<int64_t> ksize(w->shape.begin() + 2, w->shape.end());
            ConvSpec c =
                spec_from(a, i2.getattr(self, "stride", a.at), i2.getattr(self, "padding", a.at),
                          i2.getattr(self, "dilation", a.at), i2.getattr(self, "groups", a.at),
                          i2.getattr(self, "output_padding", a.at), ksize);
            return wrap(convolution(in, tensor_arg(a, 1, "input"), w,
                                    optional_tensor(i2.getattr(self, "bias", a.at)), c, a.at));
          });
      na[cls] = in.make_class(cls, module_cls, attrs);
    }
  // ---- pooling ----
  for (int nd = 1; nd <= 3; ++nd)
    for (bool is_max : {true, false}) {
      std::string cls = std::string(is_max ? "MaxPool" : "AvgPool") + std::to_string(nd) + "d";
      auto spec_from = [this, nd, is_max](CallArgs& a, const Ref& kernel, const Ref& stride,
                                          const Ref& padding, const Ref& fourth, const Ref& ceil,
                                          const Ref& fifth) {
        // Max: (kernel, stride, padding, dilation, return_indices, ceil_mode);
        // Avg: (kernel, stride, padding, ceil_mode, count_include_pad, divisor_override).
        PoolSpec p;
        p.max = is_max;
        p.kernel = tuple_arg(kernel, nd, 1, a.at);
        p.stride = stride && stride->kind != K::None ? tuple_arg(stride, nd, 1, a.at) : p.kernel;
        p.padding = tuple_arg(padding, nd, 0, a.at);
        p.dilation = is_max ? tuple_arg(fourth, nd, 1, a.at) : std::vector<int64_t>(nd, 1);
        p.ceil_mode = ceil && in.truthy(ceil, a.at);
        if (!is_max) {
          p.count_include_pad = !fourth || in.truthy(fourth, a.at);
          p.divisor_override = fifth && fifth->kind != K::None ? in.to_int(fifth, a.at) : 0;
        }
        for (int d = 0; d < nd; ++d)
          if (p.padding[d] * 2 > p.kernel[d])
            in.error(a.at, "pad should be at most half of the kernel size");
        return p;
      };
      std::string fname = std::string(is_max ? "max_pool" : "avg_pool") + std::to_string(nd) + "d";
      fa[fname] = python::builtin("F." + fname, [this, spec_from, is_max](Interp& i2, CallArgs& a) {
        bool with_indices =
            is_max && a.get(5, "return_indices") && i2.truthy(a.get(5, "return_indices"), a.at);
        PoolSpec p =
            is_max ? spec_from(a, a.get(1, "kernel_size"), a.get(2, "stride"), a.get(3, "padding"),
                               a.get(4, "dilation"), a.get(6, "ceil_mode"), nullptr)
                   : spec_from(a, a.get(1, "kernel_size"), a.get(2, "stride"), a.get(3, "padding"),
                               a.get(5, "count_include_pad"), a.get(4, "ceil_mode"),
                               a.get(6, "divisor_override"));
        if (with_indices) {  // (values, indices)
          TensorPtr indices;
          Ref values = wrap(pooling(in, tensor_arg(a, 0, "input"), p, a.at, &indices));
          return python::tuple({values, wrap(indices)});
        }
        return wrap(pooling(in, tensor_arg(a, 0, "input"), p, a.at));
      });
      auto attrs = std::make_shared<Attrs>();
      std::vector<std::string> names =
          is_max ? std::vector<std::string>{"kernel_size", "stride",         "padding",
                                            "dilation",    "return_indices", "ceil_mode"}
                 : std::vector<std::string>{"kernel_size",       "stride",
                                            "padding",           "ceil_mode",
                                            "count_include_pad", "divisor_override"};
      (*attrs)["__init__"] = python::builtin(cls + ".__init__", [names](Interp& i2, CallArgs& a) {
        for (size_t k = 0; k < names.size(); ++k)
          i2.setattr(a.pos.at(0), names[k],
                     a.get(k + 1, names[k]) ? a.get(k + 1, names[k]) : python::none(), a.at);
        return python::none();
      });
      (*attrs)["forward"] = python::builtin(cls + ".forward", [fname, names](Interp& i2,
                                                                             CallArgs& a) {
        Ref self = a.pos.at(0);
        CallArgs c;
        c.at = a.at;
        c.pos = {a.pos.at(1)};
        for (const std::string& n : names)
          if (Ref v = i2.getattr(self, n, a.at); v->kind != K::None) c.kw.push_back({n, v});
        return i2.call(i2.getattr(i2.module_value("torch.nn.functional", a.at), fname, a.at), c);
      });
      na[cls] = in.make_class(cls, module_cls, attrs);
    }
  // ---- normalization layers ----
  auto norm_layer = [&](const std::string& cls, bool group) {
    auto attrs = std::make_shared<Attrs>();
    (*attrs)["__init__"] =
        python::builtin(cls + ".__init__", [this, cls, group](Interp& i2, CallArgs& a) {
          Ref self = a.pos.at(0);
          i2.setattr(self, "training", python::boolean(true), a.at);
          // GroupNorm(num_groups, num_channels, eps, affine); the others (num_features, eps,
          // momentum, affine).
          int64_t channels =
              i2.to_int(a.get(group ? 2 : 1, group ? "num_channels" : "num_features"), a.at);
          if (group) i2.setattr(self, "num_groups", a.get(1, "num_groups"), a.at);
          Ref eps = a.get(group ? 3 : 2, "eps");
          i2.setattr(self, "eps", eps ? eps : python::floating(1e-5), a.at);
          bool instance = cls.rfind("InstanceNorm", 0) == 0;
          bool affine = bool_arg(a, group ? 4 : 4, "affine", !instance);
          for (const char* n : {"weight", "bias"})
            i2.setattr(
                self, n,
                affine ? wrap(symbolic("nn." + cls + "." + n, {channels}, DType::F32, a.at, true))
                       : python::none(),
                a.at);
          if (instance && bool_arg(a, 5, "track_running_stats", false))
            in.unsupported(a.at, "InstanceNorm with running statistics");
          return python::none();
        });
    (*attrs)["forward"] = python::builtin(cls + ".forward", [this, cls, group, optional_tensor](
                                                                Interp& i2, CallArgs& a) {
      Ref self = a.pos.at(0);
      TensorPtr x = tensor_arg(a, 1, "input");
      double eps = i2.to_float(i2.getattr(self, "eps", a.at), a.at);
      TensorPtr w = optional_tensor(i2.getattr(self, "weight", a.at)),
                b = optional_tensor(i2.getattr(self, "bias", a.at));
      int64_t channels = x->shape.size() > 1 ? x->shape[1] : 0;
      if (cls.rfind("BatchNorm", 0) == 0) {
        if (!i2.truthy(i2.getattr(self, "training", a.at), a.at)) {
          // eval: the running statistics, buffers that start at mean 0 and variance 1 and that
          // only training-mode forwards update: y = x / sqrt(1 + eps) * w + b.
          check_initialized(in, *x, a.at);
          TermId den = mk(Op::Sqrt, {mk(Op::Add, {fconst(1), fconst(static_cast<float>(eps))})});
          int64_t spatial = x->numel() / std::max<int64_t>(1, x->shape[0] * channels);
          auto r = std::make_shared<Tensor>(*x);
          for (int64_t i = 0; i < x->numel(); ++i) {
            int64_t c = (i / spatial) % channels;
            TermId y = mk(Op::Div, {x->elems[i], den});
            if (w) y = mk(Op::Mul, {y, w->elems[c]});
            if (b) y = mk(Op::Add, {y, b->elems[c]});
            st.ieee_unfixed.emplace(y, "eval batch norm (CUDA computes it with rsqrt and an fma)");
            r->elems[i] = round_to(s, x->dtype, y);
          }
          return wrap(r);
        }
        return wrap(group_normalize(
            x, [](int64_t, int64_t c) { return c; }, channels, eps, w, b, a.at));
      }
      if (group) {
        int64_t groups = i2.to_int(i2.getattr(self, "num_groups", a.at), a.at);
        if (channels % groups) i2.error(a.at, "GroupNorm: channels not divisible by groups");
        int64_t per = channels / groups;
        return wrap(group_normalize(
            x, [groups, per](int64_t n, int64_t c) { return n * groups + c / per; },
            x->shape[0] * groups, eps, w, b, a.at));
      }
      return wrap(group_normalize(
          x, [channels](int64_t n, int64_t c) { return n * channels + c; }, x->shape[0] * channels,
          eps, w, b, a.at));
    });
    na[cls] = in.make_class(cls, module_cls, attrs);
  };
  for (const char* cls : {"BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "InstanceNorm1d",
                          "InstanceNorm2d", "InstanceNorm3d"})
    norm_layer(cls, false);
  norm_layer("GroupNorm", true);
}

void Torch::install_more(const Ref& nn, const Ref& F, Ref module_cls) {
  auto& na = *nn->attrs;
  auto& fa = *F->attrs;
  auto expose = [&](const std::string& name) {
    fa[name] = python::builtin("F." + name, ops.at(name));
  };
  auto act = [&](const std::string& name, std::function<TermId(Torch&, TermId, CallArgs&)> f) {
    define(name, [this, f, name](Interp&, CallArgs& a) {
      TensorPtr x = tensor_arg(a, 0, "input");
      if (!python::is_float(x->dtype)) in.unsupported(a.at, name + " of an integer tensor");
      return wrap(map1(
          in, x, x->dtype, [&](TermId e) { return f(*this, e, a); }, a.at));
    });
    expose(name);
  };
  auto sel = [](Torch& t, TermId c, TermId a, TermId b) { return t.s.make(Op::Select, {c, a, b}); };
  act("logsigmoid",
      [](Torch& t, TermId x, CallArgs&) { return t.mk(Op::Log, {t.mk(Op::Sigmoid, {x})}); });
  act("frac", [](Torch& t, TermId x, CallArgs&) {
    return t.mk(Op::Sub, {x, t.mk(Op::Trunc, {x})});
  });
  act("sign", [sel](Torch& t, TermId x, CallArgs&) {
    return sel(t, t.mk(Op::Gt, {x, t.fconst(0)}), t.fconst(1),
               sel(t, t.mk(Op::Lt, {x, t.fconst(0)}), t.fconst(-1), x));
  });
  act("hardshrink", [sel](Torch& t, TermId x, CallArgs& a) {
    TermId l = t.fconst(static_cast<float>(t.float_arg(a, 1, "lambd", 0.5)));
    TermId outside = t.mk(Op::Or, {t.mk(Op::Gt, {x, l}), t.mk(Op::Lt, {x, t.mk(Op::Neg, {l})})});
    return sel(t, outside, x, t.fconst(0));
  });
  act("softshrink", [sel](Torch& t, TermId x, CallArgs& a) {
    TermId l = t.fconst(static_cast<float>(t.float_arg(a, 1, "lambd", 0.5)));
    return sel(t, t.mk(Op::Gt, {x, l}), t.mk(Op::Sub, {x, l}),
               sel(t, t.mk(Op::Lt, {x, t.mk(Op::Neg, {l})}), t.mk(Op::Add, {x, l}), t.fconst(0)));
  });
  act("threshold", [sel](Torch& t, TermId x, CallArgs& a) {
    TermId th = t.fconst(static_cast<float>(t.float_arg(a, 1, "threshold", 0))),
           v = t.fconst(static_cast<float>(t.float_arg(a, 2, "value", 0)));
    return sel(t, t.mk(Op::Gt, {x, th}), x, v);
  });
  act("celu", [](Torch& t, TermId x, CallArgs& a) {
    TermId alpha = t.fconst(static_cast<float>(t.float_arg(a, 1, "alpha", 1)));
    TermId neg = t.mk(
        Op::Mul, {alpha, t.mk(Op::Sub, {t.mk(Op::Exp, {t.mk(Op::Div, {x, alpha})}), t.fconst(1)})});
    return t.mk(Op::Add, {t.mk(Op::Max, {x, t.fconst(0)}), t.mk(Op::Min, {t.fconst(0), neg})});
  });
  for (const char* n : {"sign", "frac"})
    (*in.module_value("torch", {}).get()->attrs)[n] =
        python::builtin(std::string("torch.") + n, ops.at(n));
  define("glu", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    int64_t dim = norm_dim(in, int_arg(a, 1, "dim").value_or(-1), x->shape.size(), a.at);
    return wrap(along(x, dim, [&](std::vector<TermId>& row) {
      size_t h = row.size() / 2;
      std::vector<TermId> out(row.size());
      for (size_t k = 0; k < h; ++k) out[k] = mk(Op::Mul, {row[k], mk(Op::Sigmoid, {row[k + h]})});
      for (size_t k = h; k < row.size(); ++k) out[k] = out[k - h];
      return out;
    }));
  });
  {  // glu halves the dimension: take the first half of the along() result
    OpFn full = ops.at("glu");
    define("glu", [this, full](Interp& i2, CallArgs& a) {
      TensorPtr x = tensor_arg(a, 0, "input");
      int64_t dim = norm_dim(in, int_arg(a, 1, "dim").value_or(-1), x->shape.size(), a.at);
      if (x->shape[dim] % 2) in.error(a.at, "glu: the dimension must be even");
      Ref y = full(i2, a);
      return subscript(y->tensor, index_along(dim, slice_value(0, x->shape[dim] / 2)), a.at);
    });
    expose("glu");
  }
  // Scans.
  auto scan = [&](const std::string& name, Op op) {
    define(name, [this, op](Interp&, CallArgs& a) {
      TensorPtr x = tensor_arg(a, 0, "input");
      int64_t dim = norm_dim(in, in.to_int(a.get(1, "dim"), a.at), x->shape.size(), a.at);
      return wrap(along(x, dim, [&](std::vector<TermId>& row) {
        std::vector<TermId> out;
        for (size_t k = 0; k < row.size(); ++k) {
          std::vector<TermId> prefix(row.begin(), row.begin() + static_cast<long>(k) + 1);
          out.push_back(prefix.size() == 1 ? prefix[0] : s.make(op, prefix));
        }
        return out;
      }));
    });
  };
  scan("cumsum", Op::Sum);
  scan("cumprod", Op::Prod);
  define("cummax", [this](Interp&, CallArgs& a) -> Ref {
    TensorPtr x = tensor_arg(a, 0, "input");
    int64_t dim = norm_dim(in, in.to_int(a.get(1, "dim"), a.at), x->shape.size(), a.at);
    Ref values = wrap(along(x, dim, [&](std::vector<TermId>& row) {
      std::vector<TermId> out;
      for (size_t k = 0; k < row.size(); ++k) {
        std::vector<TermId> prefix(row.begin(), row.begin() + static_cast<long>(k) + 1);
        out.push_back(max_of(prefix));
      }
      return out;
    }));
    // torch's scan: a NaN always takes the place, and while no NaN was seen a value >= the
    // running max does (the last of equal maxima wins).
    TensorPtr idx = along(x, dim, [&](std::vector<TermId>& row) {
      std::vector<TermId> out;
      TermId best = row[0], at = s.constant(ir::Constant::of_int(ir::Type::I64, 0));
      out.push_back(at);
      for (size_t k = 1; k < row.size(); ++k) {
        TermId v = row[k];
        TermId take = mk(Op::Or, {mk(Op::Ne, {v, v}),
                                  mk(Op::And, {mk(Op::Eq, {best, best}), mk(Op::Ge, {v, best})})});
        best = mk(Op::Select, {take, v, best});
        at = mk(
            Op::Select,
            {take, s.constant(ir::Constant::of_int(ir::Type::I64, static_cast<int64_t>(k))), at});
        out.push_back(at);
      }
      return out;
    });
    idx->dtype = DType::I64;
    Ref r = python::tuple({values, wrap(idx)});
    r->s = "values,indices";
    return r;
  });
  define("flip", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    std::vector<int64_t> dims = sizes(a, 1, "dims");
    TensorPtr cur = x;
    for (int64_t d : dims) {
      int64_t dim = norm_dim(in, d, x->shape.size(), a.at);
      cur = along(cur, dim, [](std::vector<TermId>& row) {
        return std::vector<TermId>(row.rbegin(), row.rend());
      });
    }
    return wrap(cur);
  });
  // Selection.
  define("masked_fill", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input"), m = tensor_arg(a, 1, "mask");
    TensorPtr v = as_tensor(in, a.get(2, "value"), a.at, x->dtype);
    DType d = x->dtype, vd = v->dtype;
    return wrap(map3(
        in, m, v, x, d,
        [&](TermId c, TermId val, TermId e) {
          return s.make(Op::Select, {c, convert(s, val, vd, d), e});
        },
        a.at));
  });
  define("diag", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    int64_t off = int_arg(a, 1, "diagonal").value_or(0);
    auto r = std::make_shared<Tensor>();
    r->dtype = x->dtype;
    if (x->shape.size() == 1) {
      int64_t n = x->shape[0] + std::llabs(off);
      r->shape = {n, n};
      r->elems.assign(n * n, constant(s, x->dtype, 0));
      for (int64_t k = 0; k < x->shape[0]; ++k)
        r->elems[(k + std::max<int64_t>(0, -off)) * n + k + std::max<int64_t>(0, off)] =
            x->elems[k];
      return wrap(r);
    }
    if (x->shape.size() != 2) in.error(a.at, "diag needs a vector or a matrix");
    for (int64_t i = std::max<int64_t>(0, -off), j = std::max<int64_t>(0, off);
         i < x->shape[0] && j < x->shape[1]; ++i, ++j)
      r->elems.push_back(x->elems[i * x->shape[1] + j]);
    r->shape = {static_cast<int64_t>(r->elems.size())};
    return wrap(r);
  });
  define("diagonal", [this](Interp& i2, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    if (x->shape.size() != 2 || (a.get(2, "dim1") && i2.to_int(a.get(2, "dim1"), a.at) != 0))
      in.unsupported(a.at, "diagonal of anything but a matrix's own dimensions");
    CallArgs c;
    c.at = a.at;
    c.pos = {a.pos[0]};
    if (Ref off = a.get(1, "offset")) c.pos.push_back(off);
    return ops.at("diag")(i2, c);
  });
  define("gather", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input"), idx = tensor_arg(a, 2, "index");
    int64_t dim = norm_dim(in, in.to_int(a.get(1, "dim"), a.at), x->shape.size(), a.at);
    if (idx->shape.size() != x->shape.size())
      in.error(a.at, "gather: index must have the input's rank");
    auto r = std::make_shared<Tensor>();
    r->shape = idx->shape;
    r->dtype = x->dtype;
    std::vector<int64_t> pos(idx->shape.size(), 0), xs = x->strides();
    for (int64_t k = 0; k < idx->numel(); ++k) {
      TermId e = idx->elems[k];
      if (s.op(e) != Op::Const)
        in.unsupported(a.at, "gather with a symbolic index (data-dependent indexing)");
      int64_t j = s.constant_of(e).i, flat = 0;
      if (j < 0 || j >= x->shape[dim]) in.error(a.at, "gather: index out of range");
      for (size_t d = 0; d < pos.size(); ++d)
        flat += (static_cast<int64_t>(d) == dim ? j : pos[d]) * xs[d];
      r->elems.push_back(x->elems[flat]);
      for (size_t d = pos.size(); d-- > 0;) {
        if (++pos[d] < idx->shape[d]) break;
        pos[d] = 0;
      }
    }
    return wrap(r);
  });
  // einsum, the explicit and implicit forms without ellipsis.
  define("einsum", [this](Interp& i2, CallArgs& a) -> Ref {
    if (a.pos.empty() || a.pos[0]->kind != K::Str) in.error(a.at, "einsum needs an equation");
    std::string eq;
    for (char ch : a.pos[0]->s)
      if (ch != ' ') eq += ch;
    if (eq.find('.') != std::string::npos) in.unsupported(a.at, "einsum with ...");
    std::vector<TensorPtr> xs;
    std::vector<Ref> args(a.pos.begin() + 1, a.pos.end());
    if (args.size() == 1 && (args[0]->kind == K::List || args[0]->kind == K::Tuple))
      args = args[0]->items;
    for (const Ref& v : args) xs.push_back(v->kind == K::Tensor ? v->tensor : nullptr);
    size_t arrow = eq.find("->");
    std::string lhs = eq.substr(0, arrow), out;
    std::vector<std::string> terms;
    for (size_t p = 0, q; p <= lhs.size(); p = q + 1) {
      q = lhs.find(',', p);
      if (q == std::string::npos) q = lhs.size();
      terms.push_back(lhs.substr(p, q - p));
    }
    if (terms.size() != xs.size())
      in.error(a.at, "einsum: " + std::to_string(terms.size()) + " operands in the equation, " +
                         std::to_string(xs.size()) + " given");
    absl::flat_hash_map<char, int64_t> size;
    absl::flat_hash_map<char, int> count;
    for (size_t t = 0; t < terms.size(); ++t) {
      if (!xs[t] || terms[t].size() != xs[t]->shape.size())
        in.error(a.at,
                 "einsum: operand " + std::to_string(t) + " does not match '" + terms[t] + "'");
      for (size_t d = 0; d < terms[t].size(); ++d) {
        char l = terms[t][d];
        if (size.contains(l) && size[l] != xs[t]->shape[d])
          in.error(a.at, std::string("einsum: sizes differ for '") + l + "'");
        size[l] = xs[t]->shape[d];
        ++count[l];
      }
    }
    if (arrow != std::string::npos) {
      out = eq.substr(arrow + 2);
    } else {
      for (auto& [l, n] : count)
        if (n == 1) out += l;
      std::sort(out.begin(), out.end());
    }
    std::string contracted;
    for (auto& [l, n] : size)
      if (out.find(l) == std::string::npos) contracted += l;
    std::sort(contracted.begin(), contracted.end());
    std::vector<int64_t> oshape, cshape;
    for (char l : out) oshape.push_back(size.at(l));
    for (char l : contracted) cshape.push_back(size.at(l));
    auto r = std::make_shared<Tensor>();
    r->shape = oshape;
    r->dtype = xs[0]->dtype;
    absl::flat_hash_map<char, int64_t> at;
    for_each_index(oshape, [&](const std::vector<int64_t>& oi, int64_t) {
      for (size_t d = 0; d < out.size(); ++d) at[out[d]] = oi[d];
      std::vector<TermId> products;
      for_each_index(cshape, [&](const std::vector<int64_t>& ci, int64_t) {
        for (size_t d = 0; d < contracted.size(); ++d) at[contracted[d]] = ci[d];
        TermId prod = 0;
        for (size_t t = 0; t < xs.size(); ++t) {
          int64_t flat = 0;
          for (size_t d = 0; d < terms[t].size(); ++d)
            flat = flat * xs[t]->shape[d] + at[terms[t][d]];
          TermId e = xs[t]->elems[flat];
          prod = t == 0 ? e : mk(Op::Mul, {prod, e});
        }
        products.push_back(prod);
      });
      r->elems.push_back(round_to(s, r->dtype, sum_of(products)));
    });
    (void)i2;
    return wrap(r);
  });
  // scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal, scale): softmax(q k^T *
  // scale + mask) v.
  fa["scaled_dot_product_attention"] =
      python::builtin("F.scaled_dot_product_attention", [this](Interp& i2, CallArgs& a) {
        TensorPtr q = tensor_arg(a, 0, "query"), k = tensor_arg(a, 1, "key"),
                  v = tensor_arg(a, 2, "value");
        if (float_arg(a, 4, "dropout_p", 0) != 0)
          in.unsupported(a.at, "attention dropout is random");
        std::vector<int64_t> perm;
        for (size_t d = 0; d < k->shape.size(); ++d) perm.push_back(static_cast<int64_t>(d));
        std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
        double scale =
            float_arg(a, 6, "scale", 1.0 / std::sqrt(static_cast<double>(q->shape.back())));
        Ref scores = binary("*", matmul(q, permuted(k, perm), a.at), python::floating(scale), a.at);
        Ref mask = a.get(3, "attn_mask");
        if (mask && mask->kind == K::Tensor) {
          if (mask->tensor->dtype == DType::Bool) {
            TensorPtr st = scores->tensor, m = mask->tensor;
            TermId ninf = fconst(-INFINITY);
            scores = wrap(map2(
                in, m, st, st->dtype,
                [&](TermId keep, TermId e) {
                  return s.make(Op::Select, {keep, e, ninf});
                },
                a.at));
          } else {
            scores = binary("+", scores, mask, a.at);
          }
        }
        if (bool_arg(a, 5, "is_causal", false)) {
          TensorPtr st = std::make_shared<Tensor>(*scores->tensor);
          int64_t L = st->shape[st->shape.size() - 2], S = st->shape.back();
          for (int64_t i = 0; i < st->numel(); ++i)
            if ((i % S) > ((i / S) % L)) st->elems[i] = fconst(-INFINITY);
          scores = wrap(st);
        }
        CallArgs c;
        c.at = a.at;
        c.pos = {scores, python::integer(-1)};
        Ref p = ops.at("softmax")(i2, c);
        return matmul(p->tensor, v, a.at);
      });
  // Losses, with reduction 'mean' (default), 'sum' or 'none'.
  auto reduce_loss = [this](CallArgs& a, size_t at_pos, TensorPtr t,
                            const std::string& dflt = "mean") -> Ref {
    Ref r = a.get(at_pos, "reduction");
    std::string mode = r && r->kind == K::Str ? r->s : dflt;
    if (mode == "none") return wrap(t);
    std::vector<TermId> all = t->elems;
    TermId total = sum_of(all);
    auto out = std::make_shared<Tensor>();
    out->dtype = t->dtype;
    if (mode == "sum")
      out->elems = {total};
    else if (mode == "mean")
      out->elems = {mk(Op::Div, {total, fconst(static_cast<double>(all.size()))})};
    else if (mode == "batchmean")
      out->elems = {
          mk(Op::Div, {total, fconst(static_cast<double>(t->shape.empty() ? 1 : t->shape[0]))})};
    else
      in.error(a.at, "unknown reduction '" + mode + "'");
    return wrap(out);
  };
  auto pointwise_loss = [&](const std::string& name,
                            std::function<TermId(Torch&, TermId, CallArgs&)> f) {
    fa[name] = python::builtin("F." + name, [this, f, reduce_loss](Interp&, CallArgs& a) {
      TensorPtr x = tensor_arg(a, 0, "input"), y = tensor_arg(a, 1, "target");
      TensorPtr d = map2(
          in, x, y, x->dtype,
          [&](TermId p, TermId q) {
            return f(*this, mk(Op::Sub, {p, q}), a);
          },
          a.at);
      return reduce_loss(a, 99, d);
    });
  };
  pointwise_loss("mse_loss", [](Torch& t, TermId d, CallArgs&) { return t.mk(Op::Mul, {d, d}); });
  pointwise_loss("l1_loss", [](Torch& t, TermId d, CallArgs&) { return t.mk(Op::Abs, {d}); });
  pointwise_loss("smooth_l1_loss", [sel](Torch& t, TermId d, CallArgs& a) {
    double beta = t.float_arg(a, 99, "beta", 1.0);
    TermId ad = t.mk(Op::Abs, {d}), b = t.fconst(static_cast<float>(beta));
    return sel(t, t.mk(Op::Lt, {ad, b}),
               t.mk(Op::Div, {t.mk(Op::Mul, {t.fconst(0.5), t.mk(Op::Mul, {d, d})}), b}),
               t.mk(Op::Sub, {ad, t.mk(Op::Mul, {t.fconst(0.5), b})}));
  });
  pointwise_loss("huber_loss", [sel](Torch& t, TermId d, CallArgs& a) {
    TermId ad = t.mk(Op::Abs, {d}),
           dl = t.fconst(static_cast<float>(t.float_arg(a, 99, "delta", 1.0)));
    return sel(t, t.mk(Op::Lt, {ad, dl}), t.mk(Op::Mul, {t.fconst(0.5), t.mk(Op::Mul, {d, d})}),
               t.mk(Op::Mul, {dl, t.mk(Op::Sub, {ad, t.mk(Op::Mul, {t.fconst(0.5), dl})})}));
  });
  fa["cross_entropy"] =
      python::builtin("F.cross_entropy", [this, reduce_loss](Interp& i2, CallArgs& a) -> Ref {
        TensorPtr x = tensor_arg(a, 0, "input"), target = tensor_arg(a, 1, "target");
        if (x->shape.size() != 2 || target->shape.size() != 1 || python::is_float(target->dtype))
          in.unsupported(a.at, "cross_entropy other than [N, C] logits with [N] class indices");
        CallArgs c;
        c.at = a.at;
        c.pos = {wrap(x), python::integer(1)};
        TensorPtr lsm = ops.at("log_softmax")(i2, c)->tensor;
        int64_t n = x->shape[0], classes = x->shape[1];
        auto losses = std::make_shared<Tensor>();
        losses->shape = {n};
        losses->dtype = x->dtype;
        for (int64_t i = 0; i < n; ++i) {
          // The target is symbolic: pick its class by a sum of selects (targets lie in [0, C)).
          std::vector<TermId> picks;
          for (int64_t k = 0; k < classes; ++k)
            picks.push_back(s.make(
                Op::Select, {mk(Op::Eq, {target->elems[i], s.constant(ir::Constant::of_int(
                                                               term_type(target->dtype), k))}),
                             mk(Op::Neg, {lsm->elems[i * classes + k]}), fconst(0)}));
          losses->elems.push_back(sum_of(picks));
        }
        return reduce_loss(a, 99, losses);
      });
  fa["kl_div"] = python::builtin("F.kl_div", [this, reduce_loss, sel](Interp&, CallArgs& a) -> Ref {
    TensorPtr x = tensor_arg(a, 0, "input"), y = tensor_arg(a, 1, "target");
    if (bool_arg(a, 99, "log_target", false)) in.unsupported(a.at, "kl_div with log_target");
    TensorPtr d = map2(
        in, x, y, x->dtype,
        [&](TermId p, TermId q) {
          return sel(*this, mk(Op::Gt, {q, fconst(0)}),
                     mk(Op::Mul, {q, mk(Op::Sub, {mk(Op::Log, {q}), p})}), fconst(0));
        },
        a.at);
    return reduce_loss(a, 99, d);
  });
  fa["hinge_embedding_loss"] = python::builtin(
      "F.hinge_embedding_loss", [this, reduce_loss, sel](Interp&, CallArgs& a) -> Ref {
        TensorPtr x = tensor_arg(a, 0, "input"), y = tensor_arg(a, 1, "target");
        TermId margin = fconst(static_cast<float>(float_arg(a, 2, "margin", 1.0)));
        TensorPtr d = map2(
            in, x, y, x->dtype,
            [&](TermId p, TermId q) {
              TermId hinge = mk(Op::Max, {fconst(0), mk(Op::Sub, {margin, p})});
              // torch: x where y == 1, max(0, margin - x) where y == -1 (and the sum for other y).
              return mk(Op::Add, {sel(*this, mk(Op::Eq, {q, fconst(1)}), p, fconst(0)),
                                  sel(*this, mk(Op::Eq, {q, fconst(-1)}), hinge, fconst(0))});
            },
            a.at);
        return reduce_loss(a, 99, d);
      });
  auto pair_norm = [this](const TensorPtr& a, const TensorPtr& b, double eps, Span at) {
    // torch.pairwise_distance: ||a - b + eps||_2 over the last dimension.
    TensorPtr diff = map2(
        in, a, b, a->dtype,
        [&](TermId p, TermId q) {
          return mk(Op::Add, {mk(Op::Sub, {p, q}), fconst(static_cast<float>(eps))});
        },
        at);
    int64_t last = static_cast<int64_t>(diff->shape.size()) - 1;
    return reduce(
        in, diff, {last}, false, diff->dtype,
        [&](std::vector<TermId>& v) {
          std::vector<TermId> sq;
          for (TermId e : v) sq.push_back(mk(Op::Mul, {e, e}));
          return mk(Op::Sqrt, {sum_of(sq)});
        },
        at);
  };
  fa["triplet_margin_loss"] = python::builtin(
      "F.triplet_margin_loss", [this, reduce_loss, pair_norm](Interp&, CallArgs& a) -> Ref {
        TensorPtr an = tensor_arg(a, 0, "anchor"), po = tensor_arg(a, 1, "positive"),
                  ne = tensor_arg(a, 2, "negative");
        if (float_arg(a, 4, "p", 2) != 2 || bool_arg(a, 6, "swap", false))
          in.unsupported(a.at, "triplet_margin_loss with p != 2 or swap");
        double eps = float_arg(a, 5, "eps", 1e-6);
        TensorPtr dp = pair_norm(an, po, eps, a.at), dn = pair_norm(an, ne, eps, a.at);
        TermId margin = fconst(static_cast<float>(float_arg(a, 3, "margin", 1.0)));
        TensorPtr l = map2(
            in, dp, dn, dp->dtype,
            [&](TermId p, TermId q) {
              return mk(Op::Max, {mk(Op::Add, {mk(Op::Sub, {p, q}), margin}), fconst(0)});
            },
            a.at);
        return reduce_loss(a, 99, l);
      });
  fa["cosine_similarity"] =
      python::builtin("F.cosine_similarity", [this](Interp&, CallArgs& a) -> Ref {
        TensorPtr x = tensor_arg(a, 0, "x1"), y = tensor_arg(a, 1, "x2");
        int64_t dim = norm_dim(in, int_arg(a, 2, "dim").value_or(1), x->shape.size(), a.at);
        TermId eps = fconst(static_cast<float>(float_arg(a, 3, "eps", 1e-8)));
        auto reduce_dim = [&](const TensorPtr& t,
                              const std::function<TermId(std::vector<TermId>&)>& f) {
          return reduce(in, t, {dim}, false, t->dtype, f, a.at);
        };
        TensorPtr dot = reduce_dim(map2(
                                       in, x, y, x->dtype,
                                       [&](TermId p, TermId q) {
                                         return mk(Op::Mul, {p, q});
                                       },
                                       a.at),
                                   [&](std::vector<TermId>& v) { return sum_of(v); });
        auto norm = [&](const TensorPtr& t) {
          return reduce_dim(t, [&](std::vector<TermId>& v) {
            std::vector<TermId> sq;
            for (TermId e : v) sq.push_back(mk(Op::Mul, {e, e}));
            return mk(Op::Max, {mk(Op::Sqrt, {sum_of(sq)}), eps});
          });
        };
        TensorPtr nx = norm(x), ny = norm(y);
        TensorPtr den = map2(
            in, nx, ny, x->dtype,
            [&](TermId p, TermId q) {
              return mk(Op::Mul, {p, q});
            },
            a.at);
        return wrap(map2(
            in, dot, den, x->dtype,
            [&](TermId p, TermId q) {
              return mk(Op::Div, {p, q});
            },
            a.at));
      });
  // Adaptive pooling: output i covers [floor(i*in/out), ceil((i+1)*in/out)).
  for (int nd = 1; nd <= 3; ++nd)
    for (bool is_max : {true, false}) {
      std::string cls =
          std::string(is_max ? "AdaptiveMaxPool" : "AdaptiveAvgPool") + std::to_string(nd) + "d";
      auto pool = [this, nd, is_max](const TensorPtr& x, const Ref& size_v, Span at) {
        std::vector<int64_t> osize = tuple_arg(size_v, nd, 1, at);
        size_t lead = x->shape.size() - nd;
        std::vector<int64_t> isize(x->shape.begin() + static_cast<long>(lead), x->shape.end());
        for (int d = 0; d < nd; ++d)
          if (osize[d] <= 0) osize[d] = isize[d];  // None keeps the size
        auto r = std::make_shared<Tensor>();
        r->dtype = x->dtype;
        r->shape.assign(x->shape.begin(), x->shape.begin() + static_cast<long>(lead));
        r->shape.insert(r->shape.end(), osize.begin(), osize.end());
        int64_t outer = 1, window = 1;
        for (size_t d = 0; d < lead; ++d) outer *= x->shape[d];
        for (int64_t v : isize) window *= v;
        std::vector<int64_t> o(nd, 0);
        int64_t per_outer = 1;
        for (int64_t v : osize) per_outer *= v;
        for (int64_t b = 0; b < outer; ++b)
          for (int64_t k = 0; k < per_outer; ++k) {
            int64_t rem = k;
            for (int d = nd - 1; d >= 0; --d) o[d] = rem % osize[d], rem /= osize[d];
            std::vector<int64_t> lo(nd), hi(nd);
            for (int d = 0; d < nd; ++d) {
              lo[d] = o[d] * isize[d] / osize[d];
              hi[d] = ((o[d] + 1) * isize[d] + osize[d] - 1) / osize[d];
            }
            std::vector<TermId> members;
            std::vector<int64_t> p(lo);
            while (true) {
              int64_t flat = 0;
              for (int d = 0; d < nd; ++d) flat = flat * isize[d] + p[d];
              members.push_back(x->elems[b * window + flat]);
              int d = nd - 1;
              for (; d >= 0; --d) {
                if (++p[d] < hi[d]) break;
                p[d] = lo[d];
              }
              if (d < 0) break;
            }
            TermId e = is_max ? max_of(members)
                              : mk(Op::Div,
                                   {sum_of(members), fconst(static_cast<double>(members.size()))});
            r->elems.push_back(round_to(s, x->dtype, e));
          }
        return r;
      };
      std::string fname = std::string(is_max ? "adaptive_max_pool" : "adaptive_avg_pool") +
                          std::to_string(nd) + "d";
      fa[fname] = python::builtin("F." + fname, [this, pool](Interp&, CallArgs& a) {
        return wrap(pool(tensor_arg(a, 0, "input"), a.get(1, "output_size"), a.at));
      });
      auto attrs = std::make_shared<Attrs>();
      (*attrs)["__init__"] = python::builtin(cls + ".__init__", [](Interp& i2, CallArgs& a) {
        i2.setattr(a.pos.at(0), "output_size", a.get(1, "output_size"), a.at);
        return python::none();
      });
      (*attrs)["forward"] =
          python::builtin(cls + ".forward", [this, pool](Interp& i2, CallArgs& a) {
            return wrap(pool(tensor_arg(a, 1, "input"),
                             i2.getattr(a.pos.at(0), "output_size", a.at), a.at));
          });
      na[cls] = in.make_class(cls, module_cls, attrs);
    }
  // Loss modules: constructor keywords become the functional form's keywords.
  for (auto [cls, fn] : std::vector<std::pair<std::string, std::string>>{
           {"MSELoss", "mse_loss"},
           {"L1Loss", "l1_loss"},
           {"SmoothL1Loss", "smooth_l1_loss"},
           {"HuberLoss", "huber_loss"},
           {"CrossEntropyLoss", "cross_entropy"},
           {"KLDivLoss", "kl_div"},
           {"HingeEmbeddingLoss", "hinge_embedding_loss"},
           {"TripletMarginLoss", "triplet_margin_loss"},
           {"CosineSimilarity", "cosine_similarity"}}) {
    auto attrs = std::make_shared<Attrs>();
    std::string c = cls;
    (*attrs)["__init__"] = python::builtin(cls + ".__init__", [c](Interp& i2, CallArgs& a) {
      if (a.pos.size() > 1)
        i2.unsupported(a.at, "positional arguments to nn." + c + " (use keywords)");
      auto kw = std::make_shared<Value>();
      kw->kind = K::Dict;
      for (auto& [k, v] : a.kw) kw->dict.push_back({python::string(k), v});
      i2.setattr(a.pos.at(0), "_kwargs", kw, a.at);
      return python::none();
    });
    std::string f = fn;
    (*attrs)["forward"] = python::builtin(cls + ".forward", [f](Interp& i2, CallArgs& a) {
      CallArgs c2;
      c2.at = a.at;
      c2.pos.assign(a.pos.begin() + 1, a.pos.end());
      for (auto& [k, v] : i2.getattr(a.pos.at(0), "_kwargs", a.at)->dict)
        c2.kw.push_back({k->s, v});
      return i2.call(i2.getattr(i2.module_value("torch.nn.functional", a.at), f, a.at), c2);
    });
    na[cls] = in.make_class(cls, module_cls, attrs);
  }
  for (auto [cls, op] :
       std::vector<std::pair<std::string, std::string>>{{"LogSigmoid", "logsigmoid"},
                                                        {"Hardshrink", "hardshrink"},
                                                        {"Softshrink", "softshrink"},
                                                        {"CELU", "celu"},
                                                        {"GLU", "glu"}}) {
    auto attrs = std::make_shared<Attrs>();
    (*attrs)["__init__"] = python::builtin(cls + ".__init__", [](Interp& i2, CallArgs& a) {
      i2.setattr(a.pos.at(0), "_args",
                 python::tuple(std::vector<Ref>(a.pos.begin() + 1, a.pos.end())), a.at);
      return python::none();
    });
    std::string o = op;
    (*attrs)["forward"] = python::builtin(cls + ".forward", [this, o](Interp& i2, CallArgs& a) {
      CallArgs c;
      c.at = a.at;
      c.pos = {a.pos.at(1)};
      for (const Ref& v : i2.getattr(a.pos[0], "_args", a.at)->items) c.pos.push_back(v);
      return ops.at(o)(i2, c);
    });
    na[cls] = in.make_class(cls, module_cls, attrs);
  }
  for (const char* n : {"cumsum", "cumprod", "cummax", "flip", "masked_fill", "diag", "diagonal",
                        "gather", "einsum", "glu"})
    (*in.module_value("torch", {}).get()->attrs)[n] =
        python::builtin(std::string("torch.") + n, ops.at(n));
}

}  // namespace

void install(python::Interp& in, TorchState& state) {
  auto t = std::make_shared<Torch>(Torch{in, state, in.store(), {}, {}});
  t->install_ops();
  Ref torch = t->module("torch"), nn = t->module("torch.nn"), F = t->module("torch.nn.functional");
  t->install_creation(torch);
  in.register_module("torch", torch);  // install_nn's late ops add themselves to it
  t->install_nn(nn, F);
  (*torch->attrs)["nn"] = nn;
  (*nn->attrs)["functional"] = F;
  in.register_module("torch", torch);
  in.register_module("torch.nn", nn);
  in.register_module("torch.nn.functional", F);
  // Triton: decorators keep the function; launching a kernel is the Triton frontend's (later).
  Ref triton = t->module("triton"), tl = t->module("triton.language");
  auto pass_through =
      python::builtin("triton.jit", [](Interp&, CallArgs& a) { return a.pos.at(0); });
  (*triton->attrs)["jit"] = pass_through;
  for (const char* deco : {"autotune", "heuristics"})
    (*triton->attrs)[deco] = python::builtin(
        std::string("triton.") + deco, [pass_through](Interp&, CallArgs&) { return pass_through; });
  (*triton->attrs)["Config"] =
      python::builtin("triton.Config", [](Interp&, CallArgs&) { return python::none(); });
  (*triton->attrs)["cdiv"] = python::builtin("triton.cdiv", [](Interp& i2, CallArgs& a) {
    int64_t x = i2.to_int(a.pos.at(0), a.at), y = i2.to_int(a.pos.at(1), a.at);
    return python::integer((x + y - 1) / y);
  });
  (*triton->attrs)["next_power_of_2"] =
      python::builtin("triton.next_power_of_2", [](Interp& i2, CallArgs& a) {
        int64_t x = i2.to_int(a.pos.at(0), a.at), p = 1;
        while (p < x) p <<= 1;
        return python::integer(p);
      });
  (*triton->attrs)["language"] = tl;
  (*tl->attrs)["constexpr"] = in.make_class("constexpr", nullptr, std::make_shared<Attrs>());
  in.register_module("triton", triton);
  in.register_module("triton.language", tl);
  // The hooks own the Torch object.
  in.hooks().binop = [t](Interp&, const std::string& op, const Ref& a, const Ref& b, Span at) {
    return t->binary(op, a, b, at);
  };
  in.hooks().unop = [t](Interp& i2, const std::string& op, const Ref& a, Span at) -> Ref {
    if (op == "-") {
      CallArgs c;
      c.at = at;
      c.pos = {a};
      return t->ops.at("neg")(i2, c);
    }
    if (op == "+") return a;
    i2.unsupported(at, "tensor operator " + op);
  };
  in.hooks().getattr = [t](Interp&, const Ref& v, const std::string& name, Span at) {
    return t->tensor_attr(v, name, at);
  };
  in.hooks().subscript = [t](Interp&, const Ref& v, const Ref& index, Span at) {
    return t->subscript(v->tensor, index, at);
  };
}

}  // namespace keq::torch
