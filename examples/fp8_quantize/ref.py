import torch
import torch.nn as nn


class Model(nn.Module):
    """Per-row absmax scaling to float8 e4m3 and back."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        scale = x.abs().amax(dim=1, keepdim=True) / 448.0
        q = (x / scale).to(torch.float8_e4m3fn)
        return q.to(torch.float32) * scale


batch_size = 128
dim = 7168


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
