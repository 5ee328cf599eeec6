import math

import torch
import torch.nn as nn


# The way LLM-written modules copy nn.Conv2d's own initialization: a plain tensor, an
# initializer on it, then nn.Parameter around it; the bias drawn with Tensor.uniform_.
class Model(nn.Module):
    def __init__(self, n):
        super().__init__()
        weight = torch.empty(n, 2)
        nn.init.kaiming_uniform_(weight, a=math.sqrt(5))
        self.weight = nn.Parameter(weight)
        bound = 1 / math.sqrt(2)
        self.bias = nn.Parameter(torch.empty(n).uniform_(-bound, bound))

    def forward(self, x):
        return x @ self.weight.t() + self.bias


def get_inputs():
    return [torch.randn(1, 2)]


def get_init_inputs():
    return [3]
