import torch
import torch.nn as nn
from mamba_ssm.ops.triton.layer_norm import layer_norm_fn


class ModelNew(nn.Module):
    def __init__(self, hidden, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(hidden))
        self.bias = nn.Parameter(torch.randn(hidden))
        self.eps = eps

    def forward(self, x):
        return layer_norm_fn(x, self.weight, self.bias, eps=self.eps)
