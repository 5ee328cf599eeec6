import torch
import torch.nn as nn
import torch.nn.functional as F

batch, nheads, dim, dstate, ngroups = 2, 4, 4, 8, 2


class Model(nn.Module):
    """One recurrent step of a selective state space model (Mamba's decoding step):
    dt = softplus(dt + dt_bias); state <- state * exp(A dt) + dt B x; out = (state . C) + D x,
    gated by silu(z). B and C are shared by nheads // ngroups heads. Returns the output and the
    updated state."""

    def forward(self, state, x, dt, A, B, C, D, z, dt_bias):
        dt = F.softplus(dt + dt_bias)
        dA = torch.exp(A * dt.unsqueeze(-1))
        heads_per_group = nheads // ngroups
        Bh = B.repeat_interleave(heads_per_group, dim=1)
        Ch = C.repeat_interleave(heads_per_group, dim=1)
        dBx = (dt * x).unsqueeze(-1) * Bh.unsqueeze(2)
        new_state = state * dA + dBx
        out = (new_state * Ch.unsqueeze(2)).sum(-1) + x * D
        return out * F.silu(z), new_state


def get_inputs():
    return [torch.randn(batch, nheads, dim, dstate), torch.randn(batch, nheads, dim),
            torch.randn(batch, nheads, dim), -torch.rand(nheads, dim, dstate),
            torch.randn(batch, ngroups, dstate), torch.randn(batch, ngroups, dstate),
            torch.randn(nheads, dim), torch.randn(batch, nheads, dim), torch.randn(nheads, dim)]


def get_init_inputs():
    return []
