import torch
import torch.nn as nn
from fla.modules.norm.layernorm import layer_norm


class ModelNew(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(hidden))
        self.bias = nn.Parameter(torch.randn(hidden))

    def forward(self, x):
        return layer_norm(x, self.weight, self.bias, eps=1e-5)
