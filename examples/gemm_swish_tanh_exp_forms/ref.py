import torch
import torch.nn as nn


class Model(nn.Module):
    """Linear, then swish, halve, clamp to [-1, 1], tanh, clamp again."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features)

    def forward(self, x):
        x = self.gemm(x)
        x = x * torch.sigmoid(x)
        x = x / 2.0
        x = torch.clamp(x, min=-1.0, max=1.0)
        x = torch.tanh(x)
        return torch.clamp(x, min=-1.0, max=1.0)


batch_size = 64
in_features = 256
out_features = 128


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
