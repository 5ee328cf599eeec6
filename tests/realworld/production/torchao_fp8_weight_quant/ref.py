import torch
import torch.nn as nn

rows, cols, block = 8, 16, 4


class Model(nn.Module):
    """Blockwise fp8 weight quantization (DeepSeek-V3): each block x block tile is scaled by its
    absolute maximum over 448 and cast to float8_e4m3fn; returns the fp8 weight and the fp32
    scale of each tile."""

    def __init__(self, block):
        super().__init__()
        self.block = block

    def forward(self, w):
        m, n, b = w.shape[0], w.shape[1], self.block
        tiles = w.float().view(m // b, b, n // b, b).permute(0, 2, 1, 3)
        scale = tiles.abs().amax(dim=(-2, -1)) / 448.0
        y = (tiles / scale[..., None, None]).to(torch.float8_e4m3fn)
        return y.permute(0, 2, 1, 3).reshape(m, n), scale


def get_inputs():
    return [torch.randn(rows, cols)]


def get_init_inputs():
    return [block]
