import torch
import torch.nn as nn
class Model(nn.Module):
    def forward(self, x, y):
        return (x.sum(dim=1, keepdim=True) * y.sum(dim=1, keepdim=True))
batch = 1
n = 50
def get_inputs():
    return [torch.randn(batch, n), torch.randn(batch, n)]
def get_init_inputs():
    return []
