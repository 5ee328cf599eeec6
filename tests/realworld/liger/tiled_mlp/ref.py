import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 2
seq_len = 8
hidden = 4
intermediate = 8

class Model(nn.Module):
    """A SwiGLU MLP (down(silu(gate(x)) * up(x))) over the whole sequence at once."""
    def __init__(self, hidden, intermediate):
        super().__init__()
        self.gate_proj = nn.Linear(hidden, intermediate, bias=False)
        self.up_proj = nn.Linear(hidden, intermediate, bias=False)
        self.down_proj = nn.Linear(intermediate, hidden, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))

def get_inputs():
    return [torch.randn(batch_size, seq_len, hidden)]

def get_init_inputs():
    return [hidden, intermediate]
