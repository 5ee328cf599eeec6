import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    def forward(self, x):
        a, b = x.chunk(2, dim=-1)
        return F.silu(a) * b

batch = 4
dim = 64

def get_inputs():
    return [torch.randn(batch, 2 * dim)]

def get_init_inputs():
    return []
