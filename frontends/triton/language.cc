// tl.*: program ids, block creation and shapes, where, the op table's math (tl, tl.math,
// libdevice), maximum/minimum, dot.
#include <algorithm>
#include <map>
#include <span>

#include "frontends/triton/triton_impl.h"

namespace keq::triton::impl {
namespace {

// For each of `count` runs of `k` terms in `lanes`, the first run with the same terms.
std::vector<int64_t> first_alike(const std::vector<TermId>& lanes, int64_t count, int64_t k) {
  std::vector<int64_t> first(static_cast<size_t>(count));
  std::map<std::span<const TermId>, int64_t,
           decltype([](std::span<const TermId> a, std::span<const TermId> b) {
             return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
           })>
      seen;
  for (int64_t c = 0; c < count; ++c)
    first[c] = seen.emplace(std::span<const TermId>(lanes).subspan(c * k, k), c).first->second;
  return first;
}

}  // namespace

void Triton::dot_matrix(const Tensor& x, const Tensor& y, const Tensor* acc, int64_t b, int64_t m,
                        int64_t k, int64_t n, Tensor& r) {
  // Operands converted once, y's columns laid out contiguously: the products of a row and a
  // column are two spans (a tile's lanes each allocated three vectors before).
  std::vector<TermId> rows(static_cast<size_t>(m * k)), columns(static_cast<size_t>(n * k)), terms;
  const int64_t x0 = b * m * k, y0 = b * k * n, acc0 = b * m * n;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t q = 0; q < k; ++q)
      rows[i * k + q] = convert(s, x.elems[x0 + i * k + q], x.dtype, r.dtype);
  for (int64_t q = 0; q < k; ++q)
    for (int64_t j = 0; j < n; ++j)
      columns[j * k + q] = convert(s, y.elems[y0 + q * n + j], y.dtype, r.dtype);
  // A row (column) with the same terms as an earlier one has its sums: masked lanes
  // (other=0.0) make many alike, and a tile's masked-off columns cost as much as live ones.
  const std::vector<int64_t> row_of = first_alike(rows, m, k),
                             column_of = first_alike(columns, n, k);
  std::vector<TermId> sums(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      TermId& sum = sums[i * n + j];
      if (row_of[i] != i || column_of[j] != j) {
        sum = sums[row_of[i] * n + column_of[j]];
      } else {
        terms.clear();
        s.make_each(Op::Mul, std::span<const TermId>(rows).subspan(i * k, k),
                    std::span<const TermId>(columns).subspan(j * k, k), terms);
        sum = terms.size() == 1 ? terms[0] : s.make(Op::Sum, terms);
      }
      r.elems.push_back(
          acc ? mk(Op::Add, {convert(s, acc->elems[acc0 + i * n + j], acc->dtype, r.dtype), sum})
              : sum);
    }
}

