import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """log(sigmoid(x)), scaled down by a temperature of 4."""

    def forward(self, x):
        return F.logsigmoid(x) / 4.0


rows = 3
cols = 40


def get_inputs():
    return [torch.randn(rows, cols)]


def get_init_inputs():
    return []
