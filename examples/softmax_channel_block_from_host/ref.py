import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=1)


batch_size = 2
channels = 3
width = 4


def get_inputs():
    return [torch.randn(batch_size, channels, width)]


def get_init_inputs():
    return []
