// torch's reductions: sum, mean, prod, amax/amin, var/std, softmax and log-softmax, ...
#include "frontends/torch/torch_impl.h"

namespace keq::torch::impl {

void Torch::install_reductions() {
  // Reductions.
  auto reduction = [&](const std::string& name,
                       std::function<TermId(Torch&, std::vector<TermId>&)> f, bool mean) {
    bool widens = name == "sum" || name == "prod";
    define(name, [this, f, mean, widens](Interp&, CallArgs& a) {
      TensorPtr x = tensor_arg(a, 0, "input");
      bool all;
      std::vector<int64_t> dims = dims_arg(a, 1, *x, &all);
      bool keep = bool_arg(a, 2, "keepdim", false);
      DType out = dtype_kw(a, mean && !torch::is_float(x->dtype) ? DType::F32 : x->dtype);
      // torch sums and multiplies bools and integers in int64 (a mask's count, for one).
      if (widens && !torch::is_float(x->dtype) && !a.get(SIZE_MAX, "dtype")) out = DType::I64;
      if (out != x->dtype && !mean) {
        auto wide = std::make_shared<Tensor>(*x);
        for (TermId& e : wide->elems) e = convert(s, e, x->dtype, out);
        wide->dtype = out;
        x = wide;
      }
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
  // count_nonzero(x, dim=None): an int64 count of x != 0 (NaN counts, as x != 0 is true).
  define("count_nonzero", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    bool all;
    std::vector<int64_t> dims = dims_arg(a, 1, *x, &all);
    auto ones = std::make_shared<Tensor>(*x);
    ones->dtype = DType::I64;
    ones->storage = SameStorage{};
    TermId zero = constant(s, x->dtype, 0);
    for (TermId& e : ones->elems)  // a bool is its own test
      e = convert(s, x->dtype == DType::Bool ? e : mk(Op::Ne, {e, zero}), DType::Bool, DType::I64);
    return wrap(reduce(
        in, ones, dims, false, DType::I64, [&](std::vector<TermId>& v) { return sum_of(v); },
        a.at));
  });
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
        // torch shifts by the max only where it is finite, so a row holding +inf gives +inf.
        TermId m = t.max_of(v);
        TermId inf = t.mk(Op::Eq, {t.mk(Op::Abs, {m}), t.fconst(INFINITY)});
        TermId shift = t.select(inf, t.fconst(0), m);
        std::vector<TermId> e;
        for (TermId x : v) e.push_back(t.mk(Op::Exp, {t.mk(Op::Sub, {x, shift})}));
        return t.mk(Op::Add, {shift, t.mk(Op::Log, {t.sum_of(e)})});
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
            TermId var = mean_variance(v, correction).second;
            return sqrt ? mk(Op::Sqrt, {var}) : var;
          },
          a.at));
    });
  };
  variance("var", false);
  variance("std", true);
  // var_mean and std_mean: the pair (var or std, mean) with var's arguments.
  for (const char* name : {"var_mean", "std_mean"}) {
    std::string first = name == std::string("var_mean") ? "var" : "std";
    define(name, [this, first](Interp& i2, CallArgs& a) {
      Ref spread = unchecked_ops.at(first)(i2, a);
      CallArgs m;
      m.at = a.at;
      m.pos = {a.pos.at(0)};
      if (Ref d = a.get(1, "dim")) m.pos.push_back(d);
      if (Ref k = a.get(3, "keepdim")) m.kw.push_back({"keepdim", k});
      return python::tuple({spread, unchecked_ops.at("mean")(i2, m)});
    });
  }
  // any and all: a bool reduction of x != 0 (a NaN counts as true).
  for (const char* name : {"any", "all"}) {
    bool any = name == std::string("any");
    define(name, [this, any](Interp&, CallArgs& a) {
      TensorPtr x = tensor_arg(a, 0, "input");
      bool all;
      std::vector<int64_t> dims = dims_arg(a, 1, *x, &all);
      bool keep = bool_arg(a, 2, "keepdim", false);
      auto truth = std::make_shared<Tensor>(*x);
      truth->dtype = DType::Bool;
      truth->storage = SameStorage{};
      TermId zero = constant(s, x->dtype, 0);
      for (TermId& e : truth->elems)
        if (x->dtype != DType::Bool) e = mk(Op::Ne, {e, zero});
      return wrap(reduce(
          in, truth, dims, keep, DType::Bool,
          [&](std::vector<TermId>& v) {
            TermId r = v[0];
            for (size_t k = 1; k < v.size(); ++k) r = mk(any ? Op::Or : Op::And, {r, v[k]});
            return r;
          },
          a.at));
    });
  }
  // trace: the sum of a matrix's diagonal.
  define("trace", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    if (x->shape.size() != 2) in.error(a.at, "trace: expected a matrix");
    std::vector<TermId> diag;
    for (int64_t k = 0; k < std::min(x->shape[0], x->shape[1]); ++k)
      diag.push_back(x->elems[k * x->shape[1] + k]);
    auto out = std::make_shared<Tensor>();
    out->dtype = torch::is_float(x->dtype) ? x->dtype : DType::I64;
    for (TermId& e : diag) e = convert(s, e, x->dtype, out->dtype);
    out->elems = {diag.empty() ? constant(s, out->dtype, 0) : sum_of(diag)};
    return wrap(out);
  });
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
      // dtype=: the input is cast to it first, as torch documents.
      if (DType to = dtype_kw(a, x->dtype); to != x->dtype) {
        DType from = x->dtype;
        x = map1(
            in, x, to, [&](TermId e) { return convert(s, e, from, to); }, a.at);
      }
      Ref d = a.get(1, "dim");
      if (!d || d->kind == K::None) in.error(a.at, "softmax needs dim");
      int64_t dim = norm_dim(in, in.to_int(d, a.at), x->shape.size(), a.at);
      return wrap(along(
          x, dim, [&](std::vector<TermId>& row) { return softmax_row(row, log); }, a.at));
    });
  }
}

}  // namespace keq::torch::impl
