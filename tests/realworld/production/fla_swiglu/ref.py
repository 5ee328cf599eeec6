import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x, y):
        return F.silu(x) * y


B, T, H = 2, 16, 64


def get_inputs():
    return [torch.randn(B, T, H), torch.randn(B, T, H)]


def get_init_inputs():
    return []
