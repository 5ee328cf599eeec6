import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.fft.fft(x)


def get_inputs():
    return [torch.randn(4)]


def get_init_inputs():
    return []
