import torch
import torch.nn as nn
from xformers.ops.rmsnorm import rms_norm_add


class ModelNew(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(dim))
        self.eps = eps

    def forward(self, x, y):
        return rms_norm_add(x, y, self.weight, self.eps), x
