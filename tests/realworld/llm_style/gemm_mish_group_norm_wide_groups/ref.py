import torch
import torch.nn as nn


class Model(nn.Module):
    """Linear, Hardtanh, Mish, then GroupNorm over groups of 64 channels."""

    def __init__(self, in_features, out_features, num_groups):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.hardtanh = nn.Hardtanh()
        self.mish = nn.Mish()
        self.groupnorm = nn.GroupNorm(num_groups=num_groups, num_channels=out_features)

    def forward(self, x):
        x = self.gemm(x)
        x = self.hardtanh(x)
        x = self.mish(x)
        return self.groupnorm(x)


batch_size = 128
in_features = 512
out_features = 1024
num_groups = 16


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, num_groups]
