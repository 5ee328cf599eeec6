import torch.nn as nn
from mamba_ssm.ops.triton.layernorm_gated import RMSNorm


class ModelNew(nn.Module):
    def __init__(self, d_ssm, ngroups, eps=1e-5):
        super().__init__()
        self.norm = RMSNorm(d_ssm, eps=eps, group_size=d_ssm // ngroups, norm_before_gate=False)

    def forward(self, x, z):
        return self.norm(x, z)
