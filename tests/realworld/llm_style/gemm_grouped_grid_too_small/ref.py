import torch
import torch.nn as nn

# A pointwise (1x1) convolution, the GEMM of pixels by channels.
class Model(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=1, bias=False)

    def forward(self, x):
        return self.conv(x)

batch = 4
in_channels = 32
out_channels = 64
height = 64
width = 64

def get_inputs():
    return [torch.rand(batch, in_channels, height, width)]

def get_init_inputs():
    return [in_channels, out_channels]
