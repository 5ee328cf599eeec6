import torch
import torch.nn as nn


class Model(nn.Module):
    """Per-block fp8 weight quantization (128x128 blocks, as DeepSeek-V3's weights): one scale
    per block from the block's absolute maximum."""

    def __init__(self, block):
        super().__init__()
        self.block = block

    def forward(self, w):
        N, K = w.shape
        B = self.block
        blocks = w.view(N // B, B, K // B, B)
        amax = blocks.abs().amax(dim=(1, 3), keepdim=True).clamp(min=1e-12)
        scale = amax / 448.0
        q = (blocks / scale).clamp(-448.0, 448.0).to(torch.float8_e4m3fn)
        return q.view(N, K), scale.view(N // B, K // B)


out_features = 1024
in_features = 2048
block = 128


def get_inputs():
    return [torch.randn(out_features, in_features)]


def get_init_inputs():
    return [block]
