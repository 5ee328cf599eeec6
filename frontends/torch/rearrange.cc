// torch's ops that move elements without computing: pixel_shuffle and its inverse,
// channel_shuffle, roll and outer, built on gathered() (a fresh tensor whose elements are read at
// computed positions).
#include "frontends/torch/torch_impl.h"

namespace keq::torch::impl {

// A fresh tensor of `shape` whose element k is x's element at `from(k's index)` (copies that
// move elements: pixel_shuffle, roll, nearest upsampling).
TensorPtr Torch::gathered(const TensorPtr& x, std::vector<int64_t> shape,
                          const std::function<int64_t(const std::vector<int64_t>&)>& from,
                          Span at) {
  define_unwritten(in, *x, at);
  TensorPtr r = filled(shape, x->dtype, 0.0);
  std::vector<int64_t> idx(shape.size(), 0);
  for (int64_t k = 0; k < r->numel(); ++k) {
    r->elems[k] = x->elems[from(idx)];
    for (size_t d = shape.size(); d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return r;
}

// pixel_shuffle and its inverse, channel_shuffle, roll, outer.
void Torch::install_rearrangements(const Ref& F) {
  for (bool inverse : {false, true}) {
    std::string name = inverse ? "pixel_unshuffle" : "pixel_shuffle";
    define(name, [this, inverse, name](Interp&, CallArgs& a) {
      TensorPtr x = tensor_arg(a, 0, "input");
      int64_t r = in.to_int(a.get(1, inverse ? "downscale_factor" : "upscale_factor"), a.at);
      size_t nd = x->shape.size();
      if (nd < 3 || r <= 0) in.error(a.at, name + ": expected at least 3 dimensions");
      int64_t c = x->shape[nd - 3], h = x->shape[nd - 2], w = x->shape[nd - 1];
      std::vector<int64_t> shape = x->shape;
      if (!inverse && c % (r * r))
        in.raise(a.at,
                 "RuntimeError: pixel_shuffle expects its input's channel dimension to be "
                 "divisible by the square of upscale_factor");
      if (inverse && (h % r || w % r))
        in.raise(a.at,
                 "RuntimeError: pixel_unshuffle expects height and width to be divisible "
                 "by downscale_factor");
      shape[nd - 3] = inverse ? c * r * r : c / (r * r);
      shape[nd - 2] = inverse ? h / r : h * r;
      shape[nd - 1] = inverse ? w / r : w * r;
      return wrap(gathered(
          x, shape,
          [&](const std::vector<int64_t>& o) {
            std::vector<int64_t> src = o;
            if (!inverse) {  // out[c, h r + i, w r + j] = in[c r^2 + i r + j, h, w]
              src[nd - 3] = o[nd - 3] * r * r + (o[nd - 2] % r) * r + o[nd - 1] % r;
              src[nd - 2] = o[nd - 2] / r, src[nd - 1] = o[nd - 1] / r;
            } else {
              int64_t sub = o[nd - 3] % (r * r);
              src[nd - 3] = o[nd - 3] / (r * r);
              src[nd - 2] = o[nd - 2] * r + sub / r, src[nd - 1] = o[nd - 1] * r + sub % r;
            }
            return flat_offset(x->shape, src);
          },
          a.at));
    });
    expose(F, name);
  }
  // channel_shuffle(x, groups): channels seen as (groups, C / groups), transposed.
  define("channel_shuffle", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    int64_t g = in.to_int(a.get(1, "groups"), a.at);
    if (x->shape.size() < 3) in.error(a.at, "channel_shuffle: expected at least 3 dimensions");
    int64_t c = x->shape[1];
    if (g <= 0 || c % g)
      in.raise(a.at, "RuntimeError: Number of channels must be divisible by groups");
    return wrap(gathered(
        x, x->shape,
        [&](const std::vector<int64_t>& o) {
          std::vector<int64_t> src = o;
          src[1] = (o[1] % g) * (c / g) + o[1] / g;
          return flat_offset(x->shape, src);
        },
        a.at));
  });
  expose(F, "channel_shuffle");
  // roll(x, shifts, dims=None): with no dims, over the flattened elements.
  define("roll", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    Ref sh = a.get(1, "shifts"), dm = a.get(2, "dims");
    std::vector<int64_t> shifts, dims;
    for (const Ref& v : in.to_sequence(sh->kind == K::Int ? python::tuple({sh}) : sh, a.at))
      shifts.push_back(in.to_int(v, a.at));
    bool flatten = !dm || dm->kind == K::None;
    if (!flatten)
      for (const Ref& v : in.to_sequence(dm->kind == K::Int ? python::tuple({dm}) : dm, a.at))
        dims.push_back(norm_dim(in, in.to_int(v, a.at), x->shape.size(), a.at));
    if (flatten ? shifts.size() != 1 : shifts.size() != dims.size())
      in.raise(a.at, "RuntimeError: roll: shifts and dims must match");
    return wrap(gathered(
        x, x->shape,
        [&](const std::vector<int64_t>& o) {
          if (flatten) {
            int64_t n = x->numel(), k = flat_offset(x->shape, o);
            return ((k - shifts[0]) % n + n) % n;
          }
          std::vector<int64_t> src = o;
          for (size_t k = 0; k < dims.size(); ++k) {
            int64_t n = x->shape[dims[k]];
            src[dims[k]] = ((src[dims[k]] - shifts[k]) % n + n) % n;
          }
          return flat_offset(x->shape, src);
        },
        a.at));
  });
  // outer(a, b): a[i] * b[j].
  define("outer", [this](Interp&, CallArgs& a) {
    TensorPtr u = tensor_arg(a, 0, "input"), v = tensor_arg(a, 1, "vec2");
    if (u->shape.size() != 1 || v->shape.size() != 1) in.error(a.at, "outer: expected vectors");
    std::vector<int64_t> col = {u->shape[0], 1}, row = {1, v->shape[0]};
    return binary("*", wrap(reshaped(u, col)), wrap(reshaped(v, row)), a.at);
  });
  alias("ger", "outer");
}

}  // namespace keq::torch::impl
