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
        Ref scores = binary("*", matmul(q, permuted(k, perm), a.at), python::floating(scale), a.at);
        Ref mask = a.get(3, "attn_mask");
        if (mask && mask->kind == K::Tensor) {
          if (mask->tensor->dtype == DType::Bool) {
            TensorPtr st = scores->tensor, m = mask->tensor;
            TermId ninf = fconst(-INFINITY);
            scores = wrap(map2(
                in, m, st, st->dtype,
                [&](TermId keep, TermId e) {
                  return s.make(Op::Select, {keep, e, ninf});
                },
                a.at));
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

}  // namespace keq::torch::impl
