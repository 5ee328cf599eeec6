// torch's elementwise family: the op table's math functions, activations, arithmetic with
// alpha= and its aliases, and matrix products.
#include <array>

#include "frontends/torch/torch_impl.h"

namespace keq::torch::impl {

void Torch::activation(const std::string& name, ElementFn f) {
  define(name, [this, f, name](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    if (!torch::is_float(x->dtype)) in.unsupported(a.at, name + " of an integer tensor");
    return wrap(map1(
        in, x, x->dtype, [&](TermId e) { return f(*this, e, a); }, a.at));
  });
}

void Torch::install_elementwise() {
  // Elementwise math: every op the table spells in torch.
  for (auto [name, op] : ir::ops_spelled("torch")) {
    Op o = op;
    std::string n(name);
    define(n, [this, o, n](Interp&, CallArgs& a) { return elementwise(a, o, n); });
  }
  // round(x, *, decimals=0): other decimals scale by a power of ten first (not modelled).
  OpFn round = unchecked_ops.at("round");
  define("round", [this, round](Interp& i2, CallArgs& a) {
    if (Ref d = a.get(SIZE_MAX, "decimals"); d && !(d->kind == K::Int && d->i == 0))
      in.unsupported(a.at, "torch.round with decimals other than 0");
    return round(i2, a);
  });
  auto act = [&](const std::string& name, ElementFn f) { activation(name, std::move(f)); };
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
  // torch's eager mish (CPU and CUDA) is x * tanh(log1p(exp(x))): no softplus threshold (only
  // the torch._refs decomposition goes through F.softplus and its threshold of 20).
  act("mish", [](Torch& t, TermId x, CallArgs&) {
    TermId soft = t.mk(Op::Log, {t.mk(Op::Add, {t.fconst(1), t.mk(Op::Exp, {x})})});
    return t.mk(Op::Mul, {x, t.mk(Op::Tanh, {soft})});
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
  alias("clip", "clamp");
  define("maximum", [this](Interp&, CallArgs& a) {
    return binary_max(a.pos.at(0), a.pos.at(1), a.at, Op::Max);
  });
  define("minimum", [this](Interp&, CallArgs& a) {
    return binary_max(a.pos.at(0), a.pos.at(1), a.at, Op::Min);
  });
  define("where", [this](Interp&, CallArgs& a) {
    TensorPtr c = tensor_arg(a, 0, "condition");
    if (c->dtype != DType::Bool) in.error(a.at, "where: condition must be bool");
    Device where = result_device({a.pos[0], a.pos.at(1), a.pos.at(2)}, a.at);
    DType out = promote(a.pos.at(1), a.pos.at(2), in, a.at);
    TensorPtr x = as_tensor(in, a.pos[1], a.at, out), y = as_tensor(in, a.pos[2], a.at, out);
    DType xd = x->dtype, yd = y->dtype;
    return on_device(wrap(map3(
                         in, c, x, y, out,
                         [&](TermId p, TermId q, TermId r) {
                           return where_term(s, p, convert(s, q, xd, out), convert(s, r, yd, out));
                         },
                         a.at)),
                     where);
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
      Ref x = a.pos.at(0), alpha = a.get(2, "alpha");
      if (!alpha || alpha->kind == K::None) return binary(op, x, other, a.at);
      // x + alpha * other in one float32 computation for fp16 and bf16, as torch's opmath
      DType out = promote(x, other, in, a.at);
      if (!computes_in_float32(op, x, alpha, out))
        return binary(op, x, binary("*", other, alpha, a.at), a.at);
      Ref scaled = binary("*", with_dtype(other, DType::F32, a.at), alpha, a.at);
      return with_dtype(binary(op, with_dtype(x, DType::F32, a.at), scaled, a.at), out, a.at);
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
  // Comparisons as functions (and methods): torch.ne(x, 0) is x != 0.
  for (auto [name, op] : {std::pair<const char*, const char*>{"eq", "=="},
                          {"ne", "!="},
                          {"lt", "<"},
                          {"le", "<="},
                          {"gt", ">"},
                          {"ge", ">="}}) {
    std::string spelled = op;
    define(name, [this, spelled](Interp&, CallArgs& a) {
      return binary(spelled, a.pos.at(0), a.get(1, "other"), a.at);
    });
  }
  alias("not_equal", "ne");
  alias("less", "lt");
  alias("less_equal", "le");
  alias("greater", "gt");
  alias("greater_equal", "ge");

  // clamp_min(x, m) and clamp_max(x, m): clamp with one bound.
  for (const char* name : {"clamp_min", "clamp_max"}) {
    std::string bound = name == std::string("clamp_min") ? "min" : "max";
    define(name, [this, bound](Interp& i2, CallArgs& a) {
      Ref m = a.get(1, bound);
      if (!m) in.error(a.at, "clamp_" + bound + " needs " + bound);
      CallArgs c;
      c.at = a.at;
      c.pos = {a.pos.at(0)};
      c.kw = {{bound, m}};
      return unchecked_ops.at("clamp")(i2, c);
    });
  }
  // fmod (C's: the sign of the dividend) and remainder (Python's: the sign of the divisor).
  for (const char* name : {"fmod", "remainder"}) {
    bool c_style = name == std::string("fmod");
    define(name, [this, c_style](Interp&, CallArgs& a) {
      Ref x = a.pos.at(0), y = a.get(1, "other");
      if (!y) in.error(a.at, std::string(c_style ? "fmod" : "remainder") + " needs other");
      DType out = promote(x, y, in, a.at);
      Op op = torch::is_float(out) ? (c_style ? Op::FMod : Op::Remainder)
                                   : (c_style ? Op::ModC : Op::ModPy);
      return binary_max(x, y, a.at, op);
    });
  }
  define("floor_divide", [this](Interp&, CallArgs& a) {
    Ref other = a.get(1, "other");
    if (!other) in.error(a.at, "floor_divide needs other");
    return binary("//", a.pos.at(0), other, a.at);
  });
  // xlogy(x, y): 0 where x == 0 (unless y is NaN), else x * log(y), as torch's kernel.
  define("xlogy", [this](Interp&, CallArgs& a) {
    return float_binary(a, "xlogy", [this](TermId x, TermId y) {
      TermId nan_y = mk(Op::Ne, {y, y});
      return select(
          nan_y, y,
          select(mk(Op::Eq, {x, fconst(0)}), fconst(0), mk(Op::Mul, {x, mk(Op::Log, {y})})));
    });
  });
  // hypot(x, y): sqrt(x^2 + y^2) over the reals; libm's hypot rounds otherwise in IEEE.
  define("hypot", [this](Interp&, CallArgs& a) {
    return float_binary(a, "hypot", [this](TermId x, TermId y) {
      TermId v = mk(Op::Sqrt, {mk(Op::Add, {mk(Op::Mul, {x, x}), mk(Op::Mul, {y, y})})});
      st.ieee_unfixed.emplace(v, "torch.hypot (libm's hypot)");
      return v;
    });
  });
  // lerp(a, b, w): torch's two-sided formula, a + w (b - a) for |w| < 0.5, else
  // b - (b - a)(1 - w); one value over the reals. One fused kernel on the GPU, which nvcc may
  // contract into fmas: not bit-exact in IEEE. fp32 only (torch rounds a narrow result once).
  define("lerp", [this](Interp&, CallArgs& a) {
    Ref start = a.pos.at(0), end = a.get(1, "end"), weight = a.get(2, "weight");
    if (!end || !weight) in.error(a.at, "lerp needs end and weight");
    DType out = promote(start, end, in, a.at);
    if (out != DType::F32)
      in.unsupported(a.at, "lerp of " + std::string(dtype_name(out)) + " tensors");
    TensorPtr x = as_tensor(in, start, a.at, out), y = as_tensor(in, end, a.at, out),
              w = as_tensor(in, weight, a.at, out);
    return wrap(map3(
        in, x, y, w, out,
        [&](TermId p, TermId q, TermId r) {
          TermId d = mk(Op::Sub, {q, p});
          TermId v = select(mk(Op::Lt, {mk(Op::Abs, {r}), fconst(0.5)}),
                            mk(Op::Add, {p, mk(Op::Mul, {r, d})}),
                            mk(Op::Sub, {q, mk(Op::Mul, {d, mk(Op::Sub, {fconst(1), r})})}));
          st.ieee_unfixed.emplace(v, "torch.lerp (one kernel, which may contract into fmas)");
          return v;
        },
        a.at));
  });
  // isnan, isinf, isfinite, isposinf, isneginf: bool tensors, exact tests.
  for (const char* name : {"isnan", "isinf", "isfinite", "isposinf", "isneginf"}) {
    std::string n = name;
    define(n, [this, n](Interp&, CallArgs& a) {
      TensorPtr x = tensor_arg(a, 0, "input");
      DType d = x->dtype;
      return wrap(map1(
          in, x, DType::Bool,
          [&](TermId e) -> TermId {
            if (!torch::is_float(d)) return constant(s, DType::Bool, n == "isfinite" ? 1 : 0);
            TermId pos = mk(Op::Eq, {e, fconst(INFINITY)}),
                   neg = mk(Op::Eq, {e, fconst(-INFINITY)});
            TermId nan = mk(Op::Ne, {e, e});
            if (n == "isnan") return nan;
            if (n == "isposinf") return pos;
            if (n == "isneginf") return neg;
            TermId inf = mk(Op::Or, {pos, neg});
            return n == "isinf" ? inf : mk(Op::Not, {mk(Op::Or, {inf, nan})});
          },
          a.at));
    });
  }
  // nan_to_num(x, nan=0.0, posinf=None, neginf=None): None is the dtype's largest finite value.
  define("nan_to_num", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    if (!torch::is_float(x->dtype)) return wrap(x);
    if (x->dtype != DType::F32) in.unsupported(a.at, "nan_to_num of a narrow float tensor");
    auto value = [&](size_t pos, const char* name, double dflt) {
      Ref v = a.get(pos, name);
      return fconst(v && v->kind != K::None ? in.to_float(v, a.at) : dflt);
    };
    TermId nan = value(1, "nan", 0), pos = value(2, "posinf", FLT_MAX),
           neg = value(3, "neginf", -FLT_MAX);
    return wrap(map1(
        in, x, x->dtype,
        [&](TermId e) {
          return select(mk(Op::Ne, {e, e}), nan,
                        select(mk(Op::Eq, {e, fconst(INFINITY)}), pos,
                               select(mk(Op::Eq, {e, fconst(-INFINITY)}), neg, e)));
        },
        a.at));
  });
  // logical_and/or/xor/not: a nonzero element is true; the result is bool.
  auto truth = [this](TermId e, DType d) {
    return d == DType::Bool ? e : mk(Op::Ne, {e, constant(s, d, 0)});
  };
  for (const char* name : {"logical_and", "logical_or", "logical_xor"}) {
    std::string n = name;
    define(n, [this, n, truth](Interp&, CallArgs& a) {
      TensorPtr x = tensor_arg(a, 0, "input");
      Ref other = a.get(1, "other");
      if (!other) in.error(a.at, n + " needs other");
      TensorPtr y =
          as_tensor(in, other, a.at, other->kind == K::Tensor ? other->tensor->dtype : x->dtype);
      DType xd = x->dtype, yd = y->dtype;
      return wrap(map2(
          in, x, y, DType::Bool,
          [&](TermId p, TermId q) {
            TermId u = truth(p, xd), v = truth(q, yd);
            if (n == "logical_and") return mk(Op::And, {u, v});
            if (n == "logical_or") return mk(Op::Or, {u, v});
            return mk(Op::Or,
                      {mk(Op::And, {u, mk(Op::Not, {v})}), mk(Op::And, {mk(Op::Not, {u}), v})});
          },
          a.at));
    });
  }
  define("logical_not", [this, truth](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    DType d = x->dtype;
    return wrap(map1(
        in, x, DType::Bool, [&](TermId e) { return mk(Op::Not, {truth(e, d)}); }, a.at));
  });
  alias("multiply", "mul");
  alias("divide", "div");
  alias("true_divide", "div");
  alias("subtract", "sub");
  // Matrix products.
  define("matmul", [this](Interp&, CallArgs& a) {
    return matmul(tensor_arg(a, 0, "input"), tensor_arg(a, 1, "other"), a.at);
  });
  alias("mm", "matmul");
  alias("bmm", "matmul");
  // addcmul/addcdiv: input + value * t1 * t2 (or / t2), one fused op: over the reals the order
  // of the exact operations does not matter; fp16 and bf16 tensors are computed in float32 and
  // rounded once, as torch's opmath does (measured on the CPU, every bf16 and fp16 value:
  // tests/fixtures/gpu/narrow_scalars_cpu.txt; not yet on the GPU). Its float32 bits are not
  // modelled: a few values differ from (value * t1) * t2 rounded step by step, as from an fma.
  for (const char* name : {"addcmul", "addcdiv"}) {
    std::string n = name;
    define(n, [this, n](Interp&, CallArgs& a) {
      Ref input = a.pos.at(0), t1 = a.get(1, "tensor1"), t2 = a.get(2, "tensor2");
      if (!t1 || !t2) in.error(a.at, "torch." + n + "(input, tensor1, tensor2, value=1)");
      DType out = promote(input, t1, in, a.at);
      if (promote(input, t2, in, a.at) != out) out = DType::F32;  // fp16 beside bf16 or fp32
      for (const Ref& t : {input, t1, t2})
        if (t->kind == K::Tensor && t->tensor->dtype != DType::F32 &&
            t->tensor->dtype != DType::F16 && t->tensor->dtype != DType::BF16)
          in.unsupported(a.at, "torch." + n + " on " + std::string(dtype_name(t->tensor->dtype)) +
                                   " tensors (modelled for float32, float16 and bfloat16)");
      const DType wide = out == DType::F16 || out == DType::BF16 ? DType::F32 : out;
      Ref term = binary(n == "addcmul" ? "*" : "/", with_dtype(t1, wide, a.at),
                        with_dtype(t2, wide, a.at), a.at);
      if (Ref value = a.get(3, "value")) term = binary("*", value, term, a.at);
      Ref sum = binary("+", with_dtype(input, wide, a.at), term, a.at);
      for (TermId e : sum->tensor->elems)
        st.ieee_unfixed.emplace(e, "torch." + n + " (one kernel, which may contract into fmas)");
      return with_dtype(sum, out, a.at);
    });
  }
  // addmm(input, mat1, mat2, *, beta=1, alpha=1): beta * input + alpha * (mat1 @ mat2); with
  // beta = 0 the input is not read (a NaN there does not propagate), as torch documents.
  // baddbmm(input, batch1, batch2, *, beta=1, alpha=1): the same over batched products.
  // (Named copies, not a structured binding: clang 14 cannot capture one.)
  for (const auto& names : {std::array<const char*, 3>{"addmm", "mat1", "mat2"},
                            std::array<const char*, 3>{"baddbmm", "batch1", "batch2"}}) {
    const char *name = names[0], *m1 = names[1], *m2 = names[2];
    define(name, [this, m1, m2](Interp&, CallArgs& a) {
      Ref prod = matmul(tensor_arg(a, 1, m1), tensor_arg(a, 2, m2), a.at);
      Ref beta = a.get(SIZE_MAX, "beta"), alpha = a.get(SIZE_MAX, "alpha");
      auto is = [&](const Ref& v, double x) {
        return (v->kind == K::Int || v->kind == K::Bool || v->kind == K::Float) &&
               in.to_float(v, a.at) == x;
      };
      if (alpha && !is(alpha, 1)) prod = binary("*", alpha, prod, a.at);
      Ref input = a.get(0, "input");
      if (beta && is(beta, 0)) return prod;
      if (beta && !is(beta, 1)) input = binary("*", beta, input, a.at);
      return binary("+", input, prod, a.at);
    });
  }
}

}  // namespace keq::torch::impl
