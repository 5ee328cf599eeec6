import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        return torch.min(x * self.scale, dim=1, keepdim=True)[0]


batch_size = 2
channels = 3
scale = 2.0


def get_inputs():
    return [torch.randn(batch_size, channels)]


def get_init_inputs():
    return [scale]
