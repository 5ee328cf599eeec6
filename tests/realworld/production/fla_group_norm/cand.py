import torch
import torch.nn as nn
from fla.modules.norm.layernorm import group_norm


class ModelNew(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(hidden))
        self.bias = nn.Parameter(torch.randn(hidden))

    def forward(self, x):
        return group_norm(x, self.weight, self.bias, eps=1e-5, num_groups=2)
