import torch.nn as nn
from fla.modules import ShortConvolution


class ModelNew(nn.Module):
    def __init__(self, hidden, kernel):
        super().__init__()
        self.conv = ShortConvolution(hidden, kernel, bias=False, activation="silu")

    def forward(self, x):
        y, _ = self.conv(x)
        return y
