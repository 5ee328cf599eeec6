import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x) * 2

batch_size = 16
dim = 4096

def get_inputs():
    return [torch.randn(batch_size, dim, dtype=torch.float16)]

def get_init_inputs():
    return []
