import torch
import torch.nn as nn

batch_size = 16
channels = 32
height = width = 64
divide_by = 2.0


class Model(nn.Module):
    """InstanceNorm2d (no affine), then a division by a constant."""

    def __init__(self, channels, divide_by):
        super().__init__()
        self.instance_norm = nn.InstanceNorm2d(channels)
        self.divide_by = divide_by

    def forward(self, x):
        return self.instance_norm(x) / self.divide_by


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels, divide_by]
