// Losses, functional and as modules, with reduction 'mean' (default), 'sum' or 'none'.
#include "frontends/torch/torch_impl.h"

namespace keq::torch::impl {

void Torch::install_losses(const Ref& nn, const Ref& F, const Ref& module_cls) {
  auto& na = *nn->attrs;
  auto& fa = *F->attrs;
  auto sel = [](Torch& t, TermId c, TermId a, TermId b) { return t.select(c, a, b); };
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
  // Losses of the input and target elements (not of their difference), without weights.
  // Positional arguments from `unread` up to the reduction's are legacy or weights: None only.
  auto elementwise_loss = [&](const std::string& name, size_t unread, size_t reduction_pos,
                              std::function<TermId(Torch&, TermId, TermId, CallArgs&)> f) {
    fa[name] = python::builtin(
        "F." + name, [this, f, reduce_loss, name, unread, reduction_pos](Interp&, CallArgs& a) {
          TensorPtr x = tensor_arg(a, 0, "input"), y = tensor_arg(a, 1, "target");
          for (size_t k = unread; k < std::min(reduction_pos, a.pos.size()); ++k)
            if (a.pos[k]->kind != K::None)
              in.unsupported(a.at, name + "'s positional argument " + std::to_string(k + 1));
          for (const char* w : {"weight", "pos_weight", "size_average", "reduce"})
            if (Ref v = a.get(SIZE_MAX, w); v && v->kind != K::None)
              in.unsupported(a.at, name + " with " + w + "=");
          if (x->dtype != DType::F32) in.unsupported(a.at, name + " of non-fp32 inputs");
          TensorPtr l = map2(
              in, x, y, x->dtype, [&](TermId p, TermId q) { return f(*this, p, q, a); }, a.at);
          return reduce_loss(a, reduction_pos, l);
        });
  };
  // torch: (y - 1) * max(log1p(-x), -100) - y * max(log(x), -100).
  elementwise_loss("binary_cross_entropy", 2, 5, [](Torch& t, TermId x, TermId y, CallArgs&) {
    TermId floor = t.fconst(-100);
    TermId log_x = t.mk(Op::Max, {t.mk(Op::Log, {x}), floor});
    TermId log_1mx = t.mk(Op::Max, {t.mk(Op::Log1p, {t.mk(Op::Neg, {x})}), floor});
    return t.mk(Op::Sub, {t.mk(Op::Mul, {t.mk(Op::Sub, {y, t.fconst(1)}), log_1mx}),
                          t.mk(Op::Mul, {y, log_x})});
  });
  // torch 2.11: (1 - y) * x - logsigmoid(x).
  elementwise_loss("binary_cross_entropy_with_logits", 2, 5,
                   [](Torch& t, TermId x, TermId y, CallArgs&) {
                     return t.mk(Op::Sub, {t.mk(Op::Mul, {t.mk(Op::Sub, {t.fconst(1), y}), x}),
                                           t.mk(Op::Log, {t.mk(Op::Sigmoid, {x})})});
                   });
  // torch: log1p(exp(-x * y)).
  elementwise_loss("soft_margin_loss", 2, 4, [](Torch& t, TermId x, TermId y, CallArgs&) {
    return t.mk(Op::Log1p, {t.mk(Op::Exp, {t.mk(Op::Mul, {t.mk(Op::Neg, {x}), y})})});
  });
  // poisson_nll_loss with log_input=True and full=False: exp(x) - y * x.
  elementwise_loss("poisson_nll_loss", 4, 7, [](Torch& t, TermId x, TermId y, CallArgs& a) {
    if (!t.bool_arg(a, 2, "log_input", true) || t.bool_arg(a, 3, "full", false))
      t.in.unsupported(a.at, "poisson_nll_loss with log_input=False or full=True");
    return t.mk(Op::Sub, {t.mk(Op::Exp, {x}), t.mk(Op::Mul, {y, x})});
  });
  // multilabel_soft_margin_loss(x, y, weight=None, size_average, reduce, reduction): per sample,
  // -mean over the classes of y log sigmoid(x) + (1 - y) log sigmoid(-x).
  fa["multilabel_soft_margin_loss"] = python::builtin(
      "F.multilabel_soft_margin_loss", [this, reduce_loss](Interp&, CallArgs& a) -> Ref {
        TensorPtr x = tensor_arg(a, 0, "input"), y = tensor_arg(a, 1, "target");
        for (auto [pos, name] :
             {std::pair<size_t, const char*>{2, "weight"}, {3, "size_average"}, {4, "reduce"}})
          if (Ref v = a.get(pos, name); v && v->kind != K::None)
            in.unsupported(a.at, std::string("multilabel_soft_margin_loss with ") + name);
        if (x->shape.size() != 2 || x->dtype != DType::F32)
          in.unsupported(a.at, "multilabel_soft_margin_loss other than [N, C] fp32 inputs");
        TensorPtr l = map2(
            in, x, y, x->dtype,
            [&](TermId p, TermId q) {
              TermId pos = mk(Op::Log, {mk(Op::Sigmoid, {p})});
              TermId neg = mk(Op::Log, {mk(Op::Sigmoid, {mk(Op::Neg, {p})})});
              return mk(Op::Neg, {mk(Op::Add, {mk(Op::Mul, {q, pos}),
                                               mk(Op::Mul, {mk(Op::Sub, {fconst(1), q}), neg})})});
            },
            a.at);
        TensorPtr per_sample = reduce(
            in, l, {1}, false, l->dtype,
            [&](std::vector<TermId>& v) {
              return mk(Op::Div, {sum_of(v), fconst(static_cast<double>(v.size()))});
            },
            a.at);
        return reduce_loss(a, 5, per_sample);
      });
  // cosine_embedding_loss(x1, x2, y, margin=0): 1 - cos where y = 1, max(0, cos - margin) where
  // y = -1, with torch's cos = sum(x1 x2) / sqrt((sum x1^2 + 1e-12) (sum x2^2 + 1e-12)).
  fa["cosine_embedding_loss"] =
      python::builtin("F.cosine_embedding_loss", [this, reduce_loss](Interp&, CallArgs& a) -> Ref {
        TensorPtr x1 = tensor_arg(a, 0, "input1"), x2 = tensor_arg(a, 1, "input2"),
                  y = tensor_arg(a, 2, "target");
        if (x1->shape.size() != 2 || x2->shape != x1->shape || x1->dtype != DType::F32)
          in.unsupported(a.at, "cosine_embedding_loss other than [N, D] fp32 inputs");
        TermId margin = fconst(static_cast<float>(float_arg(a, 3, "margin", 0.0)));
        int64_t n = x1->shape[0], d = x1->shape[1];
        define_unwritten(in, *x1, a.at);
        define_unwritten(in, *x2, a.at);
        auto l = std::make_shared<Tensor>();
        l->shape = {n};
        l->dtype = DType::F32;
        TermId eps = fconst(1e-12f);
        for (int64_t i = 0; i < n; ++i) {
          std::vector<TermId> prod, sq1, sq2;
          for (int64_t k = 0; k < d; ++k) {
            TermId p = x1->elems[i * d + k], q = x2->elems[i * d + k];
            prod.push_back(mk(Op::Mul, {p, q}));
            sq1.push_back(mk(Op::Mul, {p, p}));
            sq2.push_back(mk(Op::Mul, {q, q}));
          }
          TermId den =
              mk(Op::Sqrt,
                 {mk(Op::Mul, {mk(Op::Add, {sum_of(sq1), eps}), mk(Op::Add, {sum_of(sq2), eps})})});
          TermId cos = mk(Op::Div, {sum_of(prod), den});
          TermId yi = convert(s, y->elems[y->shape.empty() ? 0 : i], y->dtype, DType::F32);
          TermId pos = mk(Op::Sub, {fconst(1), cos});
          TermId neg = mk(Op::Max, {fconst(0), mk(Op::Sub, {cos, margin})});
          // torch: where(y == 1, 1 - cos, 0) + where(y == -1, max(0, cos - margin), 0).
          l->elems.push_back(mk(Op::Add, {select(mk(Op::Eq, {yi, fconst(1)}), pos, fconst(0)),
                                          select(mk(Op::Eq, {yi, fconst(-1)}), neg, fconst(0))}));
        }
        return reduce_loss(a, 6, l);
      });
  // gaussian_nll_loss(input, target, var, full=False, eps=1e-6): 0.5 (log(max(var, eps)) +
  // (input - target)^2 / max(var, eps)), plus 0.5 log(2 pi) when full; var broadcasts.
  fa["gaussian_nll_loss"] =
      python::builtin("F.gaussian_nll_loss", [this, reduce_loss](Interp&, CallArgs& a) -> Ref {
        TensorPtr x = tensor_arg(a, 0, "input"), y = tensor_arg(a, 1, "target"),
                  var = tensor_arg(a, 2, "var");
        if (x->dtype != DType::F32 || var->shape != x->shape)
          in.unsupported(a.at, "gaussian_nll_loss other than fp32 with a var of the input's shape");
        bool full = bool_arg(a, 3, "full", false);
        TermId eps = fconst(static_cast<float>(float_arg(a, 4, "eps", 1e-6)));
        TensorPtr d = map2(
            in, x, y, x->dtype,
            [&](TermId p, TermId q) {
              TermId e = mk(Op::Sub, {p, q});
              return mk(Op::Mul, {e, e});
            },
            a.at);
        TensorPtr l = map2(
            in, d, var, x->dtype,
            [&](TermId sq, TermId v) {
              TermId cv = mk(Op::Max, {v, eps});
              TermId r = mk(Op::Mul,
                            {fconst(0.5), mk(Op::Add, {mk(Op::Log, {cv}), mk(Op::Div, {sq, cv})})});
              return full ? mk(Op::Add, {r, fconst(static_cast<float>(0.5 * std::log(2 * M_PI)))})
                          : r;
            },
            a.at);
        return reduce_loss(a, 5, l);
      });
  // margin_ranking_loss(x1, x2, y, margin=0): max(0, -y (x1 - x2) + margin).
  fa["margin_ranking_loss"] =
      python::builtin("F.margin_ranking_loss", [this, reduce_loss](Interp&, CallArgs& a) -> Ref {
        TensorPtr x1 = tensor_arg(a, 0, "input1"), x2 = tensor_arg(a, 1, "input2"),
                  y = tensor_arg(a, 2, "target");
        TermId margin = fconst(static_cast<float>(float_arg(a, 3, "margin", 0.0)));
        TensorPtr l = map3(
            in, x1, x2, y, x1->dtype,
            [&](TermId p, TermId q, TermId r) {
              TermId v =
                  mk(Op::Add, {mk(Op::Mul, {mk(Op::Neg, {r}), mk(Op::Sub, {p, q})}), margin});
              return mk(Op::Max, {v, fconst(0)});
            },
            a.at);
        return reduce_loss(a, 6, l);
      });
  // nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
  // reduction='mean'); cross_entropy adds label_smoothing=0.0. Targets are class indices.
  auto nll = [this, reduce_loss](CallArgs& a, const TensorPtr& logp, const TensorPtr& target,
                                 const std::string& what) -> Ref {
    if (logp->shape.size() != 2 || target->shape.size() != 1 || torch::is_float(target->dtype))
      in.unsupported(a.at, what + " other than [N, C] inputs with [N] class indices");
    auto given = [&](size_t pos, const char* name) {
      Ref v = a.get(pos, name);
      return v && v->kind != K::None;
    };
    if (given(2, "weight") || given(3, "size_average") || given(5, "reduce"))
      in.unsupported(a.at, what + " with class weights or the legacy size_average/reduce");
    // cross_entropy's label_smoothing e: (1 - e) * nll + e / C * (-sum of the row's log p).
    double smoothing = what == "cross_entropy" ? float_arg(a, 7, "label_smoothing", 0.0) : 0.0;
    if (smoothing < 0 || smoothing > 1)
      in.raise(a.at, "RuntimeError: label_smoothing must be between 0.0 and 1.0");
    int64_t ignore = given(4, "ignore_index") ? in.to_int(a.get(4, "ignore_index"), a.at) : -100;
    int64_t n = logp->shape[0], classes = logp->shape[1];
    if (ignore >= 0 && ignore < classes)
      in.unsupported(a.at, what + " with an ignore_index that is a class");
    auto losses = std::make_shared<Tensor>();
    losses->shape = {n};
    losses->dtype = logp->dtype;
    for (int64_t i = 0; i < n; ++i) {
      std::vector<TermId> row;
      for (int64_t k = 0; k < classes; ++k)
        row.push_back(mk(Op::Neg, {logp->elems[i * classes + k]}));
      // Targets outside [0, C) (ignore_index among them) are refused by pick.
      TermId loss = pick(target->elems[i], row, a.at, what);
      if (smoothing != 0)
        loss =
            mk(Op::Add,
               {mk(Op::Mul, {fconst(static_cast<float>(1 - smoothing)), loss}),
                mk(Op::Mul, {fconst(static_cast<float>(smoothing / static_cast<double>(classes))),
                             sum_of(row)})});
      losses->elems.push_back(loss);
    }
    return reduce_loss(a, 6, losses);
  };
  fa["nll_loss"] = python::builtin("F.nll_loss", [this, nll](Interp&, CallArgs& a) -> Ref {
    return nll(a, tensor_arg(a, 0, "input"), tensor_arg(a, 1, "target"), "nll_loss");
  });
  fa["cross_entropy"] =
      python::builtin("F.cross_entropy", [this, nll](Interp& i2, CallArgs& a) -> Ref {
        TensorPtr x = tensor_arg(a, 0, "input");
        if (x->shape.size() != 2)
          in.unsupported(a.at, "cross_entropy other than [N, C] logits with [N] class indices");
        CallArgs c;
        c.at = a.at;
        c.pos = {wrap(x), python::integer(1)};
        return nll(a, ops.at("log_softmax")(i2, c)->tensor, tensor_arg(a, 1, "target"),
                   "cross_entropy");
      });
  fa["kl_div"] = python::builtin("F.kl_div", [this, reduce_loss, sel](Interp&, CallArgs& a) -> Ref {
    TensorPtr x = tensor_arg(a, 0, "input"), y = tensor_arg(a, 1, "target");
    if (bool_arg(a, 99, "log_target", false))  // torch: exp(target) * (target - input)
      return reduce_loss(a, 99,
                         map2(
                             in, x, y, x->dtype,
                             [&](TermId p, TermId q) {
                               return mk(Op::Mul, {mk(Op::Exp, {q}), mk(Op::Sub, {q, p})});
                             },
                             a.at));
    TensorPtr d = map2(
        in, x, y, x->dtype,
        // torch: xlogy(q, q) - q * p, xlogy(q, q) being 0 where q == 0 (NaN for a negative
        // q, and 0 * p is NaN for an infinite p). Factored as q * (log q - p) where q != 0: the
        // same value (log is an approximation in IEEE anyway). q > 0 first: the interval
        // analysis settles that test for a softmax's q, and the e-graph then needs no other.
        [&](TermId p, TermId q) {
          TermId main = mk(Op::Mul, {q, mk(Op::Sub, {mk(Op::Log, {q}), p})});
          return sel(
              *this, mk(Op::Gt, {q, fconst(0)}), main,
              sel(*this, mk(Op::Eq, {q, fconst(0)}), mk(Op::Neg, {mk(Op::Mul, {q, p})}), main));
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
              // torch: max(0, margin - x) where y != 1, plus x where y != -1 (both for other y,
              // such as the 0 of torch.sign(0); measured on the H200).
              return mk(Op::Add, {sel(*this, mk(Op::Ne, {q, fconst(1)}), hinge, fconst(0)),
                                  sel(*this, mk(Op::Ne, {q, fconst(-1)}), p, fconst(0))});
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
  fa["pairwise_distance"] =
      python::builtin("F.pairwise_distance", [this, pair_norm](Interp&, CallArgs& a) -> Ref {
        if (float_arg(a, 2, "p", 2) != 2 || bool_arg(a, 4, "keepdim", false))
          in.unsupported(a.at, "pairwise_distance with p != 2 or keepdim");
        return wrap(pair_norm(tensor_arg(a, 0, "x1"), tensor_arg(a, 1, "x2"),
                              float_arg(a, 3, "eps", 1e-6), a.at));
      });
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
  // Loss modules: constructor keywords become the functional form's keywords.
  for (auto [cls, fn] : std::vector<std::pair<std::string, std::string>>{
           {"MSELoss", "mse_loss"},
           {"L1Loss", "l1_loss"},
           {"SmoothL1Loss", "smooth_l1_loss"},
           {"HuberLoss", "huber_loss"},
           {"CrossEntropyLoss", "cross_entropy"},
           {"NLLLoss", "nll_loss"},
           {"KLDivLoss", "kl_div"},
           {"HingeEmbeddingLoss", "hinge_embedding_loss"},
           {"TripletMarginLoss", "triplet_margin_loss"},
           {"CosineSimilarity", "cosine_similarity"},
           {"PairwiseDistance", "pairwise_distance"},
           {"BCELoss", "binary_cross_entropy"},
           {"BCEWithLogitsLoss", "binary_cross_entropy_with_logits"},
           {"SoftMarginLoss", "soft_margin_loss"},
           {"PoissonNLLLoss", "poisson_nll_loss"},
           {"MarginRankingLoss", "margin_ranking_loss"},
           {"MultiLabelSoftMarginLoss", "multilabel_soft_margin_loss"},
           {"CosineEmbeddingLoss", "cosine_embedding_loss"},
           {"GaussianNLLLoss", "gaussian_nll_loss"}}) {
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
}

}  // namespace keq::torch::impl
