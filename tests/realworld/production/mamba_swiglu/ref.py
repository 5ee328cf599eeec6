import torch
import torch.nn as nn
import torch.nn.functional as F

batch, seqlen, width = 2, 3, 64  # width: both halves, so that the bound varies it


class Model(nn.Module):
    """SwiGLU on a fused projection: the first half through silu, times the second half."""

    def forward(self, xy):
        x, y = xy.chunk(2, dim=-1)
        return F.silu(x.float()) * y.float()


def get_inputs():
    return [torch.randn(batch, seqlen, width)]


def get_init_inputs():
    return []
