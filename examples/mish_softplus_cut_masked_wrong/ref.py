# Mish, a shift and a hardtanh (KernelBench level-2 #16's epilogue, without its convolution).
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, add_value, scale):
        super().__init__()
        self.add_value = add_value
        self.scale = scale

    def forward(self, x):
        x = torch.nn.functional.mish(x)
        x = x + self.add_value
        x = torch.nn.functional.hardtanh(x, min_val=-1, max_val=1)
        return x * self.scale


batch_size = 16
dim = 64


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [0.5, 2.0]
