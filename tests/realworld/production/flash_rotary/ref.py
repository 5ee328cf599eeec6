import torch
import torch.nn as nn

batch, seqlen, nheads, headdim, rotary_dim = 2, 4, 2, 16, 8


class Model(nn.Module):
    """Rotary position embedding, GPT-NeoX layout: the first rotary_dim columns of each head
    split in two halves (x1, x2), rotated by the angle whose cos and sin are given per position
    and frequency: (x1 cos - x2 sin, x1 sin + x2 cos). Columns past rotary_dim pass through."""

    def forward(self, x, cos, sin):
        half = cos.shape[-1]
        c = cos[: x.shape[1]].view(1, x.shape[1], 1, half)
        s = sin[: x.shape[1]].view(1, x.shape[1], 1, half)
        x1, x2, rest = x[..., :half], x[..., half : 2 * half], x[..., 2 * half :]
        return torch.cat([x1 * c - x2 * s, x1 * s + x2 * c, rest], dim=-1)


def get_inputs():
    return [torch.randn(batch, seqlen, nheads, headdim), torch.randn(seqlen, rotary_dim // 2),
            torch.randn(seqlen, rotary_dim // 2)]


def get_init_inputs():
    return []
