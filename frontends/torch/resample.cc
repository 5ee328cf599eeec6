// torch's ops that resize spatial dimensions: F.pad (constant, reflect, replicate and circular
// modes) and F.interpolate (nearest by whole factors; linear, bilinear and trilinear).
#include "frontends/torch/torch_impl.h"

namespace keq::torch::impl {

// F.pad: pad pairs from the last dimension backwards (negative ones crop in constant mode), a
// padded position reading the fill value, its reflection, the edge or the other end;
void Torch::install_resampling(const Ref& F) {
  (*F->attrs)["pad"] = python::builtin("F.pad", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    Ref pad_v = a.get(1, "pad"), mode_v = a.get(2, "mode"), value = a.get(3, "value");
    std::string mode = mode_v && mode_v->kind == K::Str ? mode_v->s : "constant";
    if (mode != "constant" && mode != "reflect" && mode != "replicate" && mode != "circular")
      in.unsupported(a.at, "F.pad with mode " + in.repr(mode_v));
    if (!pad_v) in.error(a.at, "F.pad() missing pad");
    std::vector<int64_t> pad;
    for (const Ref& v : in.to_sequence(pad_v, a.at)) pad.push_back(in.to_int(v, a.at));
    size_t nd = x->shape.size();
    if (pad.size() % 2 || pad.size() / 2 > nd)
      in.raise(a.at,
               "RuntimeError: Padding length must be divisible by 2 and at most twice the "
               "number of dimensions of the input");
    std::vector<int64_t> before(nd, 0), shape = x->shape;
    for (size_t k = 0; k < pad.size() / 2; ++k) {
      size_t d = nd - 1 - k;
      before[d] = pad[2 * k];
      shape[d] += pad[2 * k] + pad[2 * k + 1];
      if (shape[d] < 0) in.raise(a.at, "RuntimeError: F.pad results in a negative size");
    }
    if (mode != "constant") {  // torch: 1 to 3 padded dimensions after one or two others
      size_t padded = pad.size() / 2;
      if (nd < padded + 1 || nd > padded + 2 || padded > 3)
        in.unsupported(a.at, "F.pad in " + mode + " mode of a " + std::to_string(nd) +
                                 "-d input padding " + std::to_string(padded) + " dimensions");
      for (size_t k = 0; k < pad.size(); ++k) {
        int64_t n = x->shape[nd - 1 - k / 2];
        if (pad[k] < 0) in.unsupported(a.at, "F.pad in " + mode + " mode with a negative pad");
        if ((mode == "reflect" && pad[k] >= n) || (mode == "circular" && pad[k] > n))
          in.raise(a.at,
                   "RuntimeError: Padding size should be less than the corresponding "
                   "input dimension");
      }
    }
    // Where output position i of a dimension of n reads (outside [0, n): only constant mode).
    auto source = [&](int64_t i, int64_t n) {
      if (i >= 0 && i < n) return i;
      if (mode == "replicate") return std::clamp<int64_t>(i, 0, n - 1);
      if (mode == "reflect") return i < 0 ? -i : 2 * (n - 1) - i;
      if (mode == "circular") return ((i % n) + n) % n;
      return i;
    };
    double fill = value && value->kind != K::None ? in.to_float(value, a.at) : 0.0;
    define_unwritten(in, *x, a.at);
    TensorPtr r = filled(shape, x->dtype, fill);
    std::vector<int64_t> idx(nd, 0);
    for (int64_t k = 0; k < r->numel(); ++k) {
      int64_t src = 0;
      bool inside = true;
      for (size_t d = 0; d < nd; ++d) {
        int64_t i = source(idx[d] - before[d], x->shape[d]);
        inside = inside && i >= 0 && i < x->shape[d];
        src = src * x->shape[d] + i;
      }
      if (inside) r->elems[k] = x->elems[src];
      for (size_t d = nd; d-- > 0;) {
        if (++idx[d] < shape[d]) break;
        idx[d] = 0;
      }
    }
    return wrap(r);
  });
  // interpolate(x, size=None, scale_factor=None, mode='nearest', align_corners=None, ...):
  // nearest where each output size is a whole multiple of the input's (then source = out //
  // factor exactly; other ratios go through torch's float scale), and linear, bilinear and
  // trilinear with torch's fp32 source coordinates and weights.
  auto interpolate = [this](Interp&, CallArgs& a) -> Ref {
    TensorPtr x = tensor_arg(a, 0, "input");
    Ref size = a.get(1, "size"), scale = a.get(2, "scale_factor"), mode_v = a.get(3, "mode");
    std::string mode = mode_v && mode_v->kind == K::Str ? mode_v->s : "nearest";
    size_t spatial = x->shape.size() < 3 ? 0 : x->shape.size() - 2;
    if (!spatial) in.error(a.at, "interpolate: expected a batch and a channel dimension");
    bool linear = (mode == "linear" && spatial == 1) || (mode == "bilinear" && spatial == 2) ||
                  (mode == "trilinear" && spatial == 3);
    if (mode != "nearest" && !linear)
      in.unsupported(a.at, "F.interpolate with mode '" + mode + "' on a " +
                               std::to_string(x->shape.size()) + "-d input");
    Ref ac = a.get(4, "align_corners");
    bool align = ac && ac->kind != K::None && in.truthy(ac, a.at);
    if (!linear && ac && ac->kind != K::None)
      in.raise(a.at,
               "ValueError: align_corners option can only be set with the interpolating "
               "modes: linear | bilinear | bicubic | trilinear");
    Ref recompute = a.get(5, "recompute_scale_factor");
    if (Ref aa = a.get(6, "antialias"); aa && in.truthy(aa, a.at))
      in.unsupported(a.at, "F.interpolate with antialias=True");
    auto per_dim = [&](const Ref& v) {
      std::vector<Ref> vs = v->kind == K::Tuple || v->kind == K::List
                                ? in.to_sequence(v, a.at)
                                : std::vector<Ref>(spatial, v);
      if (vs.size() != spatial) in.error(a.at, "interpolate: one size per spatial dimension");
      return vs;
    };
    std::vector<int64_t> shape = x->shape;
    std::vector<std::optional<double>> factors(spatial);
    for (size_t d = 0; d < spatial; ++d) {
      int64_t n = x->shape[2 + d];
      if (size && size->kind != K::None) {
        shape[2 + d] = in.to_int(per_dim(size)[d], a.at);
      } else if (scale && scale->kind != K::None) {
        double f = in.to_float(per_dim(scale)[d], a.at);
        shape[2 + d] = static_cast<int64_t>(std::floor(static_cast<double>(n) * f));
        // torch hands the factor to the kernel unless recompute_scale_factor is True.
        if (!(recompute && recompute->kind != K::None && in.truthy(recompute, a.at)))
          factors[d] = f;
      } else {
        in.error(a.at, "interpolate: either size or scale_factor should be defined");
      }
      if (shape[2 + d] <= 0) in.raise(a.at, "RuntimeError: interpolate: output size is empty");
      if (!linear && shape[2 + d] % n)
        in.unsupported(a.at, "F.interpolate to a size that is not a whole multiple (nearest)");
    }
    if (!linear)
      return wrap(gathered(
          x, shape,
          [&](const std::vector<int64_t>& o) {
            std::vector<int64_t> src = o;
            for (size_t d = 2; d < o.size(); ++d) src[d] = o[d] / (shape[d] / x->shape[d]);
            return flat_offset(x->shape, src);
          },
          a.at));
    // Per spatial dimension and output index: the two sources and their weights, in fp32 as
    // torch's kernels compute them (area_pixel_compute_source_index).
    struct Taps {
      int64_t i0, i1;
      TermId l0, l1;
    };
    std::vector<std::vector<Taps>> taps(spatial);
    for (size_t d = 0; d < spatial; ++d) {
      int64_t n = x->shape[2 + d], m = shape[2 + d];
      float sc = align ? (m > 1 ? static_cast<float>(n - 1) / static_cast<float>(m - 1) : 0.0f)
                 : factors[d] && *factors[d] > 0 ? static_cast<float>(1.0 / *factors[d])
                                                 : static_cast<float>(n) / static_cast<float>(m);
      for (int64_t o = 0; o < m; ++o) {
        // One rounding: torch's CPU and CUDA kernels both give the fused multiply-add's value
        // (measured on the H200, tests/fixtures/gpu/interpolate_coordinates.txt).
        float src = align ? sc * static_cast<float>(o)
                          : std::max(std::fma(sc, static_cast<float>(o) + 0.5f, -0.5f), 0.0f);
        int64_t i0 = std::min(static_cast<int64_t>(src), n - 1);
        int64_t i1 = i0 + (i0 < n - 1 ? 1 : 0);
        float w1 = src - static_cast<float>(i0), w0 = 1.0f - w1;
        taps[d].push_back({i0, i1, fconst(w0), fconst(w1)});
      }
    }
    define_unwritten(in, *x, a.at);
    TensorPtr r = filled(shape, x->dtype, 0.0);
    std::vector<int64_t> idx(shape.size(), 0);
    for (int64_t k = 0; k < r->numel(); ++k) {
      // w0 * (value at i0) + w1 * (value at i1), the outer dimension outermost.
      std::function<TermId(size_t, std::vector<int64_t>&)> blend = [&](size_t d,
                                                                       std::vector<int64_t>& src) {
        if (d == spatial) return x->elems[flat_offset(x->shape, src)];
        const Taps& t = taps[d][idx[2 + d]];
        src[2 + d] = t.i0;
        TermId lo = blend(d + 1, src);
        src[2 + d] = t.i1;
        TermId hi = blend(d + 1, src);
        return mk(Op::Add, {mk(Op::Mul, {t.l0, lo}), mk(Op::Mul, {t.l1, hi})});
      };
      std::vector<int64_t> src = idx;
      TermId v = round_to(s, x->dtype, blend(0, src));
      st.ieee_unfixed.emplace(v,
                              "interpolation's order of operations (torch's CPU and CUDA "
                              "kernels differ)");
      r->elems[k] = v;
      for (size_t d = shape.size(); d-- > 0;) {
        if (++idx[d] < shape[d]) break;
        idx[d] = 0;
      }
    }
    return wrap(r);
  };
  define("interpolate", interpolate);
  alias("upsample", "interpolate");
  expose(F, "interpolate");
  expose(F, "upsample");
}

}  // namespace keq::torch::impl
