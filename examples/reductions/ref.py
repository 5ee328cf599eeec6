import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        s = torch.sum(x, dim=self.dim, keepdim=True)
        m = x.mean(dim=self.dim, keepdim=True)
        mx = torch.amax(x, dim=self.dim, keepdim=True)
        v = x.var(dim=self.dim, unbiased=False, keepdim=True)
        return s + m - mx + v


batch_size = 4
dim1 = 64
dim2 = 32
reduce_dim = 1


def get_inputs():
    return [torch.randn(batch_size, dim1, dim2)]


def get_init_inputs():
    return [reduce_dim]
