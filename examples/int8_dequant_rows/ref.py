import torch
import torch.nn as nn


class Model(nn.Module):
    """int8 values times a per-row fp32 scale."""

    def forward(self, q, scale):
        return q.to(torch.float32) * scale


rows = 8
cols = 64


def get_inputs():
    return [torch.randint(-128, 128, (rows, cols), dtype=torch.int8), torch.rand(rows, 1) + 0.01]


def get_init_inputs():
    return []
