import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, channels, bias_shape):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        return x + self.bias


batch_size = 4
channels = 8
height = 4
width = 4
bias_shape = (channels, 1, 1)


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels, bias_shape]
