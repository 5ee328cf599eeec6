import torch
import torch.nn as nn


class Model(nn.Module):
    """Scale, InstanceNorm, clamp, scale again, then the maximum over channels."""

    def __init__(self, channels, clamp_min, clamp_max):
        super().__init__()
        self.scale = nn.Parameter(torch.randn(channels, 1, 1))
        self.norm = nn.InstanceNorm2d(channels)
        self.clamp_min = clamp_min
        self.clamp_max = clamp_max

    def forward(self, x):
        x = self.norm(x * self.scale)
        x = torch.clamp(x, self.clamp_min, self.clamp_max) * self.scale
        return torch.max(x, dim=1)[0]


batch_size = 16
channels = 32
height = 32
width = 32
clamp_min = -1.0
clamp_max = 1.0


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels, clamp_min, clamp_max]
