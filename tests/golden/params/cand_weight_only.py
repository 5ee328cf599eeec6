import torch
import torch.nn as nn


# The reference's Linear has a bias and a LayerNorm follows; this candidate creates the weight
# alone. The reference's three other parameters take values of their own.
class ModelNew(nn.Module):
    def __init__(self, n, m):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(m, n))

    def forward(self, x):
        return torch.nn.functional.layer_norm(x @ self.weight.t(), (self.weight.shape[0],))


def get_inputs():
    return [torch.randn(2, 3)]


def get_init_inputs():
    return [3, 4]
