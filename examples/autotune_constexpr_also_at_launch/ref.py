import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)


batch_size = 2
dim = 10


def get_inputs():
    return [torch.randn(batch_size, dim)]
