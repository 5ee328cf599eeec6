import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        return x


batch_size = 8
sizes = [64, 48, 32]


def get_inputs():
    return [torch.randn(batch_size, sizes[0])]


def get_init_inputs():
    return [sizes]
