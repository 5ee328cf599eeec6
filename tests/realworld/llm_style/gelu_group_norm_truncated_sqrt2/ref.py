import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, channels, num_groups):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels)

    def forward(self, x):
        return self.gn(F.gelu(x))


batch_size = 8
channels = 64
num_groups = 8
height = width = 32


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels, num_groups]
