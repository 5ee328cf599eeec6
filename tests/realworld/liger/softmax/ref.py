import torch
import torch.nn as nn

batch_size = 4
dim = 64

class Model(nn.Module):
    """Softmax over the last dimension."""
    def forward(self, x):
        return torch.softmax(x, dim=-1)

def get_inputs():
    return [torch.randn(batch_size, dim)]

def get_init_inputs():
    return []
