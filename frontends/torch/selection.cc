// Scans (cumsum, cumprod, cummax) and selection (masked_fill, where, gather, diag, flip, ...).
#include "frontends/torch/torch_impl.h"

namespace keq::torch::impl {

void Torch::install_scans_and_selection() {
  // Scans.
  auto scan = [&](const std::string& name, Op op) {
    define(name, [this, op](Interp&, CallArgs& a) {
      TensorPtr x = tensor_arg(a, 0, "input");
      int64_t dim = norm_dim(in, in.to_int(a.get(1, "dim"), a.at), x->shape.size(), a.at);
      // torch scans bools and integers in int64 (an int8 cumsum of 100, 100 is 200), unless
      // dtype= says otherwise.
      DType from = x->dtype, out = dtype_kw(a, torch::is_float(from) ? from : DType::I64);
      if (out != from)
        x = map1(
            in, x, out, [&](TermId e) { return convert(s, e, from, out); }, a.at);
      return wrap(along(
          x, dim,
          [&](std::vector<TermId>& row) {
            std::vector<TermId> out;
            for (size_t k = 0; k < row.size(); ++k) {
              std::vector<TermId> prefix(row.begin(), row.begin() + static_cast<long>(k) + 1);
              // cumsum starts from +0 like torch's other sums (sum_from_zero); cumprod from 1,
              // which changes no bits.
              out.push_back(op == Op::Sum        ? sum_from_zero(s, prefix)
                            : prefix.size() == 1 ? prefix[0]
                                                 : s.make(op, prefix));
            }
            return out;
          },
          a.at));
    });
  };
  scan("cumsum", Op::Sum);
  scan("cumprod", Op::Prod);
  // logcumsumexp(x, dim): log of the running sum of exp, shifted by the running max as torch's
  // kernel is (the same value over the reals); not bit-exact in IEEE.
  define("logcumsumexp", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    if (x->dtype != DType::F32) in.unsupported(a.at, "logcumsumexp of non-fp32 tensors");
    int64_t dim = norm_dim(in, in.to_int(a.get(1, "dim"), a.at), x->shape.size(), a.at);
    return wrap(along(
        x, dim,
        [&](std::vector<TermId>& row) {
          std::vector<TermId> out, exps;
          for (TermId e : row) {
            exps.push_back(mk(Op::Exp, {e}));
            TermId v = mk(Op::Log, {exps.size() == 1 ? exps[0] : sum_of(exps)});
            st.ieee_unfixed.emplace(v, "torch.logcumsumexp's order of operations");
            out.push_back(v);
          }
          return out;
        },
        a.at));
  });
  // one_hot(x, num_classes): int64 x == c along a new last dimension; num_classes=-1 (the data's
  // largest value + 1, a size that depends on values) is UNSUPPORTED.
  define("one_hot", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "tensor");
    int64_t c = int_arg(a, 1, "num_classes").value_or(-1);
    if (torch::is_float(x->dtype) || x->dtype == DType::Bool)
      in.raise(a.at, "RuntimeError: one_hot is only applicable to index tensor");
    if (c < 0) in.unsupported(a.at, "F.one_hot without num_classes (its size is the data's)");
    define_unwritten(in, *x, a.at);
    auto r = std::make_shared<Tensor>();
    r->shape = x->shape;
    r->shape.push_back(c);
    r->dtype = DType::I64;
    for (TermId e : x->elems)
      for (int64_t k = 0; k < c; ++k)
        r->elems.push_back(convert(s,
                                   mk(Op::Eq, {e, constant(s, x->dtype, static_cast<double>(k))}),
                                   DType::Bool, DType::I64));
    return wrap(r);
  });
  // cdist(x1, x2, p=2): the Euclidean distance of every row pair (batched); torch computes it
  // through a matmul for larger inputs, the same value over the reals; not bit-exact in IEEE.
  define("cdist", [this](Interp&, CallArgs& a) {
    TensorPtr x1 = tensor_arg(a, 0, "x1"), x2 = tensor_arg(a, 1, "x2");
    if (float_arg(a, 2, "p", 2.0) != 2.0) in.unsupported(a.at, "torch.cdist with p != 2");
    a.has("compute_mode");
    if (x1->shape.size() != 2 || x2->shape.size() != 2 || x1->shape[1] != x2->shape[1] ||
        x1->dtype != DType::F32)
      in.unsupported(a.at, "torch.cdist other than two fp32 matrices of equal width");
    define_unwritten(in, *x1, a.at);
    define_unwritten(in, *x2, a.at);
    int64_t n = x1->shape[0], m = x2->shape[0], d = x1->shape[1];
    auto r = std::make_shared<Tensor>();
    r->shape = {n, m};
    r->dtype = DType::F32;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < m; ++j) {
        std::vector<TermId> sq;
        for (int64_t k = 0; k < d; ++k) {
          TermId diff = mk(Op::Sub, {x1->elems[i * d + k], x2->elems[j * d + k]});
          sq.push_back(mk(Op::Mul, {diff, diff}));
        }
        TermId v = mk(Op::Sqrt, {sum_of(sq)});
        st.ieee_unfixed.emplace(v, "torch.cdist (a matmul form for larger inputs)");
        r->elems.push_back(v);
      }
    return wrap(r);
  });
  define("cummax", [this](Interp&, CallArgs& a) -> Ref {
    TensorPtr x = tensor_arg(a, 0, "input");
    int64_t dim = norm_dim(in, in.to_int(a.get(1, "dim"), a.at), x->shape.size(), a.at);
    Ref values = wrap(along(
        x, dim,
        [&](std::vector<TermId>& row) {
          std::vector<TermId> out;
          for (size_t k = 0; k < row.size(); ++k) {
            std::vector<TermId> prefix(row.begin(), row.begin() + static_cast<long>(k) + 1);
            out.push_back(max_of(prefix));
          }
          return out;
        },
        a.at));
    // torch's scan: a NaN always takes the place, and while no NaN was seen a value >= the
    // running max does (the last of equal maxima wins).
    TensorPtr idx = along(
        x, dim,
        [&](std::vector<TermId>& row) {
          std::vector<TermId> out;
          TermId best = row[0], at = s.constant(ir::Constant::of_int(ir::Type::I64, 0));
          out.push_back(at);
          for (size_t k = 1; k < row.size(); ++k) {
            TermId v = row[k];
            TermId take =
                mk(Op::Or, {mk(Op::Ne, {v, v}),
                            mk(Op::And, {mk(Op::Eq, {best, best}), mk(Op::Ge, {v, best})})});
            best = mk(Op::Select, {take, v, best});
            at = mk(Op::Select,
                    {take, s.constant(ir::Constant::of_int(ir::Type::I64, static_cast<int64_t>(k))),
                     at});
            out.push_back(at);
          }
          return out;
        },
        a.at);
    idx->dtype = DType::I64;
    Ref r = python::tuple({values, wrap(idx)});
    r->s = "values,indices";
    return r;
  });
  // sort: odd-even transposition (adjacent compare-and-swap, n rounds), which is a stable sort:
  // a pair swaps only when strictly out of order, NaN counting as the largest value as in torch.
  // Indices only with stable=True: otherwise torch leaves the order of equal values open.
  define("sort", [this](Interp&, CallArgs& a) -> Ref {
    TensorPtr x = tensor_arg(a, 0, "input");
    int64_t dim = norm_dim(in, int_arg(a, 1, "dim").value_or(-1), x->shape.size(), a.at);
    bool descending = bool_arg(a, 2, "descending", false);
    bool stable = bool_arg(a, 99, "stable", false);
    if (!x->shape.empty() && x->shape[dim] > 64)
      in.unsupported(a.at, "torch.sort of rows longer than 64 (" + std::to_string(x->shape[dim]) +
                               "): the sorting network's size");
    auto nan = [&](TermId v) { return mk(Op::Ne, {v, v}); };
    // Does b belong before a? Descending: b > a, or b NaN and a not; ascending: b < a, or a NaN.
    auto before = [&](TermId a_v, TermId b_v) {
      return descending
                 ? mk(Op::Or,
                      {mk(Op::Gt, {b_v, a_v}), mk(Op::And, {nan(b_v), mk(Op::Not, {nan(a_v)})})})
                 : mk(Op::Or,
                      {mk(Op::Lt, {b_v, a_v}), mk(Op::And, {nan(a_v), mk(Op::Not, {nan(b_v)})})});
    };
    std::vector<std::vector<TermId>> index_rows;
    TensorPtr values = along(
        x, dim,
        [&](std::vector<TermId>& row) {
          std::vector<TermId> v = row, idx;
          for (size_t k = 0; k < v.size(); ++k)
            idx.push_back(s.constant(ir::Constant::of_int(ir::Type::I64, static_cast<int64_t>(k))));
          for (size_t round = 0; round < v.size(); ++round)
            for (size_t k = round % 2; k + 1 < v.size(); k += 2) {
              TermId swap = before(v[k], v[k + 1]);
              TermId hi = mk(Op::Select, {swap, v[k + 1], v[k]});
              TermId lo = mk(Op::Select, {swap, v[k], v[k + 1]});
              TermId ihi = mk(Op::Select, {swap, idx[k + 1], idx[k]});
              TermId ilo = mk(Op::Select, {swap, idx[k], idx[k + 1]});
              v[k] = hi, v[k + 1] = lo, idx[k] = ihi, idx[k + 1] = ilo;
            }
          index_rows.push_back(idx);
          return v;
        },
        a.at);
    // Equal values of either zero sign may come in another order on a GPU: their bits are open.
    for (TermId e : values->elems)
      if (x->dtype != DType::I64 && x->dtype != DType::I32)
        st.ieee_unfixed.emplace(e, "torch.sort: the order of -0 and +0");
    Ref indices;
    if (stable) {
      size_t row = 0;
      TensorPtr idx = along(
          x, dim, [&](std::vector<TermId>&) { return index_rows[row++]; }, a.at);
      idx->dtype = DType::I64;
      indices = wrap(idx);
    } else {
      indices = in.unavailable(
          "torch.sort's indices without stable=True: torch leaves the order "
          "of equal values open (" +
          in.where(a.at) + ")");
    }
    Ref r = python::tuple({wrap(values), indices});
    r->s = "values,indices";
    return r;
  });
  define("flip", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    std::vector<int64_t> dims = sizes(a, 1, "dims");
    TensorPtr cur = x;
    for (int64_t d : dims) {
      int64_t dim = norm_dim(in, d, x->shape.size(), a.at);
      auto reversed = [](std::vector<TermId>& row) {
        return std::vector<TermId>(row.rbegin(), row.rend());
      };
      cur = along(cur, dim, reversed, a.at);
    }
    return wrap(cur);
  });
  // Selection.
  define("masked_fill", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input"), m = tensor_arg(a, 1, "mask");
    Ref value = a.get(2, "value");
    Device where = result_device({a.pos[0], a.pos[1], value}, a.at,
                                 m->on_cpu() && x->device == Device::Gpu
                                     ? "expected self and mask to be on the same device, but "
                                       "got mask on cpu and self on cuda:0"
                                     : "Expected all tensors to be on the same device, but "
                                       "found at least two devices, cuda:0 and cpu!");
    TensorPtr v = as_tensor(in, value, a.at, x->dtype);
    DType d = x->dtype, vd = v->dtype;
    return on_device(wrap(map3(
                         in, m, v, x, d,
                         [&](TermId c, TermId val, TermId e) {
                           return where_term(s, c, convert(s, val, vd, d), e);
                         },
                         a.at)),
                     where);
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
  define("index_select", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input"), idx = tensor_arg(a, 2, "index");
    int64_t dim = norm_dim(in, in.to_int(a.get(1, "dim"), a.at), x->shape.size(), a.at);
    if (idx->shape.size() > 1 || torch::is_float(idx->dtype))
      in.error(a.at, "index_select: index must be a 1-D integer tensor");
    // x[:, ..., idx] along dim: advanced indexing after moving dim to the front.
    std::vector<int64_t> order(x->shape.size());
    for (size_t d = 0; d < order.size(); ++d) order[d] = static_cast<int64_t>(d);
    std::swap(order[0], order[dim]);
    TensorPtr front = permuted(x, order), idx1 = idx;
    if (idx->shape.empty()) idx1 = reshaped(idx, {1});
    TensorPtr back = permuted(integer_array_subscript(front, wrap(idx1), a.at)->tensor, order);
    TensorPtr r = copied(back);
    if (idx->shape.empty()) r->shape.erase(r->shape.begin() + dim);
    return wrap(r);
  });
  // embedding(input, weight, padding_idx=None, max_norm=None, ...): weight[input], rows picked
  // by index values (a data-dependent index: by its values over the inputs' domain);
  // padding_idx changes only the gradient.
  define("embedding", [this](Interp&, CallArgs& a) {
    TensorPtr idx = tensor_arg(a, 0, "input"), w = tensor_arg(a, 1, "weight");
    if (Ref m = a.get(3, "max_norm"); m && m->kind != K::None)
      in.unsupported(a.at, "embedding with max_norm (it renormalizes the weight in place)");
    for (const char* k : {"padding_idx", "norm_type", "scale_grad_by_freq", "sparse"}) a.has(k);
    if (torch::is_float(idx->dtype) || w->shape.size() != 2)
      in.raise(a.at, "RuntimeError: embedding: expected integer indices and a 2-D weight");
    return wrap(copied(integer_array_subscript(w, wrap(idx), a.at)->tensor));
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
      // The elements along dim that this index picks from (its other coordinates fixed).
      std::vector<TermId> line;
      for (int64_t j = 0; j < x->shape[dim]; ++j) {
        int64_t flat = 0;
        for (size_t d = 0; d < pos.size(); ++d)
          flat += (static_cast<int64_t>(d) == dim ? j : pos[d]) * xs[d];
        line.push_back(x->elems[flat]);
      }
      TermId e = idx->elems[k];
      if (s.op(e) == Op::Const) {
        int64_t j = s.constant_of(e).i;
        if (j < 0 || j >= x->shape[dim]) in.error(a.at, "gather: index out of range");
        r->elems.push_back(line[j]);
      } else {
        r->elems.push_back(pick(e, line, a.at, "gather"));
      }
      for (size_t d = pos.size(); d-- > 0;) {
        if (++pos[d] < idx->shape[d]) break;
        pos[d] = 0;
      }
    }
    return wrap(r);
  });
}

}  // namespace keq::torch::impl
