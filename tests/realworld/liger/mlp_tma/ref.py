import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """A LLaMA MLP: down(silu(x @ gate^T) * (x @ up^T)), as LigerMLPFunction computes it."""

    def __init__(self, dim, hidden_dim):
        super().__init__()
        self.gate_proj = nn.Linear(dim, hidden_dim, bias=False)
        self.up_proj = nn.Linear(dim, hidden_dim, bias=False)
        self.down_proj = nn.Linear(hidden_dim, dim, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


batch = 2
seq = 64
dim = 128
hidden_dim = 256


def get_inputs():
    return [torch.randn(batch, seq, dim)]


def get_init_inputs():
    return [dim, hidden_dim]
