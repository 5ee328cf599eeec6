import torch
import torch.nn as nn


class Model(nn.Module):
    """Conv2d followed by GroupNorm."""

    def __init__(self, in_channels, out_channels, kernel_size, num_groups):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.group_norm = nn.GroupNorm(num_groups, out_channels)

    def forward(self, x):
        return self.group_norm(self.conv(x))


batch_size = 64
in_channels = 16
out_channels = 32
height = width = 30
kernel_size = 3
num_groups = 8


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, num_groups]
