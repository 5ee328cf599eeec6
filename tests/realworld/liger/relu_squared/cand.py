import torch
import torch.nn as nn
from liger_kernel.ops.relu_squared import LigerReLUSquaredFunction

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return LigerReLUSquaredFunction.apply(x)
