import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """SwiGLU on a fused projection: the first half through silu, times the second half."""

    def forward(self, xy):
        x, y = xy.chunk(2, dim=-1)
        return F.silu(x) * y


batch, seqlen, hidden = 2, 3, 32


def get_inputs():
    return [torch.randn(batch, seqlen, 2 * hidden)]


def get_init_inputs():
    return []
