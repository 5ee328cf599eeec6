// The activations of torch.nn.functional written from other ops (logsigmoid, hardshrink,
// celu, glu, ...).
#include "frontends/torch/torch_impl.h"

namespace keq::torch::impl {

void Torch::install_activations(const Ref& F) {
  auto expose = [&](const std::string& name) { this->expose(F, name); };
  auto act = [&](const std::string& name, ElementFn f) {
    activation(name, std::move(f));
    expose(name);
  };
  auto sel = [](Torch& t, TermId c, TermId a, TermId b) { return t.select(c, a, b); };
  act("logsigmoid",
      [](Torch& t, TermId x, CallArgs&) { return t.mk(Op::Log, {t.mk(Op::Sigmoid, {x})}); });
  act("frac", [](Torch& t, TermId x, CallArgs&) {
    return t.mk(Op::Sub, {x, t.mk(Op::Trunc, {x})});
  });
  // torch.square is pow(x, 2): x * x, rounded once to x's dtype.
  act("square", [](Torch& t, TermId x, CallArgs&) { return t.mk(Op::Mul, {x, x}); });
  // (0 < x) - (x < 0): +0 for either zero and for NaN (measured on the H200 and the CPU).
  act("sign", [sel](Torch& t, TermId x, CallArgs&) {
    return sel(t, t.mk(Op::Gt, {x, t.fconst(0)}), t.fconst(1),
               sel(t, t.mk(Op::Lt, {x, t.fconst(0)}), t.fconst(-1), t.fconst(0)));
  });
  // torch's kernels test the inside, so a NaN is kept: (-l <= x <= l) ? 0 : x.
  act("hardshrink", [sel](Torch& t, TermId x, CallArgs& a) {
    TermId l = t.fconst(static_cast<float>(t.float_arg(a, 1, "lambd", 0.5)));
    TermId inside = t.mk(Op::And, {t.mk(Op::Ge, {x, t.mk(Op::Neg, {l})}), t.mk(Op::Le, {x, l})});
    return sel(t, inside, t.fconst(0), x);
  });
  act("softshrink", [sel](Torch& t, TermId x, CallArgs& a) {
    TermId l = t.fconst(static_cast<float>(t.float_arg(a, 1, "lambd", 0.5)));
    // CUDA keeps a NaN (measured on the H200): 0 inside [-l, l], else x -/+ l.
    TermId inside = t.mk(Op::And, {t.mk(Op::Ge, {x, t.mk(Op::Neg, {l})}), t.mk(Op::Le, {x, l})});
    return sel(t, inside, t.fconst(0),
               sel(t, t.mk(Op::Gt, {x, l}), t.mk(Op::Sub, {x, l}), t.mk(Op::Add, {x, l})));
  });
  act("threshold", [sel](Torch& t, TermId x, CallArgs& a) {
    TermId th = t.fconst(static_cast<float>(t.float_arg(a, 1, "threshold", 0))),
           v = t.fconst(static_cast<float>(t.float_arg(a, 2, "value", 0)));
    return sel(t, t.mk(Op::Le, {x, th}), v, x);  // torch: x <= th ? v : x (a NaN is kept)
  });
  act("celu", [](Torch& t, TermId x, CallArgs& a) {
    TermId alpha = t.fconst(static_cast<float>(t.float_arg(a, 1, "alpha", 1)));
    TermId neg = t.mk(
        Op::Mul, {alpha, t.mk(Op::Sub, {t.mk(Op::Exp, {t.mk(Op::Div, {x, alpha})}), t.fconst(1)})});
    return t.mk(Op::Add, {t.mk(Op::Max, {x, t.fconst(0)}), t.mk(Op::Min, {t.fconst(0), neg})});
  });
  act("tanhshrink", [](Torch& t, TermId x, CallArgs&) {
    return t.mk(Op::Sub, {x, t.mk(Op::Tanh, {x})});
  });
  // logit(x, eps=None): log(z / (1 - z)), z = x clamped to [eps, 1 - eps] when eps is given.
  act("logit", [](Torch& t, TermId x, CallArgs& a) {
    Ref eps = a.get(1, "eps");
    TermId z = x;
    if (eps && eps->kind != K::None) {
      double e = t.in.to_float(eps, a.at);
      z = t.s.make(Op::Clamp,
                   {x, t.fconst(static_cast<float>(e)), t.fconst(static_cast<float>(1 - e))});
    }
    return t.mk(Op::Log, {t.mk(Op::Div, {z, t.mk(Op::Sub, {t.fconst(1), z})})});
  });
  // prelu(x, weight): x where x >= 0, else weight * x; the weight has one element or one per
  // channel (dimension 1).
  define("prelu", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input"), w = tensor_arg(a, 1, "weight");
    if (!torch::is_float(x->dtype)) in.unsupported(a.at, "prelu of an integer tensor");
    int64_t channels = x->shape.size() > 1 ? x->shape[1] : 1;
    if (w->numel() != 1 && w->numel() != channels)
      in.raise(a.at, "RuntimeError: prelu: mismatch of parameter numbers and input channel size");
    define_unwritten(in, *x, a.at);
    int64_t inner = 1;
    for (size_t d = 2; d < x->shape.size(); ++d) inner *= x->shape[d];
    auto r = std::make_shared<Tensor>(*x);
    r->storage = SameStorage{};
    for (int64_t k = 0; k < x->numel(); ++k) {
      TermId e = x->elems[k];
      TermId slope = w->elems[w->numel() == 1 ? 0 : (k / inner) % channels];
      TermId neg = round_to(s, x->dtype, mk(Op::Mul, {convert(s, slope, w->dtype, x->dtype), e}));
      r->elems[k] = select(mk(Op::Ge, {e, constant(s, x->dtype, 0)}), e, neg);
    }
    return wrap(r);
  });
  expose("prelu");
  // softmin(x, dim) = softmax(-x, dim).
  define("softmin", [this](Interp& i2, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    for (const char* k : {"dim", "dtype", "_stacklevel"}) a.has(k);  // softmax reads them from c
    CallArgs c = a;
    c.pos[0] = wrap(map1(
        in, x, x->dtype, [&](TermId e) { return mk(Op::Neg, {e}); }, a.at));
    return unchecked_ops.at("softmax")(i2, c);
  });
  expose("softmin");
  for (const char* n : {"sign", "frac", "square", "logit"})
    (*in.module_value("torch", {}).get()->attrs)[n] =
        python::builtin(std::string("torch.") + n, ops.at(n));
  // glu(x, dim) = a * sigmoid(b), a and b the two halves of x along dim.
  define("glu", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    int64_t dim = norm_dim(in, int_arg(a, 1, "dim").value_or(-1), x->shape.size(), a.at);
    if (x->shape[dim] % 2) in.error(a.at, "glu: the dimension must be even");
    int64_t h = x->shape[dim] / 2;
    TensorPtr first = subscript(x, index_along(dim, slice_value(0, h)), a.at)->tensor;
    TensorPtr second = subscript(x, index_along(dim, slice_value(h, 2 * h)), a.at)->tensor;
    return wrap(map2(
        in, first, second, x->dtype,
        [&](TermId p, TermId q) {
          return mk(Op::Mul, {p, mk(Op::Sigmoid, {q})});
        },
        a.at));
  });
  expose("glu");
}

}  // namespace keq::torch::impl
