import torch
import torch.nn as nn


class Model(nn.Module):
    """A dilated, strided 1-D convolution without bias (KernelBench level 1 #76's shape)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, dilation=1):
        super().__init__()
        self.conv = nn.Conv1d(
            in_channels, out_channels, kernel_size, stride=stride, dilation=dilation, bias=False
        )

    def forward(self, x):
        return self.conv(x)


batch_size = 32
in_channels = 32
out_channels = 64
kernel_size = 3
length = 262144
stride = 3
dilation = 4


def get_inputs():
    return [torch.rand(batch_size, in_channels, length)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, dilation]
