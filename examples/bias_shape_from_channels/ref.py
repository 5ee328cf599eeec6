import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, bias_shape):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        return x + self.bias


batch_size = 8
channels = 16
bias_shape = (channels,)  # computed from a size: follows it wherever the size is set


def get_inputs():
    return [torch.randn(batch_size, channels)]


def get_init_inputs():
    return [bias_shape]
