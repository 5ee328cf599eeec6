// tl.*: scans and reductions, atomics, ranges, block pointers, barriers, dtypes.
#include "frontends/triton/triton_impl.h"

namespace keq::triton::impl {

namespace {
// torch._inductor's maximum and minimum: where((a > b) | (a != a), a, b) is a max that
// propagates NaN (torch's), as where(a > b, a, b) is on integers, which have none. On a tie of
// -0 and +0 the where-form keeps b, which the reduction order decides; keq's max takes +0, as
// its model of torch's own amax does (torch's CUDA reduction has the same tie).
std::optional<Op> selected_extremum(const ir::TermStore& s, TermId t, TermId va, TermId vb,
                                    bool integer) {
  if (s.op(t) != Op::Select) return std::nullopt;
  TermId c = s.children(t)[0], x = s.children(t)[1], y = s.children(t)[2];
  if (!((x == va && y == vb) || (x == vb && y == va))) return std::nullopt;
  bool nan_check = false;
  if (s.op(c) == Op::Or || s.op(c) == Op::BitOr) {
    auto parts = s.children(c);
    auto is_nan_test = [&](TermId p) {
      return s.op(p) == Op::Ne && s.children(p)[0] == x && s.children(p)[1] == x;
    };
    if (parts.size() != 2 || !(is_nan_test(parts[0]) || is_nan_test(parts[1]))) return std::nullopt;
    c = is_nan_test(parts[0]) ? parts[1] : parts[0];
    nan_check = true;
  }
  if ((!nan_check && !integer) || (s.op(c) != Op::Gt && s.op(c) != Op::Lt) ||
      s.children(c)[0] != x || s.children(c)[1] != y)
    return std::nullopt;
  return s.op(c) == Op::Gt ? Op::Max : Op::Min;
}
}  // namespace

Op Triton::combine_op(const Ref& fn, DType dtype, Span at) {
  if (!fn) in.error(at, "a scan or reduction without its combine_fn");
  // Run it on two fresh scalars and read the op back. Triton combines in an order of its own
  // (a tree across lanes), so only an associative combine has one meaning; anything else,
  // a - b or a where-based selection, is UNSUPPORTED rather than given the order of a loop.
  ir::Type type = term_type(dtype);
  std::string tag = "combine_fn@" + in.where(at) + "#" + std::to_string(undef_count++);
  TermId va = s.variable(tag + ".a", type), vb = s.variable(tag + ".b", type);
  auto scalar = [&](TermId v) {
    auto t = std::make_shared<Tensor>();
    t->dtype = dtype;
    t->elems = {v};
    return wrap(t);
  };
  Ref out = in.call(fn, {scalar(va), scalar(vb)}, at);
  if (out && out->kind == K::Tensor && out->tensor->numel() == 1) {
    TermId t = out->tensor->elems[0];
    auto kids = s.children(t);
    bool operands =
        kids.size() == 2 && ((kids[0] == va && kids[1] == vb) || (kids[0] == vb && kids[1] == va));
    if (auto op = selected_extremum(s, t, va, vb, type != ir::Type::F32)) return *op;
    switch (s.op(t)) {
      case Op::Add:
      case Op::Sum:
        return operands ? Op::Sum : Op::Const;
      case Op::Mul:
      case Op::Prod:
        return operands ? Op::Prod : Op::Const;
      case Op::Max:
      case Op::Min:
      case Op::MaxNum:
      case Op::MinNum:
      case Op::TMax:
      case Op::TMin:
      case Op::BitAnd:
      case Op::BitOr:
      case Op::BitXor:
        if (operands) return s.op(t);
        break;
      default:
        break;
    }
  }
  in.unsupported(at,
                 "a combine_fn keq does not recognise as associative (it models a + b, a * b, "
                 "maximum, minimum and the bitwise and/or/xor of its two operands)");
}

TermId Triton::combine(Op op, std::vector<TermId> parts) {
  if (parts.size() == 1) return parts[0];
  if (op == Op::Sum || op == Op::Prod) return fold(s.make(op, parts));
  TermId acc = parts[0];
  for (size_t k = 1; k < parts.size(); ++k) acc = fold(mk(op, {acc, parts[k]}));
  return acc;
}

std::vector<int64_t> Triton::reduced_dims(const Ref& axis, const TensorPtr& x, Span at) {
  std::vector<int64_t> dims;
  if (!axis || axis->kind == K::None)
    for (size_t d = 0; d < x->shape.size(); ++d) dims.push_back(static_cast<int64_t>(d));
  else {
    check_reduce_axis(in, at, axis, x->shape.size());
    int64_t d = in.to_int(axis, at);
    check_axis(in, at, d, x->shape.size());
    dims.push_back(norm_dim(in, d, x->shape.size(), at));
  }
  return dims;
}

TensorPtr Triton::scan(const TensorPtr& x, int64_t axis, Op op, bool reverse) {
  auto r = std::make_shared<Tensor>(*x);
  int64_t len = x->shape.empty() ? 1 : x->shape[axis], inner = 1;
  for (size_t d = axis + 1; d < x->shape.size(); ++d) inner *= x->shape[d];
  for (int64_t base = 0; base < x->numel(); base += len * inner)
    for (int64_t i = 0; i < inner; ++i) {
      std::vector<TermId> run;  // the elements combined so far, in scan order
      TermId acc = 0;
      for (int64_t j = 0; j < len; ++j) {
        int64_t at = base + (reverse ? len - 1 - j : j) * inner + i;
        run.push_back(x->elems[at]);
        bool n_ary = op == Op::Sum || op == Op::Prod;  // a sum of the prefix, as tl.sum is
        acc = j == 0 ? run[0] : n_ary ? combine(op, run) : fold(mk(op, {acc, run.back()}));
        r->elems[at] = acc;
      }
    }
  return r;
}

// Triton's _argmax_combine_tie_break_left as keq models it: NaN lanes lose, ties take the first
// index, which is what the GPU gives wherever no lane is NaN. With a NaN lane the GPU's answer
// follows its butterfly order (a NaN met as the second operand wins: a NaN in the last of 8
// lanes is the maximum, one in the second is not; tests/fixtures/gpu/argmax_nan.txt), which keq
// does not model: under --nonfinite-inputs a difference through such a lane may not be real.
// With tie_break_left=False a tie goes to whichever lane the reduction tree meets last.
TensorPtr Triton::arg_reduce(const TensorPtr& x, const Ref& axis_arg, bool is_max,
                             const Ref& tie_break_left, bool keep_dims, Span at) {
  if (!axis_arg || axis_arg->kind == K::None)
    in.unsupported(at, std::string("tl.") + (is_max ? "argmax" : "argmin") +
                           " without an axis (Triton's _reduce_with_indices needs one)");
  if (tie_break_left && !in.truthy(tie_break_left, at))
    in.unsupported(at, "tie_break_left=False (the index of a tie depends on the reduction tree)");
  check_reduce_axis(in, at, axis_arg, x->shape.size());
  int64_t axis = in.to_int(axis_arg, at);
  check_axis(in, at, axis, x->shape.size());
  axis = norm_dim(in, axis, x->shape.size(), at);
  return reduce(
      in, x, {axis}, keep_dims, DType::I32,
      [&](std::vector<TermId>& v) {
        TermId best = v[0], idx = s.constant(ir::Constant::of_int(ir::Type::I32, 0));
        for (size_t k = 1; k < v.size(); ++k) {
          TermId better = mk(is_max ? Op::Gt : Op::Lt, {v[k], best});
          TermId nan_best = mk(Op::And, {mk(Op::Ne, {best, best}), mk(Op::Eq, {v[k], v[k]})});
          TermId take = mk(Op::Or, {better, nan_best});
          best = s.make(Op::Select, {take, v[k], best});
          idx = s.make(
              Op::Select,
              {take, s.constant(ir::Constant::of_int(ir::Type::I32, static_cast<int64_t>(k))),
               idx});
        }
        return idx;
      },
      at);
}

void Triton::install_reductions_and_atomics(const Ref& tl) {
  auto& t = *tl->attrs;
  auto def = [&](const std::string& name, python::BuiltinFn fn) {
    define_tl(tl, name, std::move(fn));
  };
  auto need_kernel = [this](CallArgs& a, const std::string& what) { require_kernel(a, what); };
  auto axis_of = [this](CallArgs& a, const TensorPtr& x, size_t pos) {
    Ref axis = a.get(pos, "axis");
    int64_t d = axis && axis->kind != K::None ? in.to_int(axis, a.at) : 0;
    if (axis && axis->kind != K::None) check_axis(in, a.at, d, x->shape.size());
    return norm_dim(in, d, x->shape.size(), a.at);
  };
  auto reversed = [this](CallArgs& a, size_t pos) {
    Ref r = a.get(pos, "reverse");
    return r && r->kind != K::None && in.truthy(r, a.at);
  };
  for (const auto& scan_op : {std::pair{"cumsum", Op::Sum}, std::pair{"cumprod", Op::Prod}}) {
    Op op = scan_op.second;  // a copy: clang 14 cannot capture a structured binding
    def(scan_op.first, [this, axis_of, reversed, op](Interp&, CallArgs& a) {
      TensorPtr x = as_tensor(in, a.pos.at(0), a.at);
      return wrap(scan(x, axis_of(a, x, 1), op, reversed(a, 2)));
    });
  }
  def("associative_scan", [this, axis_of, reversed](Interp&, CallArgs& a) {
    Ref input = a.get(0, "input");
    if (input && input->kind == K::Tuple)
      in.unsupported(a.at, "tl.associative_scan over a tuple of blocks");
    TensorPtr x = as_tensor(in, input, a.at);
    Op op = combine_op(a.get(2, "combine_fn"), x->dtype, a.at);
    return wrap(scan(x, axis_of(a, x, 1), op, reversed(a, 3)));
  });
  def("reduce", [this](Interp&, CallArgs& a) {
    Ref input = a.get(0, "input");
    if (input && input->kind == K::Tuple) in.unsupported(a.at, "tl.reduce over a tuple of blocks");
    TensorPtr x = as_tensor(in, input, a.at);
    Op op = combine_op(a.get(2, "combine_fn"), x->dtype, a.at);
    Ref keep = a.get(3, "keep_dims");
    return wrap(reduce(
        in, x, reduced_dims(a.get(1, "axis"), x, a.at),
        keep && keep->kind != K::None && in.truthy(keep, a.at), x->dtype,
        [&](std::vector<TermId>& v) { return combine(op, v); }, a.at));
  });
  auto atomic = [this, need_kernel](const std::string& name, Op op) {
    return [this, need_kernel, name, op](Interp&, CallArgs& a) {
      need_kernel(a, "tl." + name);
      check_memory_options(in, a, MemoryCall::Atomic);
      // Atomics from several programs commute: the element accumulates every value (no race).
      // Under a data-dependent condition the value counts only where the condition holds.
      Ref p = a.get(0, "pointer");
      if (!p || p->kind != K::Pointer)
        in.unsupported(a.at, "tl." + name + " to something that is not a pointer block");
      need_known_offsets(p, a.at, "tl." + name);
      Ref mask = a.get(2, "mask");
      if (mask && mask->kind == K::Tensor)
        check_broadcast_to(in, a.at, mask->tensor->shape, p->shape);
      std::vector<bool> lanes = mask_lanes(mask, p->shape, a.at);
      const TensorPtr& buf = p->tensor;
      TensorPtr v = as_tensor(in, a.get(1, "val"), a.at, buf->dtype);
      check_broadcast_to(in, a.at, v->shape, p->shape);
      for (size_t k = 0; k < lanes.size(); ++k) {
        if (!lanes[k]) continue;
        int64_t off = p->offsets[k];
        bool oob = off < 0 || off >= static_cast<int64_t>(buf->elems.size());
        if (oob || buf->elems[off] == Tensor::kUninit)
          need_unconditional(a.at, "tl." + name + " out of bounds or to memory nothing wrote");
        if (oob) {
          finding(a.at, name + " out of bounds: lane " + std::to_string(k) + " element " +
                            std::to_string(off));
          continue;
        }
        TermId val = to_dtype(v->elems[broadcast_index(*v, p->shape, unflatten(k, p->shape))],
                              v->dtype, buf->dtype);
        TermId old = buf->elems[off];
        run->reads_prior = true;
        if (old == Tensor::kUninit) old = undefined(a.at, "uninitialized memory", buf->dtype);
        if (!path.empty() && op != Op::Sum) {
          run->wrote = true;
          buf->write(off, fold(mk(Op::Select, {path_guard(), mk(op, {old, val}), old})));
          continue;
        }
        if (!path.empty())
          val = fold(mk(Op::Select, {path_guard(), val, constant(s, buf->dtype, 0)}));
        // Flatten sums so partial sums from many programs stay one n-ary sum.
        std::vector<TermId> parts;
        if (op == Op::Sum && s.op(old) == Op::Sum)
          parts.assign(s.children(old).begin(), s.children(old).end());
        else
          parts.push_back(old);
        parts.push_back(val);
        run->wrote = true;
        buf->write(off, s.make(op, parts));
      }
      return python::none();
    };
  };
  // atomic_xchg and atomic_cas return the old values. Between programs their order decides
  // the result: xchg of different values from several programs is a finding; of equal values
  // the memory agrees but the old values each program gets do not, and cas between programs
  // (locks, claims) depends on the schedule: both UNSUPPORTED.
  auto exchange = [this, need_kernel](bool cas) {
    return [this, need_kernel, cas](Interp&, CallArgs& a) {
      std::string name = cas ? "tl.atomic_cas" : "tl.atomic_xchg";
      need_kernel(a, name);
      check_memory_options(in, a, MemoryCall::Atomic);
      need_unconditional(a.at, name);
      Ref p = a.get(0, "pointer");
      if (!p || p->kind != K::Pointer)
        in.unsupported(a.at, name + " to something that is not a pointer block");
      need_known_offsets(p, a.at, name);
      const TensorPtr& buf = p->tensor;
      TensorPtr cmp = cas ? as_tensor(in, a.get(1, "cmp"), a.at, buf->dtype) : nullptr;
      TensorPtr v = as_tensor(in, a.get(cas ? 2 : 1, "val"), a.at, buf->dtype);
      for (const TensorPtr& operand : {cmp, v})
        if (operand) check_broadcast_to(in, a.at, operand->shape, p->shape);
      std::vector<bool> lanes = mask_lanes(cas ? nullptr : a.get(2, "mask"), p->shape, a.at);
      std::vector<int64_t>& w = writers(buf);
      auto r = std::make_shared<Tensor>();
      r->shape = p->shape;
      r->dtype = buf->dtype;
      for (size_t k = 0; k < lanes.size(); ++k) {
        int64_t off = p->offsets[k];
        if (!lanes[k] || off < 0 || off >= static_cast<int64_t>(buf->elems.size())) {
          if (lanes[k])
            finding(a.at, name.substr(3) + " out of bounds: lane " + std::to_string(k) +
                              " element " + std::to_string(off));
          r->elems.push_back(undefined(a.at, "masked lane of an atomic", buf->dtype));
          continue;
        }
        std::vector<int64_t> idx = unflatten(k, p->shape);
        TermId val = to_dtype(v->elems[broadcast_index(*v, p->shape, idx)], v->dtype, buf->dtype);
        TermId old = buf->elems[off];
        run->reads_prior = true;
        if (old == Tensor::kUninit) old = undefined(a.at, "uninitialized memory", buf->dtype);
        bool other = w[off] >= 0 && w[off] != run->program();
        if (other && cas)
          in.unsupported(a.at,
                         "tl.atomic_cas on an element another program of the launch wrote "
                         "(a lock or claim: its outcome depends on the schedule)");
        if (other && val == old)  // memory ends the same, but who gets which old value does not
          in.unsupported(a.at,
                         "tl.atomic_xchg of one element by several programs (the values "
                         "they get back depend on the schedule)");
        if (other)
          finding(a.at, "order-dependent atomic_xchg: element " + std::to_string(off) +
                            " is exchanged by several programs with different values");
        r->elems.push_back(other ? undefined(a.at, "order-dependent atomic_xchg result", buf->dtype)
                                 : old);
        if (cas) {
          TermId c =
              to_dtype(cmp->elems[broadcast_index(*cmp, p->shape, idx)], cmp->dtype, buf->dtype);
          val = fold(mk(Op::Select, {mk(Op::Eq, {old, c}), val, old}));
        }
        w[off] = run->program();
        run->wrote = true;
        buf->write(off, val);
      }
      return wrap(r);
    };
  };
  def("atomic_xchg", exchange(false));
  def("atomic_cas", exchange(true));
  def("atomic_add", atomic("atomic_add", Op::Sum));
  def("atomic_max", atomic("atomic_max", Op::TMax));
  def("atomic_min", atomic("atomic_min", Op::TMin));
  for (bool is_max : {true, false})
    def(is_max ? "argmax" : "argmin", [this, is_max](Interp&, CallArgs& a) -> Ref {
      TensorPtr x = as_tensor(in, a.pos.at(0), a.at);
      Ref keep = a.get(3, "keep_dims");
      return wrap(arg_reduce(x, a.get(1, "axis"), is_max, a.get(2, "tie_break_left"),
                             keep && in.truthy(keep, a.at), a.at));
    });
  for (const char* hint : {"multiple_of", "max_contiguous", "max_constancy"})
    def(hint, [hint](Interp& i2, CallArgs& a) {  // no effect on values
      Ref input = a.get(0, "input"), values = a.get(1, "values");
      if (!input || !values)
        i2.raise(a.at, std::string("TypeError: ") + hint + "() missing a required argument");
      check_hint(i2, a.at, hint, input, values);
      return input;
    });
  // tl.static_assert(cond, msg): Triton's code generator evaluates cond at compile time and fails
  // the compilation where it is False; it refuses a keyword argument and a condition that is no
  // bool, an int constexpr included (tests/fixtures/gpu/static_assert.txt, compiled on an H200;
  // the interpreter takes an int's truthiness). A comparison of the run's values is refused too,
  // except where Triton specialized an argument of 1 into a constant (n > 0 passes at n = 1):
  // not modelled.
  def("static_assert", [](Interp& i2, CallArgs& a) {
    if (!a.kw.empty())
      i2.raise(a.at, "TypeError: `static_assert` requires one or two positional arguments only");
    Ref cond = a.get(0, "cond");
    if (cond &&
        (cond->kind == python::Value::Kind::Int || cond->kind == python::Value::Kind::Float))
      i2.raise(a.at,
               "NotImplementedError: Assertion condition could not be determined at compile-time. "
               "Make sure that it depends only on `constexpr` values");
    if (!cond || cond->kind != python::Value::Kind::Bool || cond->f != 0)
      i2.unsupported(a.at, "tl.static_assert of a condition that is not a compile-time bool");
    if (!cond->b) {
      Ref msg = a.get(1, "msg");
      i2.raise(a.at, "CompileTimeAssertionFailure: " +
                         (msg && msg->kind == python::Value::Kind::Str ? msg->s : std::string()));
    }
    return python::none();
  });
  // tl.range and tl.static_range iterate as range() does; their other arguments (num_stages,
  // loop_unroll_factor, ...) are scheduling hints with no effect on values.
  for (const char* name : {"range", "static_range"})
    def(name, [this, name](Interp&, CallArgs& a) {
      record_loop_step(a);
      std::vector<int64_t> v;
      for (const Ref& x : a.pos) v.push_back(int_of(x, a.at));
      if (v.empty() || v.size() > 3)
        in.error(a.at, std::string("tl.") + name + " takes 1 to 3 bounds");
      int64_t lo = v.size() > 1 ? v[0] : 0, hi = v.size() > 1 ? v[1] : v[0],
              step = v.size() > 2 ? v[2] : 1;
      if (step == 0) in.error(a.at, std::string("tl.") + name + " step must not be zero");
      std::vector<Ref> out;  // tl.range's variable is a runtime value, tl.static_range's not
      bool dynamic = std::string(name) == "range";
      for (int64_t i = lo; step > 0 ? i < hi : i > hi; i += step)
        out.push_back(dynamic ? runtime_int(i) : python::integer(i));
      return python::list(out);
    });
  block_ptr_class = in.make_class("block_ptr", nullptr, std::make_shared<Attrs>());
  def("make_block_ptr", [this, need_kernel](Interp&, CallArgs& a) {
    need_kernel(a, "tl.make_block_ptr");
    return make_block_ptr(a.get(0, "base"), ints_of(a.get(1, "shape"), a.at),
                          ints_of(a.get(2, "strides"), a.at), ints_of(a.get(3, "offsets"), a.at),
                          ints_of(a.get(4, "block_shape"), a.at), a.at);
  });
  def("advance", [this](Interp&, CallArgs& a) {
    Ref bp = a.get(0, "base");
    if (!bp || !is_block_ptr(bp)) in.error(a.at, "tl.advance needs a block pointer");
    std::vector<int64_t> offsets = ints_of((*bp->attrs)["offsets"], a.at),
                         by = ints_of(a.get(1, "offsets"), a.at);
    if (by.size() != offsets.size()) in.error(a.at, "tl.advance: offsets differ in rank");
    for (size_t d = 0; d < by.size(); ++d) offsets[d] += by[d];
    return make_block_ptr((*bp->attrs)["base"], ints_of((*bp->attrs)["shape"], a.at),
                          ints_of((*bp->attrs)["strides"], a.at), offsets,
                          ints_of((*bp->attrs)["block_shape"], a.at), a.at);
  });
  def("debug_barrier", [this, need_kernel](Interp&, CallArgs& a) {
    need_kernel(a, "tl.debug_barrier");
    run->stored_lane.clear();  // the program's threads meet: earlier stores are visible
    return python::none();
  });
  // tl.swizzle2d(i, j, size_i, size_j, size_g): Triton 3.6's standard.py, on the concrete
  // program ids keq runs (grouped ordering of a 2-D grid, as in its matmul tutorial).
  def("swizzle2d", [this](Interp&, CallArgs& a) {
    int64_t i = in.to_int(a.get(0, "i"), a.at), j = in.to_int(a.get(1, "j"), a.at);
    int64_t size_i = in.to_int(a.get(2, "size_i"), a.at);
    int64_t size_j = in.to_int(a.get(3, "size_j"), a.at);
    int64_t size_g = in.to_int(a.get(4, "size_g"), a.at);
    if (i < 0 || j < 0 || size_i <= 0 || size_j <= 0 || size_g <= 0)
      in.unsupported(a.at, "tl.swizzle2d of negative indices or empty sizes");
    int64_t ij = i * size_j + j, size_gj = size_g * size_j;
    int64_t off_i = ij / size_gj * size_g;
    size_g = std::min(size_i - off_i, size_g);
    if (size_g <= 0) in.unsupported(a.at, "tl.swizzle2d past the grid");
    ij %= size_gj;
    return python::tuple({runtime_int(off_i + ij % size_g), runtime_int(ij / size_g)});
  });
  def("cdiv", [this](Interp&, CallArgs& a) {
    int64_t x = in.to_int(a.pos.at(0), a.at), y = in.to_int(a.pos.at(1), a.at);
    return python::integer((x + y - 1) / y);
  });
  for (auto [name, d] : std::vector<std::pair<std::string, DType>>{{"float32", DType::F32},
                                                                   {"float16", DType::F16},
                                                                   {"bfloat16", DType::BF16},
                                                                   {"float8e4nv", DType::E4M3},
                                                                   {"float8e5", DType::E5M2},
                                                                   {"int32", DType::I32},
                                                                   {"int64", DType::I64},
                                                                   {"int8", DType::I8},
                                                                   {"uint8", DType::U8},
                                                                   {"int1", DType::Bool}})
    t[name] = torch::dtype_value(d);
  def("dtype", [this](Interp&, CallArgs& a) { return dtype_named(a.get(0, "name"), a.at); });
}

// tl.dtype(name) as core.dtype.__init__ builds it: Triton's short names; anything else fails its
// assert `name in dtype.SINT_TYPES + ...`, and a block there (tl.dtype(x_ptr), where
// x_ptr.dtype.element_ty was meant) raises first: comparing 'int8' with the block calls the
// block's __eq__ outside the code generator (compiled for the H100; the interpreter raises a
// TypeError there instead: tests/fixtures/gpu/realworld/tritonllm_session49.txt).
Ref Triton::dtype_named(const Ref& name, Span at) {
  static const std::vector<std::pair<std::string, DType>> modelled = {
      {"fp32", DType::F32},     {"fp16", DType::F16},   {"bf16", DType::BF16},
      {"fp8e4nv", DType::E4M3}, {"fp8e5", DType::E5M2}, {"int32", DType::I32},
      {"int64", DType::I64},    {"int8", DType::I8},    {"uint8", DType::U8},
      {"int1", DType::Bool}};
  static const std::vector<std::string> unmodelled = {
      "int16", "uint16", "uint32", "uint64", "fp8e4b15", "fp8e4b8", "fp8e5b16", "fp64", "void"};
  if (!name)
    in.raise(at, "TypeError: dtype.__init__() missing 1 required positional argument: 'name'");
  if (name->kind == K::Tensor || name->kind == K::Pointer)
    in.raise(at,
             "ValueError: Did you forget to add @triton.jit ? (`_semantic` argument must be "
             "provided outside of JIT functions.)");
  if (name->kind == K::Str) {
    for (const auto& [n, d] : modelled)
      if (n == name->s) return torch::dtype_value(d);
    for (const std::string& n : unmodelled)
      if (n == name->s) return torch::unmodelled_dtype_value(n);
  }
  in.raise(at, "AssertionError: " + in.repr(name));
}

// range(lo, n, step) in a kernel, n a runtime int and step at least 2: (n, step) for the
// default bound (TorchState::loop_steps), as a block compared with n records (n, extent).
void Triton::record_loop_step(const CallArgs& a) {
  if (a.pos.size() != 3) return;
  const Ref &end = a.pos[1], &step = a.pos[2];
  if (is_runtime_int(end) && step->kind == K::Int && step->i >= 2 && end->i > 0)
    st.loop_steps.insert({end->i, step->i});
}

}  // namespace keq::triton::impl