void Triton::install_language(const Ref& tl, const Ref& triton) {
  auto& t = *tl->attrs;
  auto def = [&](const std::string& name, python::BuiltinFn fn) {
    define_tl(tl, name, std::move(fn));
  };
  auto need_kernel = [this](CallArgs& a, const std::string& what) { require_kernel(a, what); };
  def("program_id", [this, need_kernel](Interp&, CallArgs& a) {
    need_kernel(a, "tl.program_id");
    int64_t axis = in.to_int(a.get(0, "axis"), a.at);
    if (axis < 0 || axis > 2)
      in.raise(a.at,
               "ValueError: program_id axis must be 0, 1, or 2 but got " + std::to_string(axis));
    Ref pid = runtime_int(run->pid[axis]);  // a runtime value in Triton, never a constexpr
    run->program_ids.push_back({pid, static_cast<int>(axis)});
    return pid;
  });
  def("num_programs", [this, need_kernel](Interp&, CallArgs& a) {
    need_kernel(a, "tl.num_programs");
    int64_t axis = in.to_int(a.get(0, "axis"), a.at);
    if (axis < 0 || axis > 2)
      in.raise(a.at,
               "ValueError: num_programs axis must be 0, 1, or 2 but got " + std::to_string(axis));
    return runtime_int(run->grid[axis]);
  });
  def("arange", [this](Interp&, CallArgs& a) {
    if (!a.get(0, "start") || !a.get(1, "end")) in.error(a.at, "tl.arange takes start and end");
    check_arange(in, a.at, a.get(0, "start"), a.get(1, "end"));
    int64_t lo = in.to_int(a.get(0, "start"), a.at), hi = in.to_int(a.get(1, "end"), a.at);
    auto r = std::make_shared<Tensor>();
    r->dtype = DType::I32;
    for (int64_t v = lo; v < hi; ++v)
      r->elems.push_back(s.constant(ir::Constant::of_int(ir::Type::I32, v)));
    r->shape = {hi - lo};
    return wrap(r);
  });
  auto dtype_of = [this](const Ref& d, Span at) {
    if (!d || d->kind == K::None) return DType::F32;
    if (d->kind != K::DType) in.error(at, "expected a tl dtype");
    torch::require_modelled_dtype(in, d, at);
    return d->dtype;
  };
  // A block shape, checked as Triton checks it before anything is allocated.
  auto shape_of = [this](const Ref& v, Span at) {
    if (!v) in.error(at, "a block shape is missing");
    std::vector<Ref> dims =
        v->kind == K::Tuple || v->kind == K::List ? v->items : std::vector<Ref>{v};
    check_block_shape(in, at, dims);
    std::vector<int64_t> shape;
    for (const Ref& x : dims) shape.push_back(in.to_int(x, at));
    return shape;
  };
  def("zeros", [this, dtype_of, shape_of](Interp&, CallArgs& a) {
    auto r = std::make_shared<Tensor>();
    r->shape = shape_of(a.get(0, "shape"), a.at);
    r->dtype = dtype_of(a.get(1, "dtype"), a.at);
    r->elems.assign(r->numel(), constant(s, r->dtype, 0));
    return wrap(r);
  });
  def("full", [this, dtype_of, shape_of](Interp&, CallArgs& a) {
    auto r = std::make_shared<Tensor>();
    r->shape = shape_of(a.get(0, "shape"), a.at);
    r->dtype = dtype_of(a.get(2, "dtype"), a.at);
    Ref value = a.get(1, "value");
    // scalar_constant: a literal -0.0 is +0 (as_tensor in triton_impl.h says why).
    double v = value && literal_zero(value) ? 0.0 : in.to_float(value, a.at);
    r->elems.assign(r->numel(), constant(s, r->dtype, v));
    return wrap(r);
  });
  def("load", [this, need_kernel](Interp&, CallArgs& a) {
    need_kernel(a, "tl.load");
    check_memory_options(in, a, MemoryCall::Load);
    return load(a);
  });
  def("store", [this, need_kernel](Interp&, CallArgs& a) {
    need_kernel(a, "tl.store");
    check_memory_options(in, a, MemoryCall::Store);
    return store(a);
  });
  def("where", [this](Interp&, CallArgs& a) {
    TensorPtr c = as_tensor(in, a.pos.at(0), a.at, DType::Bool);
    DType out = promote(a.pos.at(1), a.pos.at(2), in, a.at);
    if (out == DType::I64 && a.pos[1]->kind != K::Tensor && a.pos[2]->kind != K::Tensor)
      out = DType::I32;  // Triton types a Python int that fits as int32
    TensorPtr x = as_tensor(in, a.pos[1], a.at, out), y = as_tensor(in, a.pos[2], a.at, out);
    check_broadcast(in, a.at, c->shape, x->shape);  // broadcast_impl_value, pair by pair
    check_broadcast(in, a.at, c->shape, y->shape);
    check_broadcast(in, a.at, x->shape, y->shape);
    DType xd = x->dtype, yd = y->dtype;
    return wrap(map3(
        in, c, x, y, out,
        [&](TermId p, TermId q, TermId r) {
          return fold(s.make(Op::Select, {p, convert(s, q, xd, out), convert(s, r, yd, out)}));
        },
        a.at));
  });
  // tl.PropagateNan: NONE (0) and ALL (0xFFFF), as Triton's enum.
  Ref propagate = python::module_object("triton.language.PropagateNan");
  (*propagate->attrs)["NONE"] = python::integer(0);
  (*propagate->attrs)["ALL"] = python::integer(0xFFFF);
  t["PropagateNan"] = propagate;
  // tl.maximum and tl.minimum promote their operands as arithmetic does; by default the non-NaN
  // operand wins (maxnum, measured), with propagate_nan=ALL a NaN operand wins (torch's max).
  for (auto [spelled, op] : ir::ops_spelled("tl")) {
    if (!ir::op_info(op).is_extremum()) continue;
    std::string name(spelled);
    Op base = op;  // not the binding itself: clang 14 cannot capture a structured binding
    def(name, [this, base](Interp&, CallArgs& a) {
      Op o = !propagates_nan(a, 2) ? base : ir::op_info(base).is_max ? Op::Max : Op::Min;
      DType out = promote(a.pos.at(0), a.pos.at(1), in, a.at);
      TensorPtr x = as_tensor(in, a.pos[0], a.at, out), y = as_tensor(in, a.pos[1], a.at, out);
      DType xd = x->dtype, yd = y->dtype;
      return wrap(map2(
          in, x, y, out,
          [&](TermId p, TermId q) {
            return fold(s.make(o, {convert(s, p, xd, out), convert(s, q, yd, out)}));
          },
          a.at));
    });
  }
  // tl.cast(x, dtype, fp_downcast_rounding=..., bitcast=...) is x.to(dtype, ...).
  def("cast", [this](Interp& i2, CallArgs& a) {
    CallArgs to;
    to.at = a.at;
    to.pos = {a.get(1, "dtype")};
    if (!to.pos[0]) in.error(a.at, "tl.cast needs a dtype");
    if (Ref fp = a.get(2, "fp_downcast_rounding")) to.kw.push_back({"fp_downcast_rounding", fp});
    if (Ref bc = a.get(3, "bitcast")) to.kw.push_back({"bitcast", bc});
    return i2.call(i2.getattr(a.pos.at(0), "to", a.at), to);
  });
  // tl.clamp(x, min, max, propagate_nan): maxnum then minnum; with ALL, a NaN in any operand
  // gives NaN, which is torch.clamp (tests/fixtures/gpu/tl_clamp.txt, measured on an H200).
  auto symmetric_constants = [this](TermId lo, TermId hi) {
    if (s.op(lo) != Op::Const || s.op(hi) != Op::Const || s.type(hi) != ir::Type::F32) return false;
    double l = s.constant_of(lo).f, h = s.constant_of(hi).f;
    return h > 0 && l == -h;
  };
  def("clamp", [this, symmetric_constants](Interp&, CallArgs& a) {
    bool all = propagates_nan(a, 3);
    TensorPtr x = as_tensor(in, a.get(0, "x"), a.at, DType::F32);
    if (!torch::is_float(x->dtype)) in.error(a.at, "tl.clamp takes a floating-point block");
    DType out = x->dtype;
    Ref lo_v = a.get(1, "min"), hi_v = a.get(2, "max");
    TensorPtr lo = as_tensor(in, lo_v, a.at, out), hi = as_tensor(in, hi_v, a.at, out);
    DType ld = lo->dtype, hd = hi->dtype;
    // A runtime float argument is not a constant to the compiler, whatever its value (vLLM
    // passes fp8_min and fp8_max so): the maxnum-then-minnum form.
    auto runtime = [](const Ref& v) {
      return v && (v->kind == K::Float || v->kind == K::Int) && v->b;
    };
    bool constant_bounds = !runtime(lo_v) && !runtime(hi_v);
    return wrap(map3(
        in, x, lo, hi, out,
        [&](TermId p, TermId l, TermId h) {
          l = convert(s, l, ld, out), h = convert(s, h, hd, out);
          if (all) return fold(s.make(Op::Clamp, {p, l, h}));
          TermId clamped = fold(mk(Op::MinNum, {mk(Op::MaxNum, {p, l}), h}));
          // Constant bounds -c, c: one min.xorsign.abs, which sends a NaN to +c (the GPU's NaNs
          // are positive) where maxnum then minnum gives -c (measured on the H200:
          // tests/fixtures/gpu/nonfinite, measure_tl_clamp_symmetric.py).
          if (constant_bounds && symmetric_constants(l, h))
            return fold(mk(Op::Select, {mk(Op::Ne, {p, p}), h, clamped}));
          return clamped;
        },
        a.at));
  });
  // tl.*, tl.math.* and libdevice share one table: tl.sqrt is approximate (sqrt.approx.f32),
  // sqrt_rn and libdevice's sqrt are correctly rounded; libdevice's rint rounds half to even.
  auto math = [this](const std::string& where, Op o, size_t arity) {
    return python::builtin(where, [this, where, o, arity](Interp&, CallArgs& a) {
      std::vector<TensorPtr> xs;
      DType out = DType::F32;
      const std::string name = where.substr(where.rfind('.') + 1);
      for (size_t k = 0; k < arity; ++k) {
        const Ref& arg = a.pos.at(k);
        xs.push_back(as_tensor(in, arg, a.at, DType::F32));
        if (arg->kind == K::Tensor || is_runtime_int(arg))  // a Python number is not checked
          check_math_dtype(in, a.at, name, xs[k]->dtype);
        if (torch::is_float(xs[k]->dtype)) out = xs[k]->dtype;
      }
      if (!torch::is_float(out) && o != Op::Abs) in.unsupported(a.at, where + " of integers");
      auto op = [&](std::initializer_list<TermId> kids) {
        std::vector<TermId> v;
        size_t k = 0;
        for (TermId e : kids) v.push_back(convert(s, e, xs[k++]->dtype, out));
        return fold(s.make(o, v));
      };
      if (arity == 1)
        return wrap(map1(
            in, xs[0], out, [&](TermId e) { return op({e}); }, a.at));
      if (arity == 2)
        return wrap(map2(
            in, xs[0], xs[1], out,
            [&](TermId p, TermId q) {
              return op({p, q});
            },
            a.at));
      return wrap(map3(
          in, xs[0], xs[1], xs[2], out,
          [&](TermId p, TermId q, TermId r) {
            return op({p, q, r});
          },
          a.at));
    });
  };
  auto math_module = module("triton.language.math");
  for (auto [spelled, op] : ir::ops_spelled("tl")) {
    if (ir::op_info(op).is_extremum()) continue;
    std::string name(spelled);
    size_t arity = ir::op_info(op).arity;
    t[name] = math("tl." + name, op, arity);
    (*math_module->attrs)[name] = math("tl.math." + name, op, arity);
  }
  auto libdevice = module("triton.language.extra.libdevice");
  for (auto [spelled, op] : ir::ops_spelled("libdevice")) {
    std::string name(spelled);
    (*libdevice->attrs)[name] = math("libdevice." + name, op, ir::op_info(op).arity);
  }
  auto extra = module("triton.language.extra"), cuda = module("triton.language.extra.cuda");
  (*extra->attrs)["libdevice"] = libdevice;
  (*extra->attrs)["cuda"] = cuda;
  (*cuda->attrs)["libdevice"] = libdevice;
  t["math"] = math_module;
  t["extra"] = extra;
  in.register_module("triton.language.math", math_module);
  in.register_module("triton.language.extra", extra);
  in.register_module("triton.language.extra.cuda", cuda);
  in.register_module("triton.language.extra.libdevice", libdevice);
  in.register_module("triton.language.extra.cuda.libdevice", libdevice);
  // dir(triton.language.extra) under Triton 3.6, and the libdevice module a from-import loads:
  // a vendor's name (hasattr(tl.extra, "ascend"), fla's probe) is absent.
  in.set_real_names("triton.language.extra",
                    {"cuda", "hip", "libdevice", "is_pkg", "module", "module_finder",
                     "module_from_spec", "module_name", "modules", "pkgutil", "spec"});
  for (auto [name, op] : std::vector<std::pair<std::string, Op>>{
           {"sum", Op::Sum}, {"max", Op::TMax}, {"min", Op::TMin}}) {
    Op o = op;
    std::string n = name;
    def(n, [this, o, n](Interp&, CallArgs& a) {
      TensorPtr x = as_tensor(in, a.pos.at(0), a.at, DType::F32);
      if (o == Op::Sum) x = summed_as(x, a.get(3, "dtype"), a.at);
      bool keep = a.get(SIZE_MAX, "keep_dims") && in.truthy(a.get(SIZE_MAX, "keep_dims"), a.at);
      Ref values = wrap(reduce(
          in, x, reduced_dims(a.get(1, "axis"), x, a.at), keep, x->dtype,
          [&](std::vector<TermId>& v) { return v.size() == 1 ? v[0] : fold(s.make(o, v)); }, a.at));
      // tl.max(x, axis, return_indices=True): the maximum and, as tl.argmax, its index.
      Ref indices = o == Op::Sum ? nullptr : a.get(2, "return_indices");
      if (!indices || !in.truthy(indices, a.at)) return values;
      return python::tuple(
          {values, wrap(arg_reduce(x, a.get(1, "axis"), o == Op::TMax,
                                   a.get(3, "return_indices_tie_break_left"), keep, a.at))});
    });
  }
  // tl.cat(input, other, can_reorder): semantic.cat asserts can_reorder (its element order is
  // the compiler's choice), so the order of the result is unspecified: not modelled.
  def("cat", [this](Interp&, CallArgs& a) -> Ref {
    Ref reorder = a.get(2, "can_reorder");
    if (!reorder || !in.truthy(reorder, a.at))
      in.raise(a.at, "AssertionError: current implementation of `cat` always may reorder elements");
    in.unsupported(a.at, "tl.cat (the order of its elements is the compiler's choice)");
  });
  def("zeros_like", [this](Interp&, CallArgs& a) {
    TensorPtr x = as_tensor(in, a.pos.at(0), a.at, DType::F32);
    auto r = std::make_shared<Tensor>(*x);
    r->elems.assign(x->numel(), constant(s, x->dtype, 0));
    return wrap(r);
  });
  def("dot", [this](Interp&, CallArgs& a) {
    // [..., M, K] x [..., K, N]; the accumulation order of the hardware is unspecified, so the sum
    // is n-ary. fp32 inputs use TF32 by default (inputs rounded to 10 mantissa bits). keq models
    // the exact product, so the default is recorded as a note: equal over the reals, not bit for
    // bit.
    TensorPtr x = as_tensor(in, a.pos.at(0), a.at), y = as_tensor(in, a.pos.at(1), a.at);
    check_dot(in, a.at, x->shape, y->shape, x->dtype, y->dtype);
    Ref precision = a.get(3, "input_precision"), tf32 = a.get(4, "allow_tf32");
    bool ieee = (precision && precision->kind == K::Str && precision->s == "ieee") ||
                (tf32 && tf32->kind == K::Bool && !tf32->b);
    if (!ieee && (x->dtype == DType::F32 || y->dtype == DType::F32))
      st.findings.push_back(
          in.where(a.at) +
          ": note: tl.dot on fp32 rounds its inputs to TF32; keq models the exact "
          "product (pass input_precision=\"ieee\" for fp32 products)");
    Ref acc = a.get(2, "acc");
    const size_t rank = x->shape.size();
    int64_t m = x->shape[rank - 2], k = x->shape[rank - 1], n = y->shape[rank - 1];
    auto r = std::make_shared<Tensor>();
    r->shape = x->shape;  // [..., M, N]: batch dimensions lead (core.dot)
    r->shape.back() = n;
    if (acc && acc->kind == K::Tensor && acc->tensor->shape != r->shape)
      in.raise(a.at, "AssertionError: accumulator shape is incompatible");
    // int8 operands accumulate in int32 (wrapping), as Triton's integer dot does.
    bool ints = !torch::is_float(x->dtype) && !torch::is_float(y->dtype) &&
                !(acc && acc->kind == K::Tensor && torch::is_float(acc->tensor->dtype));
    r->dtype = ints ? DType::I32 : DType::F32;
    r->elems.reserve(static_cast<size_t>(r->numel()));
    const TensorPtr acc_t = acc && acc->kind == K::Tensor ? acc->tensor : nullptr;
    for (int64_t b = 0; b < r->numel() / (m * n); ++b)
      dot_matrix(*x, *y, acc_t.get(), b, m, k, n, *r);
    return wrap(r);
  });
  // trans(x, *dims) and permute(x, *dims): dims as a tuple or one by one; trans without dims
  // swaps the last two.
  for (bool is_trans : {true, false})
    def(is_trans ? "trans" : "permute", moves_pointer_lanes([this, is_trans](Interp&, CallArgs& a) {
          TensorPtr x = as_tensor(in, a.pos.at(0), a.at);
          std::vector<Ref> given(a.pos.begin() + 1, a.pos.end());
          if (given.size() == 1 && (given[0]->kind == K::Tuple || given[0]->kind == K::List))
            given = given[0]->items;
          if (Ref d = a.get(SIZE_MAX, "dims"); d && given.empty()) given = in.to_sequence(d, a.at);
          std::vector<int64_t> dims;
          for (const Ref& d : given) dims.push_back(in.to_int(d, a.at));
          size_t n = x->shape.size();
          if (dims.empty() && is_trans) {
            if (n < 2)
              in.raise(a.at, "ValueError: tl.trans invoked with a 0- or 1-dimensional tensor");
            for (size_t d = 0; d + 2 < n; ++d) dims.push_back(static_cast<int64_t>(d));
            dims.insert(dims.end(), {static_cast<int64_t>(n - 1), static_cast<int64_t>(n - 2)});
          }
          std::vector<int64_t> sorted = dims;
          std::sort(sorted.begin(), sorted.end());
          for (size_t d = 0; d < sorted.size(); ++d)
            if (sorted.size() != n || sorted[d] != static_cast<int64_t>(d))
              in.raise(a.at, "ValueError: permute dims must be a permutation of 0, 1, ..., n-1");
          return wrap(permute_block(*x, dims));
        }));
  // flip(x, dim=None): reversed along dim (the last by default), a power-of-two size.
  def("flip", moves_pointer_lanes([this](Interp&, CallArgs& a) {
        TensorPtr x = as_tensor(in, a.pos.at(0), a.at);
        int64_t n = static_cast<int64_t>(x->shape.size());
        Ref d = a.get(1, "dim");
        int64_t dim = d && d->kind != K::None ? in.to_int(d, a.at) : n - 1;
        if (dim < -n || dim >= n) in.error(a.at, "CompileTimeAssertionFailure: tl.flip's dim");
        if (dim < 0) dim += n;
        int64_t len = x->shape[dim];
        if (len & (len - 1))
          in.error(a.at,
                   "CompileTimeAssertionFailure: tl.flip of a size "
                   "that is not a power of two");
        int64_t inner = 1;
        for (int64_t k = dim + 1; k < n; ++k) inner *= x->shape[k];
        auto r = std::make_shared<Tensor>(*x);
        for (int64_t k = 0; k < x->numel(); ++k) {
          int64_t i = k / inner % len;
          r->elems[k] = x->elems[k + (len - 1 - 2 * i) * inner];
        }
        return wrap(r);
      }));
  // tl.softmax(x, dim=0, keep_dims=False, ieee_rounding=False), as triton/language/standard.py
  // writes it: x - max(x, dim), exp, its sum over dim, then fdiv (approximate division unless
  // ieee_rounding). keep_dims=False subtracts the reduced block as broadcasting aligns it.
  def("softmax", [this, tl](Interp& i2, CallArgs& a) {
    Ref x = a.get(0, "x"), dim = a.get(1, "dim"), keep = a.get(2, "keep_dims"),
        ieee = a.get(3, "ieee_rounding");
    if (!x) in.error(a.at, "tl.softmax needs x");
    if (!dim || dim->kind == K::None) dim = python::integer(0);
    auto reduce_over = [&](const char* name, const Ref& v) {
      CallArgs c;
      c.at = a.at;
      c.pos = {v, dim};
      c.kw = {{"keep_dims", keep ? keep : python::boolean(false)}};
      return i2.call(i2.getattr(tl, name, a.at), c);
    };
    Ref z = i2.binop("-", x, reduce_over("max", x), a.at);
    Ref num = i2.call(i2.getattr(tl, "exp", a.at), {z}, a.at);
    CallArgs div;
    div.at = a.at;
    div.pos = {num, reduce_over("sum", num), ieee ? ieee : python::boolean(false)};
    return i2.call(i2.getattr(i2.getattr(tl, "math", a.at), "fdiv", a.at), div);
  });
  def("ravel", moves_pointer_lanes([this](Interp&, CallArgs& a) {
        TensorPtr x = as_tensor(in, a.pos.at(0), a.at);
        auto r = std::make_shared<Tensor>(*x);
        r->shape = {x->numel()};
        return wrap(r);
      }));
  // join(a, b): a new minor dimension of 2 (broadcast first); interleave(a, b): join, then the
  // last two dimensions merged; split(a): the inverse of join, two blocks (scalars from [2]).
  auto join = [this](CallArgs& a) {
    TensorPtr x = as_tensor(in, a.pos.at(0), a.at), y = as_tensor(in, a.pos.at(1), a.at);
    check_broadcast(in, a.at, x->shape, y->shape);
    if (x->dtype != y->dtype) in.unsupported(a.at, "tl.join of blocks of two dtypes");
    TensorPtr first = map2(
        in, x, y, x->dtype, [](TermId p, TermId) { return p; }, a.at);
    TensorPtr second = map2(
        in, x, y, x->dtype, [](TermId, TermId q) { return q; }, a.at);
    auto r = std::make_shared<Tensor>(*first);
    r->shape.push_back(2);
    r->elems.clear();
    for (int64_t k = 0; k < first->numel(); ++k)
      r->elems.insert(r->elems.end(), {first->elems[k], second->elems[k]});
    return r;
  };
  def("join", [this, join](Interp&, CallArgs& a) { return wrap(join(a)); });
  def("interleave", [this, join](Interp&, CallArgs& a) {
    TensorPtr r = join(a);
    if (r->shape.size() > 1) {
      r->shape.pop_back();
      r->shape.back() *= 2;
    }
    return wrap(r);
  });
  def("split", [this](Interp&, CallArgs& a) {
    TensorPtr x = as_tensor(in, a.pos.at(0), a.at);
    if (x->shape.empty() || x->shape.back() != 2)
      in.raise(a.at, "AssertionError: tl.split needs a last dimension of size 2");
    std::vector<Ref> halves;
    for (int64_t h = 0; h < 2; ++h) {
      auto r = std::make_shared<Tensor>(*x);
      r->shape.pop_back();
      r->elems.clear();
      for (int64_t k = h; k < x->numel(); k += 2) r->elems.push_back(x->elems[k]);
      halves.push_back(wrap(r));
    }
    return python::tuple(halves);
  });
  def("reshape", moves_pointer_lanes([this, shape_of](Interp&, CallArgs& a) {
        TensorPtr x = as_tensor(in, a.pos.at(0), a.at);
        auto r = std::make_shared<Tensor>(*x);
        r->shape = shape_of(a.get(1, "shape"), a.at);
        check_reshape(in, a.at, x->numel(), r->numel());
        return wrap(r);
      }));
  def("expand_dims", moves_pointer_lanes([this](Interp&, CallArgs& a) {
        TensorPtr x = as_tensor(in, a.pos.at(0), a.at);
        int64_t d = in.to_int(a.get(1, "axis"), a.at);
        check_axis(in, a.at, d, x->shape.size() + 1);  // a new axis, up to the rank
        if (d < 0) d += static_cast<int64_t>(x->shape.size()) + 1;
        auto r = std::make_shared<Tensor>(*x);
        r->shape.insert(r->shape.begin() + d, 1);
        return wrap(r);
      }));
  def("broadcast_to", moves_pointer_lanes([this, shape_of](Interp&, CallArgs& a) {
        TensorPtr x = as_tensor(in, a.pos.at(0), a.at);
        auto zero = std::make_shared<Tensor>();
        zero->shape = shape_of(a.get(1, "shape"), a.at);
        zero->dtype = x->dtype;
        zero->elems.assign(zero->numel(), constant(s, x->dtype, 0));
        return wrap(map2(
            in, x, zero, x->dtype, [](TermId p, TermId) { return p; }, a.at));
      }));
  install_reductions_and_atomics(tl);
  install_decorators(tl, triton);
  install_descriptors(tl);
  // triton.set_allocator: the scratch memory a kernel's own tensor descriptors need.
  (*triton->attrs)["set_allocator"] =
      python::builtin("triton.set_allocator", [this](Interp&, CallArgs& a) {
        if (!a.get(0, "allocator")) in.raise(a.at, "TypeError: set_allocator() needs an allocator");
        allocator_set_ = true;
        return python::none();
      });
}

}  // namespace keq::triton::impl
