# Rotary embedding as Hugging Face models apply it to bf16 activations: the cos/sin tables are
# rounded to bf16, the rotation is computed in fp32 and rounded to bf16.
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x, position_ids, inv_freq):
        freqs = position_ids.to(torch.float32).unsqueeze(-1) * inv_freq.unsqueeze(0)
        emb = torch.cat([freqs, freqs], dim=-1)  # (S, D)
        cos, sin = emb.cos().to(torch.bfloat16), emb.sin().to(torch.bfloat16)
        x = x.to(torch.float32)
        cos, sin = cos.to(torch.float32), sin.to(torch.float32)
        half = x.shape[-1] // 2
        rotated = torch.cat([-x[..., half:], x[..., :half]], dim=-1)
        return (x * cos + rotated * sin).to(torch.bfloat16)


heads = 4
seq = 16
head_dim = 32


def get_inputs():
    inv_freq = 1.0 / (10000 ** (torch.arange(0, head_dim, 2).float() / head_dim))
    return [torch.randn(heads, seq, head_dim).to(torch.bfloat16), torch.arange(seq), inv_freq]


def get_init_inputs():
    return []
