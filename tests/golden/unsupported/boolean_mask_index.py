import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x, idx):
        return x[idx > 1]


def get_inputs():
    return [torch.randn(4), torch.randint(0, 4, (4,))]


def get_init_inputs():
    return []
