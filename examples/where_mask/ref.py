import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, threshold):
        super().__init__()
        self.threshold = threshold

    def forward(self, x, y):
        keep = (x > self.threshold) & (y < 0.5)
        return torch.where(keep, x * y, torch.zeros_like(x))


batch_size = 8
dim = 1024


def get_inputs():
    return [torch.randn(batch_size, dim), torch.rand(batch_size, dim)]


def get_init_inputs():
    return [0.1]
