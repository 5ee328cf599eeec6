import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)

n = 37

def get_inputs():
    return [torch.randn(n)]

def get_init_inputs():
    return []
