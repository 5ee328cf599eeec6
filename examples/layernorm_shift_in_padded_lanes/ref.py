import torch
import torch.nn as nn


# A scalar parameter added before a LayerNorm over the last dimension (KernelBench L2 3's
# x + sum_weight, then the norm).
class Model(nn.Module):
    def __init__(self, width, shift):
        super().__init__()
        self.shift = nn.Parameter(torch.tensor(shift))
        self.norm = nn.LayerNorm(width)

    def forward(self, x):
        return self.norm(x + self.shift)


rows = 3
width = 5
shift = 1.0


def get_inputs():
    return [torch.rand(rows, width)]


def get_init_inputs():
    return [width, shift]
