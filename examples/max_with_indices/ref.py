import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        values, indices = torch.max(x, dim=2)
        return values * 2.0, indices


batch_size = 16
dim1 = 256
dim2 = 256


def get_inputs():
    return [torch.randn(batch_size, dim1, dim2)]


def get_init_inputs():
    return []
