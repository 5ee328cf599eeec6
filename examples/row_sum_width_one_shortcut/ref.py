import torch
import torch.nn as nn


class Model(nn.Module):
    """Sum over a dimension, keeping it (KernelBench level 1 #47's shape of problem)."""

    def forward(self, x):
        return torch.sum(x, dim=1, keepdim=True)


batch_size = 16
dim = 1


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
