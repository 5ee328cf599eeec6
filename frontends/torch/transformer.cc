// nn.TransformerEncoderLayer and nn.TransformerEncoder as keq models them: Python text over the
// modules keq models in C++ (MultiheadAttention, Linear, LayerNorm, Dropout), the layer's
// forward as torch 2.11's (post- or pre-norm, ReLU, GELU or a callable activation). torch's fast
// path computes the same values. The encoder deep-copies the layer it is given; keq builds each
// copy afresh instead, whose parameters are symbolic as every parameter is (trained weights need
// not be equal), and the given layer's Parameters, which no module then holds, are dropped from
// the Parameters --repro and the cross-check match torch's against (TorchState::parameter_objects).
#include "frontends/torch/torch_impl.h"

namespace keq::torch::impl {

namespace {

constexpr const char* kTransformer = R"PY(
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.modules._keq import unheld


def _activation(activation):
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    if isinstance(activation, str):
        raise RuntimeError("activation should be relu/gelu, not " + activation)
    return activation


class TransformerEncoderLayer(nn.Module):
    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu,
                 layer_norm_eps=1e-05, batch_first=False, norm_first=False, bias=True,
                 device=None, dtype=None):
        super().__init__()
        self._keq_args = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                          batch_first, norm_first, bias)
        self.self_attn = nn.MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                               batch_first=batch_first)
        self.linear1 = nn.Linear(d_model, dim_feedforward, bias=bias)
        self.dropout = nn.Dropout(dropout)
        self.linear2 = nn.Linear(dim_feedforward, d_model, bias=bias)
        self.norm_first = norm_first
        self.norm1 = nn.LayerNorm(d_model, eps=layer_norm_eps, bias=bias)
        self.norm2 = nn.LayerNorm(d_model, eps=layer_norm_eps, bias=bias)
        self.dropout1 = nn.Dropout(dropout)
        self.dropout2 = nn.Dropout(dropout)
        self.activation = _activation(activation)

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal))
            x = self.norm2(x + self._ff_block(x))
        return x

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False, is_causal=is_causal)[0]
        return self.dropout1(x)

    def _ff_block(self, x):
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout2(x)


class TransformerEncoder(nn.Module):
    def __init__(self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True,
                 mask_check=True):
        super().__init__()
        if not isinstance(encoder_layer, TransformerEncoderLayer):
            raise NotImplementedError("keq models nn.TransformerEncoder over its own "
                                      "nn.TransformerEncoderLayer only")
        self.layers = nn.ModuleList([TransformerEncoderLayer(*encoder_layer._keq_args)
                                     for _ in range(num_layers)])
        unheld(list(encoder_layer.parameters()))
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, src, mask=None, src_key_padding_mask=None, is_causal=None):
        output = src
        for mod in self.layers:
            output = mod(output, src_mask=mask, src_key_padding_mask=src_key_padding_mask,
                         is_causal=bool(is_causal))
        if self.norm is not None:
            output = self.norm(output)
        return output
)PY";

}  // namespace

void Torch::install_transformer() {
  // unheld(parameters): Parameters no module holds (the layer nn.TransformerEncoder copies).
  Ref keq = module("torch.nn.modules._keq");
  (*keq->attrs)["unheld"] = python::builtin("unheld", [this](Interp& i2, CallArgs& a) {
    std::set<const Tensor*> dropped;
    for (const Ref& p : i2.to_sequence(a.pos.at(0), a.at))
      if (p->kind == K::Tensor) dropped.insert(p->tensor.get());
    std::erase_if(st.parameter_objects,
                  [&](const TorchState::ParameterObject& o) { return dropped.contains(o.values); });
    return python::none();
  });
  in.register_module("torch.nn.modules._keq", keq);
  in.register_model_source("torch.nn.modules.transformer", kTransformer);
  for (const char* name : {"TransformerEncoderLayer", "TransformerEncoder"})
    in.register_model_attribute("torch.nn", name, "torch.nn.modules.transformer");
}

}  // namespace keq::torch::impl
