import torch
import torch.nn as nn

batch_size = 16
in_channels = 8
out_channels = 32
height = width = 64
kernel_size = 3
divide_by = 2.0


class Model(nn.Module):
    """Conv2d, then InstanceNorm2d (no affine), then a division by a constant."""

    def __init__(self, in_channels, out_channels, kernel_size, divide_by):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.instance_norm = nn.InstanceNorm2d(out_channels)
        self.divide_by = divide_by

    def forward(self, x):
        x = self.conv(x)
        x = self.instance_norm(x)
        return x / self.divide_by


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, divide_by]
