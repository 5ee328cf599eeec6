import torch
import torch.nn as nn
from liger_kernel.ops.poly_norm import LigerPolyNormFunction

class ModelNew(nn.Module):
    def __init__(self, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.full((3,), 1.0 / 3.0))
        self.bias = nn.Parameter(torch.tensor(1.0))
        self.eps = eps

    def forward(self, x):
        return LigerPolyNormFunction.apply(x, self.weight, self.bias, self.eps)
