import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.negative_slope = negative_slope
        self.act = nn.Hardswish()

    def forward(self, x):
        x = F.leaky_relu(x, negative_slope=self.negative_slope)
        x = torch.sigmoid(x) * torch.tanh(x) + F.silu(x)
        x = F.softplus(x) - F.mish(x) + F.elu(x, alpha=1.0)
        return self.act(F.hardtanh(x, min_val=-2.0, max_val=2.0))


batch_size = 16
dim = 16384


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
