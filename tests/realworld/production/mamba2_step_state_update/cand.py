import torch
import torch.nn as nn
from einops import rearrange, repeat
from mamba_ssm.ops.triton.selective_state_update import selective_state_update

class ModelNew(nn.Module):
    """The SSM update as Mamba2.step calls it (mamba_ssm/modules/mamba2.py): per-head A, dt,
    dt_bias and D broadcast over the head dimension and the state (stride 0)."""

    def __init__(self, nheads, headdim, dstate, ngroups):
        super().__init__()
        self.headdim, self.dstate, self.ngroups = headdim, dstate, ngroups
        self.A_log = nn.Parameter(torch.randn(nheads))
        self.D = nn.Parameter(torch.randn(nheads))
        self.dt_bias = nn.Parameter(torch.randn(nheads))

    def forward(self, ssm_state, x, dt, B, C):
        headdim, dstate, ngroups = self.headdim, self.dstate, self.ngroups
        A = -torch.exp(self.A_log.float())
        A = repeat(A, "h -> h p n", p=headdim, n=dstate).to(dtype=torch.float32)
        dt = repeat(dt, "b h -> b h p", p=headdim)
        dt_bias = repeat(self.dt_bias, "h -> h p", p=headdim)
        D = repeat(self.D, "h -> h p", p=headdim)
        B = rearrange(B, "b (g n) -> b g n", g=ngroups)
        C = rearrange(C, "b (g n) -> b g n", g=ngroups)
        x_reshaped = rearrange(x, "b (h p) -> b h p", p=headdim)
        y = selective_state_update(ssm_state, x_reshaped, dt, A, B, C, D, z=None,
                                   dt_bias=dt_bias, dt_softplus=True)
        return rearrange(y, "b h p -> b (h p)"), ssm_state
