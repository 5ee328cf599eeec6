import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """RMSNorm of x with a weight, gated by swish(g) (the output gate of gated linear attention)."""

    def __init__(self, hidden):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(hidden))

    def forward(self, x, g):
        y = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.weight
        return y * F.silu(g)


B, T, H = 2, 16, 64


def get_inputs():
    return [torch.randn(B, T, H), torch.randn(B, T, H)]


def get_init_inputs():
    return [H]
