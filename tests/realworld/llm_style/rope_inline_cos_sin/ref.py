# Rotary embedding (rotate_half form) with cos/sin tables built from positions and inverse
# frequencies, everything in fp32.
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x, position_ids, inv_freq):
        freqs = position_ids.to(torch.float32).unsqueeze(-1) * inv_freq.unsqueeze(0)
        emb = torch.cat([freqs, freqs], dim=-1)  # (S, D)
        cos, sin = emb.cos(), emb.sin()
        half = x.shape[-1] // 2
        rotated = torch.cat([-x[..., half:], x[..., :half]], dim=-1)
        return x * cos + rotated * sin


heads = 4
seq = 16
head_dim = 32


def get_inputs():
    inv_freq = 1.0 / (10000 ** (torch.arange(0, head_dim, 2).float() / head_dim))
    return [torch.randn(heads, seq, head_dim), torch.arange(seq), inv_freq]


def get_init_inputs():
    return []
