import torch
import torch.nn as nn

batch, seqlen, dim = 2, 3, 32


class Model(nn.Module):
    """RMS normalization along the last dimension, times a weight: x / sqrt(mean(x^2) + eps) * w."""

    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(dim))
        self.eps = eps

    def forward(self, x):
        rstd = torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + self.eps)
        return (x.float() * rstd * self.weight).to(x.dtype)


def get_inputs():
    return [torch.randn(batch, seqlen, dim)]


def get_init_inputs():
    return [dim]
