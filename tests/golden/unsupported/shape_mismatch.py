import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, a, b):
        return a + b


def get_inputs():
    return [torch.randn(3, 4), torch.randn(5)]


def get_init_inputs():
    return []
