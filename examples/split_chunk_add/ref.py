import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        a, b = torch.chunk(x, 2, dim=1)
        c, d, e = x.split([1, 2, x.shape[1] - 3], dim=1)
        return torch.stack([a + b, torch.cat([c, d, e], dim=1)[:, : a.shape[1]]], dim=0)


batch_size = 4
dim = 64


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
