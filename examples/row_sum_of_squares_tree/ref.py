import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return (x * x).sum(dim=1)


batch_size = 16
dim = 64


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
