import torch
import torch.nn as nn
from liger_kernel.ops.layer_norm import LigerLayerNormFunction

class ModelNew(nn.Module):
    def __init__(self, hidden, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(hidden))
        self.bias = nn.Parameter(torch.randn(hidden))
        self.eps = eps

    def forward(self, x):
        return LigerLayerNormFunction.apply(x, self.weight, self.bias, self.eps)
