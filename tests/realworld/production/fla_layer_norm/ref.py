import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(hidden))
        self.bias = nn.Parameter(torch.randn(hidden))

    def forward(self, x):
        return F.layer_norm(x, (x.shape[-1],), self.weight, self.bias, 1e-5)


B, T, H = 2, 16, 64


def get_inputs():
    return [torch.randn(B, T, H)]


def get_init_inputs():
    return [H]
