import torch.nn as nn
from mamba_ssm.ops.triton.layer_norm import RMSNorm


class ModelNew(nn.Module):
    def __init__(self, hidden, eps=1e-5):
        super().__init__()
        self.norm = RMSNorm(hidden, eps=eps)

    def forward(self, x, residual):
        return self.norm(x, residual=residual, prenorm=True, residual_in_fp32=True)
