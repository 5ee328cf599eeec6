import torch
import torch.nn as nn
from liger_kernel.ops.dyt import LigerDyTFunction

class ModelNew(nn.Module):
    def __init__(self, hidden, init_alpha=0.5):
        super().__init__()
        self.alpha = nn.Parameter(torch.ones(1) * init_alpha)
        self.gamma = nn.Parameter(torch.ones(hidden))
        self.beta = nn.Parameter(torch.zeros(hidden))

    def forward(self, x):
        return LigerDyTFunction.apply(x, self.alpha, self.gamma, self.beta)
