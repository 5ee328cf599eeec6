import torch.nn as nn
from mamba_ssm.ops.triton.layernorm_gated import LayerNorm


class ModelNew(nn.Module):
    def __init__(self, hidden, eps=1e-5):
        super().__init__()
        self.norm = LayerNorm(hidden, eps=eps, norm_before_gate=True)

    def forward(self, x, z):
        return self.norm(x, z)
