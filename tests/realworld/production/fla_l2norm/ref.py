import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x / torch.sqrt((x * x).sum(-1, keepdim=True) + 1e-6)


B = 4
T = 16
D = 64


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return []
