import torch
import torch.nn as nn
from fla.modules.norm.layernorm import rms_norm


class ModelNew(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(hidden))

    def forward(self, x):
        return rms_norm(x, self.weight, None, eps=1e-5)
