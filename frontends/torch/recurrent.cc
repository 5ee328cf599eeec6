// nn.RNN, nn.LSTM and nn.GRU: parameters in torch's order (per layer, per direction: weight_ih,
// weight_hh, bias_ih, bias_hh) and the recurrences torch documents, step by step in fp32.
#include "frontends/torch/torch_impl.h"

namespace keq::torch::impl {

namespace {

// Rows [first, first + count) of a [R, C] parameter times the vector v (C entries), plus
// the bias rows: W v + b, one term per row.
std::vector<TermId> affine(Torch& t, const Tensor& w, const Tensor* b, int64_t first, int64_t count,
                           const std::vector<TermId>& v) {
  int64_t cols = w.shape[1];
  if (static_cast<int64_t>(v.size()) != cols)  // forward checked the sizes; a weight set by hand
    throw python::ProgramError("nn.RNN/LSTM/GRU: a weight of " + std::to_string(cols) +
                               " columns against a vector of " + std::to_string(v.size()));
  std::vector<TermId> out;
  for (int64_t r = first; r < first + count; ++r) {
    std::vector<TermId> terms;
    for (int64_t c = 0; c < cols; ++c)
      terms.push_back(t.mk(Op::Mul, {w.elems[r * cols + c], v[c]}));
    TermId y = t.sum_of(terms);
    if (b) y = t.mk(Op::Add, {y, b->elems[r]});
    out.push_back(y);
  }
  return out;
}

}  // namespace

void Torch::recurrent_init(Interp& i2, CallArgs& a, const std::string& kind, const ParamFn& param) {
  Ref self = a.pos.at(0);
  int64_t input = i2.to_int(a.get(1, "input_size"), a.at),
          hidden = i2.to_int(a.get(2, "hidden_size"), a.at);
  int64_t layers = a.get(3, "num_layers") ? i2.to_int(a.get(3, "num_layers"), a.at) : 1;
  size_t next = 4;
  if (kind == "RNN") {  // RNN(input_size, hidden_size, num_layers, nonlinearity, bias, ...)
    Ref nl = a.get(next++, "nonlinearity");
    std::string f = nl && nl->kind == K::Str ? nl->s : "tanh";
    if (f != "tanh" && f != "relu") i2.raise(a.at, "ValueError: Unknown nonlinearity '" + f + "'");
    i2.setattr(self, "nonlinearity", python::string(f), a.at);
  }
  bool bias = bool_arg(a, next, "bias", true),
       batch_first = bool_arg(a, next + 1, "batch_first", false);
  double dropout = float_arg(a, next + 2, "dropout", 0.0);
  bool bidirectional = bool_arg(a, next + 3, "bidirectional", false);
  if (Ref p = a.get(next + 4, "proj_size"); p && p->kind != K::None && i2.to_int(p, a.at) != 0)
    i2.unsupported(a.at, "nn.LSTM with proj_size");
  for (auto [k, v] :
       std::vector<std::pair<const char*, Ref>>{{"input_size", python::integer(input)},
                                                {"hidden_size", python::integer(hidden)},
                                                {"num_layers", python::integer(layers)},
                                                {"bias", python::boolean(bias)},
                                                {"batch_first", python::boolean(batch_first)},
                                                {"dropout", python::floating(dropout)},
                                                {"bidirectional", python::boolean(bidirectional)}})
    i2.setattr(self, k, v, a.at);
  int64_t gates = kind == "LSTM" ? 4 : kind == "GRU" ? 3 : 1, dirs = bidirectional ? 2 : 1;
  for (int64_t l = 0; l < layers; ++l)
    for (int64_t d = 0; d < dirs; ++d) {
      std::string sfx = "_l" + std::to_string(l) + (d ? "_reverse" : "");
      int64_t in_l = l == 0 ? input : hidden * dirs;
      std::string origin = "nn." + kind + ".";
      param(i2, self, "weight_ih" + sfx, origin + "weight_ih" + sfx, {gates * hidden, in_l}, a.at,
            std::nullopt);
      param(i2, self, "weight_hh" + sfx, origin + "weight_hh" + sfx, {gates * hidden, hidden}, a.at,
            std::nullopt);
      if (bias) {
        param(i2, self, "bias_ih" + sfx, origin + "bias_ih" + sfx, {gates * hidden}, a.at,
              std::nullopt);
        param(i2, self, "bias_hh" + sfx, origin + "bias_hh" + sfx, {gates * hidden}, a.at,
              std::nullopt);
      }
    }
}

// forward(input, h0=None) for RNN and GRU, forward(input, (h0, c0)=None) for LSTM: (output,
// h_n) or (output, (h_n, c_n)), the gates in torch's order (LSTM i, f, g, o; GRU r, z, n).
Ref Torch::recurrent_forward(Interp& i2, CallArgs& a, const std::string& kind) {
  Ref self = a.pos.at(0);
  TensorPtr x = tensor_arg(a, 1, "input");
  auto get = [&](const char* n) { return i2.getattr(self, n, a.at); };
  int64_t hidden = i2.to_int(get("hidden_size"), a.at), layers = i2.to_int(get("num_layers"), a.at);
  bool bias = i2.truthy(get("bias"), a.at), batch_first = i2.truthy(get("batch_first"), a.at);
  int64_t dirs = i2.truthy(get("bidirectional"), a.at) ? 2 : 1;
  if (layers > 1 && i2.to_float(get("dropout"), a.at) != 0 && i2.truthy(get("training"), a.at))
    in.unsupported(a.at, "nn." + kind + " with dropout between layers in training mode is random");
  if (x->shape.size() != 3 || x->dtype != DType::F32)
    in.unsupported(a.at, "nn." + kind + " other than batched fp32 input (unbatched or packed)");
  define_unwritten(in, *x, a.at);
  if (int64_t want = i2.to_int(get("input_size"), a.at); x->shape[2] != want)
    in.raise(a.at, "RuntimeError: input.size(-1) must be equal to input_size. Expected " +
                       std::to_string(want) + ", got " + std::to_string(x->shape[2]));
  if (batch_first) x = permuted(x, {1, 0, 2});
  int64_t len = x->shape[0], batch = x->shape[1];
  // The initial states: given ([layers * dirs, N, H]) or zeros.
  Ref h0 = a.get(2, "hx");
  TensorPtr hinit, cinit;
  if (h0 && h0->kind != K::None) {
    if (kind == "LSTM") {
      std::vector<Ref> hc = in.to_sequence(h0, a.at);
      if (hc.size() != 2) in.error(a.at, "nn.LSTM: hx must be (h_0, c_0)");
      hinit = hc[0]->tensor, cinit = hc[1]->tensor;
    } else {
      hinit = h0->tensor;
    }
    for (const TensorPtr& t : {hinit, cinit})
      if (t && t->shape != std::vector<int64_t>{layers * dirs, batch, hidden})
        in.raise(a.at, "RuntimeError: Expected hidden size (" + std::to_string(layers * dirs) +
                           ", " + std::to_string(batch) + ", " + std::to_string(hidden) + ")");
  }
  auto state = [&](const TensorPtr& t, int64_t ld, int64_t b) {
    std::vector<TermId> v;
    for (int64_t j = 0; j < hidden; ++j)
      v.push_back(t ? t->elems[(ld * batch + b) * hidden + j] : fconst(0));
    return v;
  };
  auto sig = [&](TermId e) { return mk(Op::Sigmoid, {e}); };
  auto tanh = [&](TermId e) { return mk(Op::Tanh, {e}); };
  bool relu = false;
  if (kind == "RNN") {
    Ref nl = get("nonlinearity");
    relu = nl->kind == K::Str && nl->s == "relu";
  }
  // seq[t][b]: the layer's input vectors; each layer writes the next one.
  std::vector<std::vector<std::vector<TermId>>> seq(len, std::vector<std::vector<TermId>>(batch));
  for (int64_t t = 0; t < len; ++t)
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t j = 0; j < x->shape[2]; ++j)
        seq[t][b].push_back(x->elems[(t * batch + b) * x->shape[2] + j]);
  std::vector<TermId> hn, cn;  // [layers * dirs, N, H], flattened
  for (int64_t l = 0; l < layers; ++l) {
    std::vector<std::vector<std::vector<TermId>>> out(len, std::vector<std::vector<TermId>>(batch));
    for (int64_t d = 0; d < dirs; ++d) {
      std::string sfx = "_l" + std::to_string(l) + (d ? "_reverse" : "");
      TensorPtr wih = get(("weight_ih" + sfx).c_str())->tensor,
                whh = get(("weight_hh" + sfx).c_str())->tensor;
      TensorPtr bih = bias ? get(("bias_ih" + sfx).c_str())->tensor : nullptr,
                bhh = bias ? get(("bias_hh" + sfx).c_str())->tensor : nullptr;
      for (int64_t b = 0; b < batch; ++b) {
        std::vector<TermId> h = state(hinit, l * dirs + d, b), c = state(cinit, l * dirs + d, b);
        for (int64_t s = 0; s < len; ++s) {
          int64_t t = d ? len - 1 - s : s;
          auto gi = [&](int64_t g) {
            return affine(*this, *wih, bih.get(), g * hidden, hidden, seq[t][b]);
          };
          auto gh = [&](int64_t g) {
            return affine(*this, *whh, bhh.get(), g * hidden, hidden, h);
          };
          std::vector<TermId> next(hidden);
          if (kind == "LSTM") {
            std::vector<TermId> ig = gi(0), ih = gh(0), fg = gi(1), fh = gh(1), gg = gi(2),
                                gh2 = gh(2), og = gi(3), oh = gh(3);
            for (int64_t j = 0; j < hidden; ++j) {
              TermId cj = mk(Op::Add, {mk(Op::Mul, {sig(mk(Op::Add, {fg[j], fh[j]})), c[j]}),
                                       mk(Op::Mul, {sig(mk(Op::Add, {ig[j], ih[j]})),
                                                    tanh(mk(Op::Add, {gg[j], gh2[j]}))})});
              c[j] = cj;
              next[j] = mk(Op::Mul, {sig(mk(Op::Add, {og[j], oh[j]})), tanh(cj)});
            }
          } else if (kind == "GRU") {
            std::vector<TermId> ri = gi(0), rh = gh(0), zi = gi(1), zh = gh(1), ni = gi(2),
                                nh = gh(2);
            for (int64_t j = 0; j < hidden; ++j) {
              TermId r = sig(mk(Op::Add, {ri[j], rh[j]})), z = sig(mk(Op::Add, {zi[j], zh[j]}));
              TermId n = tanh(mk(Op::Add, {ni[j], mk(Op::Mul, {r, nh[j]})}));
              next[j] = mk(Op::Add,
                           {mk(Op::Mul, {mk(Op::Sub, {fconst(1), z}), n}), mk(Op::Mul, {z, h[j]})});
            }
          } else {
            std::vector<TermId> xi = gi(0), hh = gh(0);
            for (int64_t j = 0; j < hidden; ++j) {
              TermId pre = mk(Op::Add, {xi[j], hh[j]});
              next[j] = relu ? mk(Op::Max, {pre, fconst(0)}) : tanh(pre);
            }
          }
          h = next;
          for (TermId e : h) {
            st.ieee_unfixed.emplace(e, "cuDNN's recurrent kernels (their order and TF32)");
            out[t][b].push_back(e);
          }
        }
        hn.insert(hn.end(), h.begin(), h.end());
        if (kind == "LSTM") {
          for (TermId e : c)
            st.ieee_unfixed.emplace(e, "cuDNN's recurrent kernels (their order and TF32)");
          cn.insert(cn.end(), c.begin(), c.end());
        }
      }
    }
    seq = std::move(out);
  }
  auto output = std::make_shared<Tensor>();
  output->shape = {len, batch, hidden * dirs};
  output->dtype = DType::F32;
  for (int64_t t = 0; t < len; ++t)
    for (int64_t b = 0; b < batch; ++b)
      for (TermId e : seq[t][b]) output->elems.push_back(e);
  if (batch_first) output = copied(permuted(output, {1, 0, 2}));
  // hn was gathered per (layer, direction, batch); torch orders [layer * dirs + dir, N, H].
  auto states = [&](const std::vector<TermId>& v) {
    auto t = std::make_shared<Tensor>();
    t->shape = {layers * dirs, batch, hidden};
    t->dtype = DType::F32;
    t->elems = v;
    return wrap(t);
  };
  Ref last = kind == "LSTM" ? python::tuple({states(hn), states(cn)}) : states(hn);
  return python::tuple({wrap(output), last});
}

}  // namespace keq::torch::impl
