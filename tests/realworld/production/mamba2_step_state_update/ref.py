import torch
import torch.nn as nn
import torch.nn.functional as F

batch, nheads, headdim, dstate, ngroups = 2, 4, 4, 8, 2


class Model(nn.Module):
    """Mamba2's decoding step for the SSM state: one scalar decay A and one dt per head,
    dt = softplus(dt + dt_bias), state <- state * exp(A dt) + dt x B^T, y = state C + D x,
    with B and C shared by nheads // ngroups heads. Returns y and the updated state."""

    def __init__(self, nheads, headdim, dstate, ngroups):
        super().__init__()
        self.sizes = (nheads, headdim, dstate, ngroups)
        self.A_log = nn.Parameter(torch.randn(nheads))
        self.D = nn.Parameter(torch.randn(nheads))
        self.dt_bias = nn.Parameter(torch.randn(nheads))

    def forward(self, ssm_state, x, dt, B, C):
        nheads, headdim, dstate, ngroups = self.sizes
        batch = x.shape[0]
        A = -torch.exp(self.A_log.float())
        dt = F.softplus(dt + self.dt_bias)  # (batch, nheads)
        dA = torch.exp(dt * A)
        x = x.view(batch, nheads, headdim)
        Bh = B.view(batch, ngroups, dstate).repeat_interleave(nheads // ngroups, dim=1)
        Ch = C.view(batch, ngroups, dstate).repeat_interleave(nheads // ngroups, dim=1)
        dBx = (dt[:, :, None] * x)[..., None] * Bh[:, :, None, :]
        new_state = ssm_state * dA[:, :, None, None] + dBx
        y = (new_state * Ch[:, :, None, :]).sum(-1) + self.D[None, :, None] * x
        return y.reshape(batch, nheads * headdim), new_state


def get_inputs():
    return [torch.randn(batch, nheads, headdim, dstate), torch.randn(batch, nheads * headdim),
            torch.randn(batch, nheads), torch.randn(batch, ngroups * dstate),
            torch.randn(batch, ngroups * dstate)]


def get_init_inputs():
    return [nheads, headdim, dstate, ngroups]
