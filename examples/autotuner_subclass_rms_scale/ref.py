import torch
import torch.nn as nn


class Model(nn.Module):
    """Each row divided by its root mean square (eps 1e-6), then scaled by 2."""

    def forward(self, x):
        return 2.0 * x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)


rows = 5
cols = 6


def get_inputs():
    return [torch.randn(rows, cols)]


def get_init_inputs():
    return []
