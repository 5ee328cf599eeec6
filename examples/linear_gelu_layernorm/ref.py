import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """A level-2 style pipeline: GEMM, GELU, LayerNorm."""

    def __init__(self, in_features, out_features, eps=1e-5):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features, bias=True)
        self.norm = nn.LayerNorm(out_features, eps=eps)

    def forward(self, x):
        return self.norm(F.gelu(self.fc(x)))


batch_size = 128
in_features = 512
out_features = 1024


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
