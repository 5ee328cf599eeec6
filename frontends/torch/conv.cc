// Convolutions, transposed convolutions and pooling over N spatial dimensions (1d, 2d, 3d):
// each output element is one n-ary term over its window, so conv terms share the inputs' and
// weights' variables and allocate one small vector per output element, not per product.
#include "frontends/torch/conv.h"

#include <algorithm>

namespace keq::torch::detail {

namespace {

// torch sizes outputs with division rounded toward negative infinity (div_rtn): an input
// shorter than the window gives (-1) / 4 + 1 = 0 outputs, which torch refuses; C++'s / gave 1.
int64_t floor_div(int64_t a, int64_t b) {
  return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

int64_t flat_index(const std::vector<int64_t>& shape, const std::vector<int64_t>& idx) {
  int64_t f = 0;
  for (size_t d = 0; d < shape.size(); ++d) f = f * shape[d] + idx[d];
  return f;
}

}  // namespace

TensorPtr convolution(Interp& in, const TensorPtr& x, const TensorPtr& w, const TensorPtr& bias,
                      const ConvSpec& c, Span at, std::vector<ir::TermId>* one_product) {
  ir::TermStore& s = in.store();
  size_t nd = c.stride.size();
  if (x->shape.size() != nd + 2 || w->shape.size() != nd + 2)
    in.error(at, "convolution: expected input [N, C, spatial...] and weight of rank " +
                     std::to_string(nd + 2));
  int64_t batch = x->shape[0], cin = x->shape[1];
  int64_t cout = c.transposed ? w->shape[1] * c.groups : w->shape[0];
  int64_t cin_g = cin / c.groups, cout_g = cout / c.groups;
  if (cin % c.groups || cout % c.groups)
    in.error(at, "convolution: channels are not divisible by groups");
  if ((c.transposed ? w->shape[0] : w->shape[1] * c.groups) != cin)
    in.error(at, "convolution: weight expects " +
                     std::to_string(c.transposed ? w->shape[0] : w->shape[1] * c.groups) +
                     " input channels, got " + std::to_string(cin));
  std::vector<int64_t> ksize(w->shape.begin() + 2, w->shape.end()),
      isize(x->shape.begin() + 2, x->shape.end()), osize(nd);
  for (size_t d = 0; d < nd; ++d) {
    int64_t span = c.dilation[d] * (ksize[d] - 1) + 1;
    osize[d] = c.transposed
                   ? (isize[d] - 1) * c.stride[d] - 2 * c.padding[d] + span + c.output_padding[d]
                   : floor_div(isize[d] + 2 * c.padding[d] - span, c.stride[d]) + 1;
    if (osize[d] <= 0) in.error(at, "convolution: the output would be empty");
  }
  auto r = std::make_shared<Tensor>();
  r->dtype = x->dtype;
  r->shape = {batch, cout};
  r->shape.insert(r->shape.end(), osize.begin(), osize.end());
  define_unwritten(in, *x, at);
  std::vector<ir::TermId> terms, xs, ws;  // one output's products, and their operands
  std::vector<int64_t> xi(nd + 2), wi(nd + 2);
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t co = 0; co < cout; ++co) {
      int64_t g = co / cout_g;
      for_each_index(osize, [&](const std::vector<int64_t>& o, int64_t) {
        terms.clear();
        xs.clear();
        ws.clear();
        for (int64_t ci = 0; ci < cin_g; ++ci)
          for_each_index(ksize, [&](const std::vector<int64_t>& k, int64_t) {
            // Forward: input position o*stride - pad + k*dil. Transposed: the input positions i
            // with i*stride - pad + k*dil == o.
            bool ok = true;
            for (size_t d = 0; d < nd && ok; ++d) {
              int64_t p = c.transposed ? o[d] + c.padding[d] - k[d] * c.dilation[d]
                                       : o[d] * c.stride[d] - c.padding[d] + k[d] * c.dilation[d];
              if (c.transposed) {
                if (p % c.stride[d] != 0) ok = false;
                p /= c.stride[d];
              }
              ok = ok && p >= 0 && p < isize[d];
              xi[d + 2] = p;
            }
            if (!ok) return;  // zero padding: no term
            xi[0] = n;
            xi[1] = g * cin_g + ci;
            if (c.transposed) {
              wi[0] = g * cin_g + ci;
              wi[1] = co - g * cout_g;
            } else {
              wi[0] = co;
              wi[1] = ci;
            }
            std::copy(k.begin(), k.end(), wi.begin() + 2);
            xs.push_back(x->elems[flat_index(x->shape, xi)]);
            ws.push_back(w->elems[flat_index(w->shape, wi)]);
          });
        // Made together: the store's lookups for one output's products overlap (a conv's
        // products are all new terms, and a lookup each one after another was most of its time).
        s.make_each(ir::Op::Mul, xs, ws, terms);
        if (terms.size() == 1 && one_product) one_product->push_back(terms[0]);
        ir::TermId acc = terms.empty()       ? constant(s, x->dtype, 0)
                         : terms.size() == 1 ? terms[0]
                                             : s.make(ir::Op::Sum, terms);
        if (bias) acc = s.make(ir::Op::Add, {acc, bias->elems[co]});
        r->elems.push_back(round_to(s, x->dtype, acc));
      });
    }
  return r;
}

TensorPtr pooling(Interp& in, const TensorPtr& x, const PoolSpec& p, Span at, TensorPtr* indices) {
  ir::TermStore& s = in.store();
  size_t nd = p.kernel.size();
  if (x->shape.size() < nd + 1) in.error(at, "pooling: input has too few dimensions");
  size_t lead = x->shape.size() - nd;
  std::vector<int64_t> isize(x->shape.begin() + static_cast<long>(lead), x->shape.end()), osize(nd);
  for (size_t d = 0; d < nd; ++d) {
    int64_t span = p.dilation[d] * (p.kernel[d] - 1) + 1;
    int64_t num = isize[d] + 2 * p.padding[d] - span;
    int64_t o = floor_div(p.ceil_mode ? num + p.stride[d] - 1 : num, p.stride[d]) + 1;
    // torch: the last window must start inside the input or the left padding.
    if (p.ceil_mode && (o - 1) * p.stride[d] >= isize[d] + p.padding[d]) --o;
    if (o <= 0) in.error(at, "pooling: the output would be empty");
    osize[d] = o;
  }
  define_unwritten(in, *x, at);
  auto r = std::make_shared<Tensor>();
  r->dtype = x->dtype;
  r->shape.assign(x->shape.begin(), x->shape.begin() + static_cast<long>(lead));
  r->shape.insert(r->shape.end(), osize.begin(), osize.end());
  int64_t outer = 1, window = 1;
  for (size_t d = 0; d < lead; ++d) outer *= x->shape[d];
  for (int64_t v : isize) window *= v;
  std::vector<ir::TermId> members;
  std::vector<int64_t> positions;  // each member's flat index in its input plane
  std::vector<int64_t> xi(nd);
  if (indices) {
    *indices = std::make_shared<Tensor>();
    (*indices)->dtype = DType::I64;
    (*indices)->shape = r->shape;
  }
  for (int64_t b = 0; b < outer; ++b)
    for_each_index(osize, [&](const std::vector<int64_t>& o, int64_t) {
      members.clear();
      positions.clear();
      int64_t padded_count = 1;  // the window clipped to input + padding, for count_include_pad
      for (size_t d = 0; d < nd; ++d) {
        int64_t lo = o[d] * p.stride[d] - p.padding[d];
        int64_t hi = std::min(lo + (p.kernel[d] - 1) * p.dilation[d] + 1, isize[d] + p.padding[d]);
        padded_count *= (hi - lo + p.dilation[d] - 1) / p.dilation[d];
      }
      for_each_index(p.kernel, [&](const std::vector<int64_t>& k, int64_t) {
        for (size_t d = 0; d < nd; ++d) {
          xi[d] = o[d] * p.stride[d] - p.padding[d] + k[d] * p.dilation[d];
          if (xi[d] < 0 || xi[d] >= isize[d]) return;
        }
        members.push_back(x->elems[b * window + flat_index(isize, xi)]);
        positions.push_back(flat_index(isize, xi));
      });
      if (members.empty()) in.error(at, "pooling: a window covers no input");
      ir::TermId out;
      if (p.max) {
        out = members.size() == 1 ? members[0] : s.make(ir::Op::AMax, members);
        if (indices) {
          auto index = [&](int64_t v) {
            return s.constant(ir::Constant::of_int(ir::Type::I64, v));
          };
          ir::TermId best = members[0], idx = index(positions[0]);
          for (size_t k = 1; k < members.size(); ++k) {
            ir::TermId v = members[k];
            ir::TermId take =
                s.make(ir::Op::Or, {s.make(ir::Op::Gt, {v, best}), s.make(ir::Op::Ne, {v, v})});
            best = s.make(ir::Op::Select, {take, v, best});
            idx = s.make(ir::Op::Select, {take, index(positions[k]), idx});
          }
          (*indices)->elems.push_back(idx);
        }
      } else {
        int64_t count = p.divisor_override    ? p.divisor_override
                        : p.count_include_pad ? padded_count
                                              : static_cast<int64_t>(members.size());
        ir::TermId sum = sum_from_zero(s, members);
        out = s.make(ir::Op::Div,
                     {sum, s.constant(ir::Constant::of_float(static_cast<double>(count)))});
      }
      r->elems.push_back(round_to(s, x->dtype, out));
    });
  return r;
}

}  // namespace keq::torch::detail
