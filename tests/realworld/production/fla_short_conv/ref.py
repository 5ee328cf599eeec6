import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Depthwise causal 1-D convolution over time (kernel 4, no bias), then SiLU: x [B, T, D]."""

    def __init__(self, hidden, kernel):
        super().__init__()
        self.conv = nn.Conv1d(hidden, hidden, kernel, padding=kernel - 1, groups=hidden, bias=False)

    def forward(self, x):
        y = self.conv(x.transpose(1, 2))[..., : x.shape[1]]
        return F.silu(y).transpose(1, 2)


B, T, D, K = 2, 16, 32, 4


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return [D, K]
