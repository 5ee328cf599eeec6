// einsum and scaled_dot_product_attention, written over matmul and softmax.
#include "frontends/torch/torch_impl.h"

namespace keq::torch::impl {

void Torch::install_linalg(const Ref& F) {
  auto& fa = *F->attrs;
  // einsum, the explicit and implicit forms without ellipsis.
  define("einsum", [this](Interp& i2, CallArgs& a) -> Ref {
    if (a.pos.empty() || a.pos[0]->kind != K::Str) in.error(a.at, "einsum needs an equation");
    std::string eq;
    for (char ch : a.pos[0]->s)
      if (ch != ' ') eq += ch;
    if (eq.find('.') != std::string::npos) in.unsupported(a.at, "einsum with ...");
    std::vector<TensorPtr> xs;
    std::vector<Ref> args(a.pos.begin() + 1, a.pos.end());
    if (args.size() == 1 && (args[0]->kind == K::List || args[0]->kind == K::Tuple))
      args = args[0]->items;
    for (const Ref& v : args) xs.push_back(v->kind == K::Tensor ? v->tensor : nullptr);
    size_t arrow = eq.find("->");
    std::string lhs = eq.substr(0, arrow), out;
    std::vector<std::string> terms;
    for (size_t p = 0, q; p <= lhs.size(); p = q + 1) {
      q = lhs.find(',', p);
      if (q == std::string::npos) q = lhs.size();
      terms.push_back(lhs.substr(p, q - p));
    }
    if (terms.size() != xs.size())
      in.error(a.at, "einsum: " + std::to_string(terms.size()) + " operands in the equation, " +
                         std::to_string(xs.size()) + " given");
    for (const TensorPtr& x : xs)
      if (x) define_unwritten(in, *x, a.at);  // memory a kernel left unwritten: some value
    absl::flat_hash_map<char, int64_t> size;
    absl::flat_hash_map<char, int> count;
    for (size_t t = 0; t < terms.size(); ++t) {
      if (!xs[t] || terms[t].size() != xs[t]->shape.size())
        in.error(a.at,
                 "einsum: operand " + std::to_string(t) + " does not match '" + terms[t] + "'");
      for (size_t d = 0; d < terms[t].size(); ++d) {
        char l = terms[t][d];
        if (size.contains(l) && size[l] != xs[t]->shape[d])
          in.error(a.at, std::string("einsum: sizes differ for '") + l + "'");
        size[l] = xs[t]->shape[d];
        ++count[l];
      }
    }
    if (arrow != std::string::npos) {
      out = eq.substr(arrow + 2);
    } else {
      for (auto& [l, n] : count)
        if (n == 1) out += l;
      std::sort(out.begin(), out.end());
    }
    std::string contracted;
    for (auto& [l, n] : size)
      if (out.find(l) == std::string::npos) contracted += l;
    std::sort(contracted.begin(), contracted.end());
    std::vector<int64_t> oshape, cshape;
    for (char l : out) oshape.push_back(size.at(l));
    for (char l : contracted) cshape.push_back(size.at(l));
    auto r = std::make_shared<Tensor>();
    r->shape = oshape;
    r->dtype = xs[0]->dtype;
    absl::flat_hash_map<char, int64_t> at;
    for_each_index(oshape, [&](const std::vector<int64_t>& oi, int64_t) {
      for (size_t d = 0; d < out.size(); ++d) at[out[d]] = oi[d];
      std::vector<TermId> products;
      for_each_index(cshape, [&](const std::vector<int64_t>& ci, int64_t) {
        for (size_t d = 0; d < contracted.size(); ++d) at[contracted[d]] = ci[d];
        TermId prod = 0;
        for (size_t t = 0; t < xs.size(); ++t) {
          int64_t flat = 0;
          for (size_t d = 0; d < terms[t].size(); ++d)
            flat = flat * xs[t]->shape[d] + at[terms[t][d]];
          TermId e = xs[t]->elems[flat];
          prod = t == 0 ? e : mk(Op::Mul, {prod, e});
        }
        products.push_back(prod);
      });
      // One operand: a sum of its elements. Without a contracted index each output is one
      // product and nothing is summed.
      TermId e = xs.size() == 1       ? sum_of(products)
                 : contracted.empty() ? products[0]
                                      : sum_of_products(products);
      r->elems.push_back(round_to(s, r->dtype, e));
    });
    (void)i2;
    return wrap(r);
  });
  define("bilinear", [this](Interp&, CallArgs& a) { return bilinear(a); });
  fa["bilinear"] = python::builtin("F.bilinear", ops.at("bilinear"));
  // scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal, scale): softmax(q k^T *
  // scale + mask) v.
  fa["scaled_dot_product_attention"] =
      python::builtin("F.scaled_dot_product_attention", [this](Interp& i2, CallArgs& a) {
        TensorPtr q = tensor_arg(a, 0, "query"), k = tensor_arg(a, 1, "key"),
                  v = tensor_arg(a, 2, "value");
        if (float_arg(a, 4, "dropout_p", 0) != 0)
          in.unsupported(a.at, "attention dropout is random");
        // On the GPU a narrow-format attention runs in one fused kernel (flash, memory-efficient
        // or cuDNN, picked by shape): scores stay in fp32, and the probabilities are rounded to
        // the format unnormalized, against a running maximum over blocks of keys. Composing
        // torch's matmul and softmax would round where none of those kernels does.
        if (q->dtype == DType::F16 || q->dtype == DType::BF16)
          in.unsupported(a.at, "scaled_dot_product_attention on " +
                                   std::string(dtype_name(q->dtype)) +
                                   " inputs: the fused kernel torch picks (flash, "
                                   "memory-efficient, cuDNN) rounds its probabilities to the "
                                   "format at points of its own blocking");
        std::vector<int64_t> perm;
        for (size_t d = 0; d < k->shape.size(); ++d) perm.push_back(static_cast<int64_t>(d));
        std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
        double scale =
            float_arg(a, 6, "scale", 1.0 / std::sqrt(static_cast<double>(q->shape.back())));
        // torch scales q and k by sqrt(scale) before their product (the math kernel), equal to
        // scaling the scores over the reals, except where the head dimension is 0: there the
        // scale is infinite and the scores are zeros, not 0 * inf.
        Ref scores = matmul(q, permuted(k, perm), a.at);
        if (q->shape.back() > 0) scores = binary("*", scores, python::floating(scale), a.at);
        Ref mask = a.get(3, "attn_mask");
        if (mask && mask->kind == K::Tensor) {
          if (mask->tensor->dtype == DType::Bool) {
            TensorPtr st = scores->tensor, m = mask->tensor;
            TermId ninf = fconst(-INFINITY);
            scores = wrap(map2(
                in, m, st, st->dtype,
                [&](TermId keep, TermId e) { return where_term(s, keep, e, ninf); }, a.at));
          } else {
            scores = binary("+", scores, mask, a.at);
          }
        }
        if (bool_arg(a, 5, "is_causal", false)) {
          TensorPtr st = std::make_shared<Tensor>(*scores->tensor);
          int64_t L = st->shape[st->shape.size() - 2], S = st->shape.back();
          for (int64_t i = 0; i < st->numel(); ++i)
            if ((i % S) > ((i / S) % L)) st->elems[i] = fconst(-INFINITY);
          scores = wrap(st);
        }
        CallArgs c;
        c.at = a.at;
        c.pos = {scores, python::integer(-1)};
        Ref p = ops.at("softmax")(i2, c);
        return matmul(p->tensor, v, a.at);
      });
}

// F.bilinear(x1, x2, weight, bias=None): y[..., k] = sum_ij x1[..., i] W[k, i, j] x2[..., j] +
// b[k].
Ref Torch::bilinear(CallArgs& a) {
  TensorPtr x1 = tensor_arg(a, 0, "input1"), x2 = tensor_arg(a, 1, "input2"),
            w = tensor_arg(a, 2, "weight");
  Ref b = a.get(3, "bias");
  if (w->shape.size() != 3 || x1->shape.empty() || x2->shape.empty() ||
      x1->shape.back() != w->shape[1] || x2->shape.back() != w->shape[2] ||
      x1->numel() / x1->shape.back() != x2->numel() / x2->shape.back())
    in.raise(a.at, "RuntimeError: bilinear: input and weight sizes do not match");
  if (x1->dtype != DType::F32) in.unsupported(a.at, "bilinear of non-fp32 inputs");
  define_unwritten(in, *x1, a.at);
  define_unwritten(in, *x2, a.at);
  int64_t out = w->shape[0], n1 = w->shape[1], n2 = w->shape[2], rows = x1->numel() / n1;
  auto r = std::make_shared<Tensor>();
  r->shape = x1->shape;
  r->shape.back() = out;
  r->dtype = DType::F32;
  for (int64_t row = 0; row < rows; ++row)
    for (int64_t k = 0; k < out; ++k) {
      std::vector<TermId> terms;
      for (int64_t i = 0; i < n1; ++i)
        for (int64_t j = 0; j < n2; ++j)
          terms.push_back(
              mk(Op::Mul, {mk(Op::Mul, {x1->elems[row * n1 + i], w->elems[(k * n1 + i) * n2 + j]}),
                           x2->elems[row * n2 + j]}));
      TermId y = sum_of(terms);
      if (b && b->kind == K::Tensor) y = mk(Op::Add, {y, b->tensor->elems[k]});
      r->elems.push_back(y);
    }
  return wrap(r);
}

// nn.MultiheadAttention.forward(query, key, value, key_padding_mask=None, need_weights=True,
// attn_mask=None, average_attn_weights=True, is_causal=False), as F.multi_head_attention_forward
// computes it in fp32: q, k, v through the packed input projection, split into heads, scores
// q * sqrt(1 / head_dim) @ k^T, softmax, @ v, heads joined, the output projection; with the
// weights averaged over the heads (or per head), or None when need_weights is False.
Ref Torch::multihead_attention(Interp& i2, CallArgs& a) {
  Ref self = a.pos.at(0);
  TensorPtr q = tensor_arg(a, 1, "query"), k = tensor_arg(a, 2, "key"),
            v = tensor_arg(a, 3, "value");
  for (auto [pos, name] : {std::pair<size_t, const char*>{4, "key_padding_mask"},
                           std::pair<size_t, const char*>{6, "attn_mask"}})
    if (Ref m = a.get(pos, name); m && m->kind != K::None)
      in.unsupported(a.at, std::string("nn.MultiheadAttention with ") + name);
  if (bool_arg(a, 8, "is_causal", false))
    in.unsupported(a.at, "nn.MultiheadAttention with is_causal=True");
  bool need_weights = bool_arg(a, 5, "need_weights", true),
       average = bool_arg(a, 7, "average_attn_weights", true);
  auto attr = [&](const char* n) { return i2.getattr(self, n, a.at); };
  if (i2.to_float(attr("dropout"), a.at) != 0 && i2.truthy(attr("training"), a.at))
    in.unsupported(a.at, "nn.MultiheadAttention with dropout > 0 in training mode is random");
  int64_t e = i2.to_int(attr("embed_dim"), a.at), h = i2.to_int(attr("num_heads"), a.at),
          hd = e / h;
  bool batch_first = i2.truthy(attr("batch_first"), a.at);
  for (const TensorPtr& t : {q, k, v}) {
    if (t->shape.size() != 3 || t->dtype != DType::F32)
      in.unsupported(a.at, "nn.MultiheadAttention other than batched fp32 (L, N, E) inputs");
    if (t->shape[2] != e)
      in.raise(a.at, "AssertionError: was expecting embedding dimension of " + std::to_string(e) +
                         ", but got " + std::to_string(t->shape[2]));
  }
  auto seq_first = [&](const TensorPtr& t) { return batch_first ? permuted(t, {1, 0, 2}) : t; };
  q = seq_first(q), k = seq_first(k), v = seq_first(v);
  int64_t l = q->shape[0], n = q->shape[1], s_len = k->shape[0];
  if (k->shape[1] != n || v->shape[0] != s_len || v->shape[1] != n)
    in.raise(a.at, "AssertionError: key and value must match the query's batch and each other");
  TensorPtr w = attr("in_proj_weight")->tensor;
  Ref b = attr("in_proj_bias");
  // The j-th E rows of the packed projection, applied to x: x @ W_j^T + b_j.
  auto project = [&](const TensorPtr& x, int64_t j) {
    auto wj = std::make_shared<Tensor>();
    wj->shape = {e, e};
    wj->dtype = w->dtype;
    wj->elems.assign(w->elems.begin() + j * e * e, w->elems.begin() + (j + 1) * e * e);
    Ref y = matmul(x, permuted(wj, {1, 0}), a.at);
    if (b->kind == K::None) return y;
    auto bj = std::make_shared<Tensor>();
    bj->shape = {e};
    bj->dtype = b->tensor->dtype;
    bj->elems.assign(b->tensor->elems.begin() + j * e, b->tensor->elems.begin() + (j + 1) * e);
    return binary("+", y, wrap(bj), a.at);
  };
  // (len, N, E) -> (N * H, len, head_dim), as a new tensor.
  auto heads = [&](const Ref& x, int64_t len) {
    return permuted(reshaped(x->tensor, {len, n * h, hd}), {1, 0, 2});
  };
  Ref qh = binary("*", wrap(heads(project(q, 0), l)),
                  python::floating(std::sqrt(1.0 / static_cast<double>(hd))), a.at);
  TensorPtr kh = heads(project(k, 1), s_len), vh = heads(project(v, 2), s_len);
  CallArgs sm;
  sm.at = a.at;
  sm.pos = {matmul(qh->tensor, permuted(kh, {0, 2, 1}), a.at), python::integer(-1)};
  Ref p = ops.at("softmax")(i2, sm);
  Ref o = matmul(p->tensor, vh, a.at);  // (N * H, L, head_dim)
  TensorPtr joined = reshaped(permuted(o->tensor, {1, 0, 2}), {l * n, e});
  Ref out_proj = attr("out_proj");
  Ref y = matmul(joined, permuted(i2.getattr(out_proj, "weight", a.at)->tensor, {1, 0}), a.at);
  if (Ref ob = i2.getattr(out_proj, "bias", a.at); ob->kind != K::None)
    y = binary("+", y, ob, a.at);
  TensorPtr out = reshaped(y->tensor, {l, n, e});
  if (batch_first) out = permuted(out, {1, 0, 2});
  Ref weights = python::none();
  if (need_weights) {
    Ref per_head = wrap(reshaped(p->tensor, {n, h, l, s_len}));
    if (average) {
      CallArgs mean;
      mean.at = a.at;
      mean.pos = {per_head, python::integer(1)};
      per_head = ops.at("mean")(i2, mean);
    }
    weights = per_head;
  }
  return python::tuple(
      {wrap(copied(out)), weights->kind == K::None ? weights : wrap(copied(weights->tensor))});
}

}  // namespace keq::torch::impl
