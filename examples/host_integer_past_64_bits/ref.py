import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, y):
        return y


batch_size = 16
dim = 64


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
