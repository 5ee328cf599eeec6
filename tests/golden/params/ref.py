import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, n, m):
        super().__init__()
        self.fc = nn.Linear(n, m)
        self.ln = nn.LayerNorm(m)

    def forward(self, x):
        return self.ln(self.fc(x))


def get_inputs():
    return [torch.randn(2, 3)]


def get_init_inputs():
    return [3, 4]
