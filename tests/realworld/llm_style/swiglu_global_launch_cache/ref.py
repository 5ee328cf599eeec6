import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x, y):
        return torch.nn.functional.silu(x) * y


batch_size = 4
hidden = 1000


def get_inputs():
    return [torch.randn(batch_size, hidden), torch.randn(batch_size, hidden)]


def get_init_inputs():
    return []
