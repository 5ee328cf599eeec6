import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.softmax(x, dim=-1)


batch = 4
dim = 1000


def get_inputs():
    return [torch.randn(batch, dim)]


def get_init_inputs():
    return []
