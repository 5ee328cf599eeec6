import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.drop = nn.Dropout(p=0.1)

    def forward(self, x):
        return self.drop(x)


def get_inputs():
    return [torch.randn(4)]


def get_init_inputs():
    return []
