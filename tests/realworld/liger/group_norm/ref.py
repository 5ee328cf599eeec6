import torch
import torch.nn as nn

batch_size = 2
groups = 4
channels_per_group = 2
length = 16

class Model(nn.Module):
    """GroupNorm over (batch, channels, length) with a per-channel affine."""
    def __init__(self, channels, groups, eps=1e-6):
        super().__init__()
        self.gn = nn.GroupNorm(groups, channels, eps=eps)

    def forward(self, x):
        return self.gn(x)

def get_inputs():
    return [torch.randn(batch_size, groups * channels_per_group, length)]

def get_init_inputs():
    return [groups * channels_per_group, groups]
