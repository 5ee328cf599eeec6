import torch
import torch.nn as nn


class Model(nn.Module):
    """Quantizes x to fp8 e4m3 in groups of `block` along the last dimension: each group's
    scale is its largest magnitude over 448, with no guard (an all-zero group gives NaN)."""

    def __init__(self, block):
        super().__init__()
        self.block = block

    def forward(self, x):
        g = x.reshape(x.shape[0], x.shape[1] // self.block, self.block)
        s = g.abs().amax(dim=-1) / 448.0
        y = (g / s.unsqueeze(-1)).to(torch.float8_e4m3fn)
        return y.reshape(x.shape), s


rows = 16
cols = 256
block = 128


def get_inputs():
    return [torch.randn(rows, cols)]


def get_init_inputs():
    return [block]
