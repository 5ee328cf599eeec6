import torch
import torch.nn as nn

# A strided, padded, grouped ConvTranspose2d: torch's own.
class Model(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(in_channels, out_channels, (3, 2), stride=(2, 1),
                                         padding=(1, 0), groups=2, bias=True)

    def forward(self, x):
        return self.deconv(x)

batch_size = 2
in_channels = 4
out_channels = 6
height = 5
width = 7

def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]

def get_init_inputs():
    return [in_channels, out_channels]
