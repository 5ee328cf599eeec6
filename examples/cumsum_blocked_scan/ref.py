import torch
import torch.nn as nn


class Model(nn.Module):
    """Cumulative sum along the rows (KernelBench level 1 #89)."""

    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.cumsum(x, dim=self.dim)


batch_size = 2
dim = 1
width = 10


def get_inputs():
    return [torch.randn(batch_size, width)]


def get_init_inputs():
    return [dim]
