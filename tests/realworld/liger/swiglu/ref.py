import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 4
hidden = 64

class Model(nn.Module):
    """SwiGLU's elementwise part: silu(a) * b (LLaMA's MLP)."""
    def forward(self, a, b):
        return F.silu(a) * b

def get_inputs():
    return [torch.randn(batch_size, hidden), torch.randn(batch_size, hidden)]

def get_init_inputs():
    return []
