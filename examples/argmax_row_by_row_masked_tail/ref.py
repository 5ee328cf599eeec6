import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.argmax(x, dim=1)


batch_size = 2
m = 9
n = 5


def get_inputs():
    return [torch.randn(batch_size, m, n)]


def get_init_inputs():
    return []
