import torch
import torch.nn as nn
import torch.nn.functional as F

batch, seqlen, hidden = 2, 3, 16


class Model(nn.Module):
    """LayerNorm over the last dimension, with weight and bias, then gated by silu(z)."""

    def __init__(self, hidden, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden))
        self.bias = nn.Parameter(torch.zeros(hidden))
        self.eps = eps

    def forward(self, x, z):
        xf = x.float()
        mean = xf.mean(-1, keepdim=True)
        var = (xf - mean).pow(2).mean(-1, keepdim=True)
        y = (xf - mean) * torch.rsqrt(var + self.eps) * self.weight + self.bias
        return (y * F.silu(z.float())).to(x.dtype)


def get_inputs():
    return [torch.randn(batch, seqlen, hidden), torch.randn(batch, seqlen, hidden)]


def get_init_inputs():
    return [hidden]
