import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, constant):
        super().__init__()
        self.constant = nn.Parameter(torch.tensor(constant))

    def forward(self, x):
        return torch.min(x, self.constant) - self.constant


batch_size = 4
features = 16
constant = 2.0


def get_inputs():
    return [torch.randn(batch_size, features)]


def get_init_inputs():
    return [constant]
