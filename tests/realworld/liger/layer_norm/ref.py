import torch
import torch.nn as nn

batch_size = 4
hidden = 64

class Model(nn.Module):
    """LayerNorm over the last dimension with an affine weight and bias."""
    def __init__(self, hidden, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(hidden))
        self.bias = nn.Parameter(torch.randn(hidden))
        self.eps = eps
        self.hidden = hidden

    def forward(self, x):
        return torch.nn.functional.layer_norm(x, (self.hidden,), self.weight, self.bias, self.eps)

def get_inputs():
    return [torch.randn(batch_size, hidden)]

def get_init_inputs():
    return [hidden]
