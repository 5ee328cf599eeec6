import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        values, indices = torch.max(x, dim=1)
        return values, indices


batch = 4
dim = 100


def get_inputs():
    return [torch.randn(batch, dim)]


def get_init_inputs():
    return []
