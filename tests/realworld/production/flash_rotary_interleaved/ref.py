import torch
import torch.nn as nn

batch, seqlen, nheads, headdim, rotary_dim = 2, 4, 2, 16, 8


class Model(nn.Module):
    """Rotary position embedding, GPT-J layout: columns 2i and 2i+1 of the first rotary_dim form
    a pair rotated by the angle of frequency i: (a cos - b sin, a sin + b cos). Columns past
    rotary_dim pass through."""

    def forward(self, x, cos, sin):
        half = cos.shape[-1]
        c = cos[: x.shape[1]].view(1, x.shape[1], 1, half)
        s = sin[: x.shape[1]].view(1, x.shape[1], 1, half)
        pairs = x[..., : 2 * half].reshape(*x.shape[:-1], half, 2)
        a, b = pairs[..., 0], pairs[..., 1]
        rotated = torch.stack([a * c - b * s, a * s + b * c], dim=-1).flatten(-2)
        return torch.cat([rotated, x[..., 2 * half :]], dim=-1)


def get_inputs():
    return [torch.randn(batch, seqlen, nheads, headdim), torch.randn(seqlen, rotary_dim // 2),
            torch.randn(seqlen, rotary_dim // 2)]


def get_init_inputs():
    return []
