import torch
import torch.nn as nn

batch_size = 4
hidden = 64

class Model(nn.Module):
    """Dynamic Tanh (DyT): gamma * tanh(alpha * x) + beta, a normalization-free LayerNorm."""
    def __init__(self, hidden, init_alpha=0.5):
        super().__init__()
        self.alpha = nn.Parameter(torch.ones(1) * init_alpha)
        self.gamma = nn.Parameter(torch.ones(hidden))
        self.beta = nn.Parameter(torch.zeros(hidden))

    def forward(self, x):
        return self.gamma * torch.tanh(self.alpha * x) + self.beta

def get_inputs():
    return [torch.randn(batch_size, hidden)]

def get_init_inputs():
    return [hidden]
