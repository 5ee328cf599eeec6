// Convolutions, pooling (fixed and adaptive) and normalization layers.
#include "frontends/torch/torch_impl.h"

namespace keq::torch::impl {

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
        return wrap(conv(x, w, optional_tensor(a.get(2, "bias")), c, a.at));
      });
      std::string cls = transposed ? "ConvTranspose" + suffix : "Conv" + suffix;
      auto attrs = std::make_shared<Attrs>();
      (*attrs)["__init__"] =
          python::builtin(cls + ".__init__", [this, nd, transposed, cls](Interp& i2, CallArgs& a) {
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
            std::vector<int64_t> wshape = transposed ? std::vector<int64_t>{cin, cout / g}
                                                     : std::vector<int64_t>{cout, cin / g};
            wshape.insert(wshape.end(), k.begin(), k.end());
            i2.setattr(self, "weight",
                       layer_parameter(
                           symbolic("nn." + cls + ".weight", wshape, parameter_dtype, a.at, true)),
                       a.at);
            bool has_bias = bool_arg(a, 8, "bias", true);
            i2.setattr(self, "bias",
                       has_bias ? layer_parameter(symbolic("nn." + cls + ".bias", {cout},
                                                           parameter_dtype, a.at, true))
                                : python::none(),
                       a.at);
            // As torch stores them: sizes as nd-tuples (kernel_size, stride, padding unless a
            // string, dilation, output_padding), groups an int.
            auto tuple_of = [&](const std::vector<int64_t>& v) {
              std::vector<Ref> items;
              for (int64_t x : v) items.push_back(python::integer(x));
              return python::tuple(items);
            };
            i2.setattr(self, "in_channels", python::integer(cin), a.at);
            i2.setattr(self, "out_channels", python::integer(cout), a.at);
            i2.setattr(self, "kernel_size", tuple_of(k), a.at);
            i2.setattr(self, "transposed", python::boolean(transposed), a.at);
            for (auto [name, idx, dflt] : std::vector<std::tuple<const char*, size_t, int64_t>>{
                     {"stride", 4, 1},
                     {"padding", 5, 0},
                     {"dilation", transposed ? 9u : 6u, 1},
                     {"output_padding", transposed ? 6u : SIZE_MAX, 0}}) {
              Ref v = a.get(idx, name);
              i2.setattr(self, name,
                         v && v->kind == K::Str ? v : tuple_of(tuple_arg(v, nd, dflt, a.at)), a.at);
            }
            i2.setattr(self, "groups", python::integer(g), a.at);
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
            return wrap(conv(tensor_arg(a, 1, "input"), w,
                             optional_tensor(i2.getattr(self, "bias", a.at)), c, a.at));
          });
      take_factory_kwargs(cls, *attrs);
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
      fa[fname] =
          python::builtin("F." + fname, [this, spec_from, is_max, fname](Interp& i2, CallArgs& a) {
            bool with_indices =
                is_max && a.get(5, "return_indices") && i2.truthy(a.get(5, "return_indices"), a.at);
            PoolSpec p = is_max ? spec_from(a, a.get(1, "kernel_size"), a.get(2, "stride"),
                                            a.get(3, "padding"), a.get(4, "dilation"),
                                            a.get(6, "ceil_mode"), nullptr)
                                : spec_from(a, a.get(1, "kernel_size"), a.get(2, "stride"),
                                            a.get(3, "padding"), a.get(5, "count_include_pad"),
                                            a.get(4, "ceil_mode"), a.get(6, "divisor_override"));
            // A window of one element, stride one, is the identity: sizes scaled down to it (a
            // pool_kernel_size of 16 counts as a size) would hide a pooling bug, as one group does.
            if (std::all_of(p.kernel.begin(), p.kernel.end(), [](int64_t k) { return k == 1; }) &&
                std::all_of(p.stride.begin(), p.stride.end(), [](int64_t k) { return k == 1; }))
              st.flattened.insert(i2.where(a.at) + ": F." + fname +
                                  " with a window of 1 (the identity)");
            if (with_indices) {  // (values, indices)
              TensorPtr indices;
              Ref values = wrap(pool(tensor_arg(a, 0, "input"), p, a.at, &indices));
              return python::tuple({values, wrap(indices)});
            }
            return wrap(pool(tensor_arg(a, 0, "input"), p, a.at));
          });
      auto attrs = std::make_shared<Attrs>();
      std::vector<std::string> names =
          is_max ? std::vector<std::string>{"kernel_size", "stride",         "padding",
                                            "dilation",    "return_indices", "ceil_mode"}
                 : std::vector<std::string>{"kernel_size",       "stride",
                                            "padding",           "ceil_mode",
                                            "count_include_pad", "divisor_override"};
      // torch's defaults: stride is the kernel size, padding 0, dilation 1, count_include_pad.
      (*attrs)["__init__"] = python::builtin(cls + ".__init__", [names](Interp& i2, CallArgs& a) {
        for (size_t k = 0; k < names.size(); ++k) {
          Ref v = a.get(k + 1, names[k]);
          const std::string& n = names[k];
          if (!v || (n == "stride" && v->kind == K::None))
            v = n == "stride"                               ? a.get(1, "kernel_size")
                : n == "padding"                            ? python::integer(0)
                : n == "dilation"                           ? python::integer(1)
                : n == "ceil_mode" || n == "return_indices" ? python::boolean(false)
                : n == "count_include_pad"                  ? python::boolean(true)
                                                            : python::none();
          i2.setattr(a.pos.at(0), n, v ? v : python::none(), a.at);
        }
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
    (*attrs)["__init__"] = python::builtin(cls + ".__init__", [this, cls, group](Interp& i2,
                                                                                 CallArgs& a) {
      Ref self = a.pos.at(0);
      i2.setattr(self, "training", python::boolean(true), a.at);
      // GroupNorm(num_groups, num_channels, eps, affine); the others (num_features, eps,
      // momentum, affine).
      int64_t channels =
          i2.to_int(a.get(group ? 2 : 1, group ? "num_channels" : "num_features"), a.at);
      if (group) {
        // torch's GroupNorm.__init__ checks this (a ValueError), before any forward.
        int64_t groups = i2.to_int(a.get(1, "num_groups"), a.at);
        if (groups == 0) i2.raise(a.at, "ZeroDivisionError: integer modulo by zero");
        if (channels % groups)
          i2.raise(a.at, "ValueError: num_channels must be divisible by num_groups");
        i2.setattr(self, "num_groups", a.get(1, "num_groups"), a.at);
      }
      // The attributes torch's __init__ sets, which host code reads (bn.eps, ln.affine).
      i2.setattr(self, group ? "num_channels" : "num_features", python::integer(channels), a.at);
      Ref eps = a.get(group ? 3 : 2, "eps");
      i2.setattr(self, "eps", eps ? eps : python::floating(1e-5), a.at);
      bool instance = cls.rfind("InstanceNorm", 0) == 0;
      bool affine = bool_arg(a, group ? 4 : 4, "affine", !instance);
      i2.setattr(self, "affine", python::boolean(affine), a.at);
      if (!group) {
        Ref momentum = a.get(3, "momentum");
        i2.setattr(self, "momentum", momentum ? momentum : python::floating(0.1), a.at);
        bool track = bool_arg(a, 5, "track_running_stats", !instance);
        i2.setattr(self, "track_running_stats", python::boolean(track), a.at);
        // BatchNorm's buffers as __init__ leaves them; a training-mode forward would update
        // them, which keq does not model (an eval forward reads these values).
        // Registered buffers, as torch's (state_dict lists them; .to(dtype) converts them).
        auto buffer = [&](const char* name, DType d, std::vector<int64_t> shape, double v) {
          Ref t = track ? wrap(filled(shape, d, v)) : python::none();
          if (track) st.buffers.insert(t->tensor.get());
          i2.setattr(self, name, t, a.at);
        };
        buffer("running_mean", parameter_dtype, {channels}, 0.0);
        buffer("running_var", parameter_dtype, {channels}, 1.0);
        buffer("num_batches_tracked", DType::I64, {}, 0.0);
      }
      // The affine weight starts at ones and the bias at zeros: --params initial fixes them,
      // as it does LayerNorm's (they were symbolic, so a GroupNorm's 2e30 bias met a candidate's
      // 1e30 sentinel under --params initial).
      for (const char* n : {"weight", "bias"}) {
        Ref p = python::none();
        if (affine)
          p = layer_parameter(initialized_parameter(
              "nn." + cls + "." + n, filled({channels}, parameter_dtype, n[0] == 'w' ? 1.0 : 0.0),
              a.at));
        i2.setattr(self, n, p, a.at);
      }
      if (instance && i2.truthy(i2.getattr(self, "track_running_stats", a.at), a.at))
        in.unsupported(a.at, "InstanceNorm with running statistics");
      return python::none();
    });
    (*attrs)["forward"] = python::builtin(cls + ".forward", [this, cls, group, optional_tensor](
                                                                Interp& i2, CallArgs& a) {
      Ref self = a.pos.at(0);
      TensorPtr x = tensor_arg(a, 1, "input");
      double eps = i2.to_float(i2.getattr(self, "eps", a.at), a.at);
      bool training = i2.truthy(i2.getattr(self, "training", a.at), a.at);
      check_norm_input(cls, *x, eps, training,
                       group ? i2.to_int(i2.getattr(self, "num_groups", a.at), a.at) : 0, a.at);
      TensorPtr w = optional_tensor(i2.getattr(self, "weight", a.at)),
                b = optional_tensor(i2.getattr(self, "bias", a.at));
      int64_t channels = x->shape.size() > 1 ? x->shape[1] : 0;
      if (cls.rfind("BatchNorm", 0) == 0) {
        if (!training) {
          // eval: the running statistics, buffers that start at mean 0 and variance 1 and that
          // only training-mode forwards update: y = x / sqrt(1 + eps) * w + b while they hold
          // those values, (x - mean) / sqrt(var + eps) * w + b once host code changed them.
          define_unwritten(in, *x, a.at);
          TensorPtr mean = optional_tensor(i2.getattr(self, "running_mean", a.at)),
                    var = optional_tensor(i2.getattr(self, "running_var", a.at));
          if (!mean || !var) in.unsupported(a.at, "an eval BatchNorm without running statistics");
          auto holds = [this](const TensorPtr& t, double v) {
            for (TermId e : t->elems)
              if (s.op(e) != Op::Const || s.constant_of(e).f != v) return false;
            return true;
          };
          bool initial = holds(mean, 0) && holds(var, 1);
          TermId den = mk(Op::Sqrt, {mk(Op::Add, {fconst(1), fconst(static_cast<float>(eps))})});
          int64_t spatial = x->numel() / std::max<int64_t>(1, x->shape[0] * channels);
          auto r = std::make_shared<Tensor>(*x);
          for (int64_t i = 0; i < x->numel(); ++i) {
            int64_t c = (i / spatial) % channels;
            TermId y =
                initial ? mk(Op::Div, {x->elems[i], den})
                        : mk(Op::Div,
                             {mk(Op::Sub, {x->elems[i], mean->elems[c]}),
                              mk(Op::Sqrt,
                                 {mk(Op::Add, {var->elems[c], fconst(static_cast<float>(eps))})})});
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
        if (groups < 2 || per < 2)
          st.flattened.insert(i2.where(a.at) + ": nn.GroupNorm with " + std::to_string(groups) +
                              " groups of " + std::to_string(per) + " channels (" +
                              (groups < 2 ? "a LayerNorm" : "an InstanceNorm") + ")");
        return wrap(group_normalize(
            x, [groups, per](int64_t n, int64_t c) { return n * groups + c / per; },
            x->shape[0] * groups, eps, w, b, a.at));
      }
      return wrap(group_normalize(
          x, [channels](int64_t n, int64_t c) { return n * channels + c; }, x->shape[0] * channels,
          eps, w, b, a.at));
    });
    take_factory_kwargs(cls, *attrs);
    na[cls] = in.make_class(cls, module_cls, attrs);
  };
  for (const char* cls : {"BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "InstanceNorm1d",
                          "InstanceNorm2d", "InstanceNorm3d"})
    norm_layer(cls, false);
  norm_layer("GroupNorm", true);
  // F.group_norm(x, num_groups, weight, bias, eps) and F.instance_norm(x, running_mean,
  // running_var, weight, bias, use_input_stats, momentum, eps), on the batch's own statistics.
  auto given = [optional_tensor](const CallArgs& a, size_t pos, const char* name) {
    Ref v = a.get(pos, name);
    return v && v->kind != K::None ? optional_tensor(v) : nullptr;
  };
  (*F->attrs)["group_norm"] =
      python::builtin("F.group_norm", [this, given](Interp& i2, CallArgs& a) {
        TensorPtr x = tensor_arg(a, 0, "input");
        int64_t groups = i2.to_int(a.get(1, "num_groups"), a.at);
        double eps = float_arg(a, 4, "eps", 1e-5);
        int64_t channels = x->shape.size() > 1 ? x->shape[1] : 0;
        if (groups <= 0 || channels % groups)
          i2.raise(a.at,
                   "RuntimeError: Expected number of channels in input to be divisible by "
                   "num_groups");
        check_norm_input("GroupNorm", *x, eps, true, groups, a.at);
        TensorPtr w = given(a, 2, "weight"), b = given(a, 3, "bias");
        for (auto [t, name] : {std::pair{w, "weight"}, std::pair{b, "bias"}})
          if (t && (t->shape.size() != 1 || t->shape[0] != channels))
            i2.raise(a.at, std::string("RuntimeError: Expected ") + name +
                               " to be a vector of size equal to the number of channels in "
                               "input, but got " +
                               name + " of shape " + shape_str(t->shape) + " and input of shape " +
                               shape_str(x->shape));
        int64_t per = channels / groups;
        return wrap(group_normalize(
            x, [groups, per](int64_t n, int64_t c) { return n * groups + c / per; },
            x->shape[0] * groups, eps, w, b, a.at));
      });
  (*F->attrs)["instance_norm"] =
      python::builtin("F.instance_norm", [this, given](Interp& i2, CallArgs& a) {
        TensorPtr x = tensor_arg(a, 0, "input");
        if (given(a, 1, "running_mean") || given(a, 2, "running_var") ||
            !bool_arg(a, 5, "use_input_stats", true))
          i2.unsupported(a.at, "F.instance_norm with running statistics");
        double eps = float_arg(a, 7, "eps", 1e-5);
        check_norm_input("InstanceNorm", *x, eps, true, 0, a.at);
        int64_t channels = x->shape.size() > 1 ? x->shape[1] : 0;
        TensorPtr w = given(a, 3, "weight"), b = given(a, 4, "bias");
        // torch repeats them over the batch and hands them to batch_norm, whose check this is
        for (auto [t, name] : {std::pair{w, "weight"}, std::pair{b, "bias"}})
          if (t && t->numel() != channels)
            i2.raise(a.at, std::string("RuntimeError: ") + name + " should contain " +
                               std::to_string(x->shape[0] * channels) + " elements not " +
                               std::to_string(x->shape[0] * t->numel()));
        return wrap(group_normalize(
            x, [channels](int64_t n, int64_t c) { return n * channels + c; },
            x->shape[0] * channels, eps, w, b, a.at));
      });
  // F.normalize: x / max(||x||_p along dim, eps), as torch composes it (p = 2 only, as norm).
  (*F->attrs)["normalize"] = python::builtin("F.normalize", [this](Interp& i2, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    CallArgs n;
    n.at = a.at;
    n.pos = {wrap(x), a.get(1, "p") ? a.get(1, "p") : python::floating(2.0),
             a.get(2, "dim") ? a.get(2, "dim") : python::integer(1), python::boolean(true)};
    CallArgs c;
    c.at = a.at;
    c.pos = {ops.at("norm")(i2, n)};
    c.kw = {{"min", a.get(3, "eps") ? a.get(3, "eps") : python::floating(1e-12)}};
    if (Ref out = a.get(4, "out"); out && out->kind != K::None)
      in.unsupported(a.at, "F.normalize with out=");
    return binary("/", wrap(x), ops.at("clamp")(i2, c), a.at);
  });
  // local_response_norm(x, size, alpha=1e-4, beta=0.75, k=1): x / (k + alpha / size * (sum of
  // squares over the size channels around, zero-padded))^beta, as torch composes it.
  define("local_response_norm", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    int64_t size = in.to_int(a.get(1, "size"), a.at);
    double alpha = float_arg(a, 2, "alpha", 1e-4), beta = float_arg(a, 3, "beta", 0.75),
           k = float_arg(a, 4, "k", 1.0);
    if (x->shape.size() < 3 || x->dtype != DType::F32)
      in.unsupported(a.at, "local_response_norm other than fp32 inputs of 3 or more dimensions");
    define_unwritten(in, *x, a.at);
    int64_t c = x->shape[1], inner = 1;
    for (size_t d = 2; d < x->shape.size(); ++d) inner *= x->shape[d];
    auto r = std::make_shared<Tensor>(*x);
    r->storage = SameStorage{};
    for (int64_t i = 0; i < x->numel(); ++i) {
      int64_t ch = (i / inner) % c, base = i - ch * inner;
      std::vector<TermId> sq;
      for (int64_t cc = ch - size / 2; cc <= ch + (size - 1) / 2; ++cc)
        if (cc >= 0 && cc < c) {
          TermId e = x->elems[base + cc * inner];
          sq.push_back(mk(Op::Mul, {e, e}));
        }
      // torch: avg_pool over the padded window (divided by size), then * alpha + k, ** beta.
      TermId avg = mk(
          Op::Div, {sum_of(sq), fconst(static_cast<double>(size))});  // sq holds x[ch]^2 at least
      TermId den = mk(Op::Pow, {mk(Op::Add, {mk(Op::Mul, {avg, fconst(static_cast<float>(alpha))}),
                                             fconst(static_cast<float>(k))}),
                                fconst(static_cast<float>(beta))});
      r->elems[i] = mk(Op::Div, {x->elems[i], den});
    }
    return wrap(r);
  });
  expose(F, "local_response_norm");
}

// torch.nn.functional's checks before a norm runs (torch 2.11: batch_norm, instance_norm's
// _verify_spatial_size, group_norm's _verify_batch_size): one value per channel cannot be
// normalized in training, and batch_norm refuses eps <= 0.
void Torch::check_norm_input(const std::string& cls, const Tensor& x, double eps, bool training,
                             int64_t groups, Span at) {
  // batch_norm and instance_norm print input.size(); group_norm the list it builds.
  auto size_text = [&x, groups] {
    std::vector<int64_t> dims = x.shape;
    if (groups > 0) dims[0] = x.shape[0] * x.shape[1] / groups, dims[1] = groups;
    std::string t;
    for (size_t d = 0; d < dims.size(); ++d) t += (d ? ", " : "") + std::to_string(dims[d]);
    return groups > 0 ? "[" + t + "]" : "torch.Size([" + t + "])";
  };
  auto product_from = [&x](size_t first) {
    int64_t p = 1;
    for (size_t d = first; d < x.shape.size(); ++d) p *= x.shape[d];
    return p;
  };
  if (x.shape.size() < 2) return;
  int64_t values = 0;
  std::string what = "value per channel";
  if (cls.rfind("BatchNorm", 0) == 0) {
    if (eps <= 0)
      in.raise_exception(
          at, "ValueError",
          "batch_norm eps must be positive, but got " + in.repr(python::floating(eps)));
    if (training) values = x.shape[0] * product_from(2);
  } else if (cls.rfind("InstanceNorm", 0) == 0) {
    values = product_from(2), what = "spatial element";
  } else if (groups > 0) {
    values = x.shape[0] * x.shape[1] / groups * product_from(2);
  }
  if (values == 1)
    in.raise_exception(
        at, "ValueError",
        "Expected more than 1 " + what + " when training, got input size " + size_text());
}

void Torch::install_adaptive_pooling(const Ref& nn, const Ref& F, const Ref& module_cls) {
  auto& na = *nn->attrs;
  auto& fa = *F->attrs;
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
}

}  // namespace keq::torch::impl
