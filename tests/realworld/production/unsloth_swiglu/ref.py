import torch
import torch.nn as nn
import torch.nn.functional as F

batch, seq_len, hidden = 2, 3, 64


class Model(nn.Module):
    """SwiGLU's gate: silu(e) computed in fp32 and rounded to g's dtype, times g."""

    def forward(self, e, g):
        return F.silu(e.float()).to(g.dtype) * g


def get_inputs():
    return [torch.randn(batch, seq_len, hidden, dtype=torch.bfloat16),
            torch.randn(batch, seq_len, hidden, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
