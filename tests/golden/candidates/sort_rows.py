import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        down = torch.sort(x, dim=-1, descending=True).values
        up, idx = torch.sort(x, dim=1, stable=True)
        return down, up, idx


class ModelUnstableIndices(nn.Module):
    def forward(self, x):
        _, idx = torch.sort(x)
        return idx


def get_inputs():
    return [torch.randn(2, 4)]


def get_init_inputs():
    return []
