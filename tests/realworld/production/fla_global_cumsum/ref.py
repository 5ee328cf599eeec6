import torch
import torch.nn as nn


class Model(nn.Module):
    """Cumulative sum over time of [B, T, H] gates, reversed (suffix sums), in fp32."""

    def forward(self, s):
        return s.flip(1).cumsum(1).flip(1)


B, T, H = 2, 64, 4


def get_inputs():
    return [torch.randn(B, T, H)]


def get_init_inputs():
    return []
