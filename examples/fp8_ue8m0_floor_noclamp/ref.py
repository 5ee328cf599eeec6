import torch
import torch.nn as nn


class Model(nn.Module):
    """Per-token fp8 with a power-of-two scale rounded down (2^floor(log2(amax / 448))): the
    quotient can reach 896, so the clamp is what keeps the cast finite."""

    def forward(self, x):
        amax = x.abs().amax(dim=1, keepdim=True).clamp(min=1e-10)
        scale = torch.exp2(torch.floor(torch.log2(amax / 448.0)))
        return (x / scale).clamp(-448.0, 448.0).to(torch.float8_e4m3fn), scale


batch_size = 512
dim = 7168


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
