import torch
import torch.nn as nn


class Model(nn.Module):
    """Rotary embedding on the two halves of each head: x of [B, T, H, D], cos and sin of
    [T, D/2]."""

    def forward(self, x, cos, sin):
        half = x.shape[-1] // 2
        x1, x2 = x[..., :half], x[..., half:]
        c = cos[None, :, None, :]
        s = sin[None, :, None, :]
        return torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], dim=-1)


B, T, H, D = 2, 16, 4, 32


def get_inputs():
    return [torch.randn(B, T, H, D), torch.randn(T, D // 2), torch.randn(T, D // 2)]


def get_init_inputs():
    return []
