import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.bn = nn.BatchNorm1d(n)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        return self.drop(self.bn(x))


class Model(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.blocks = nn.ModuleList([Block(n)])

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return x


def get_inputs():
    return [torch.randn(2, 3)]


def get_init_inputs():
    return [3]
