import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        assert x.shape[0] % 4 == 0, "rows must be a multiple of 4"
        return x


def get_inputs():
    return [torch.randn(6)]


def get_init_inputs():
    return []
