import torch
import torch.nn as nn
import torch.nn.functional as F

batch, seqlen, d_ssm, ngroups = 2, 3, 16, 4


class Model(nn.Module):
    """Mamba2's gated RMSNorm: the output gated by silu(z) before the norm, normalized within each
    of ngroups groups of columns, then scaled by the weight."""

    def __init__(self, d_ssm, ngroups, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d_ssm))
        self.ngroups = ngroups
        self.eps = eps

    def forward(self, x, z):
        gated = x.float() * F.silu(z.float())
        g = gated.view(*gated.shape[:-1], self.ngroups, -1)
        rstd = torch.rsqrt(g.pow(2).mean(-1, keepdim=True) + self.eps)
        normed = (g * rstd).view(gated.shape)
        return (normed * self.weight.float()).to(x.dtype)


def get_inputs():
    return [torch.randn(batch, seqlen, d_ssm), torch.randn(batch, seqlen, d_ssm)]


def get_init_inputs():
    return [d_ssm, ngroups]
