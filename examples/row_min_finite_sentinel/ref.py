import torch
import torch.nn as nn


class Model(nn.Module):
    """The minimum of each row."""

    def forward(self, x):
        return torch.amin(x, dim=1)


batch_size = 16
dim = 4096


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
