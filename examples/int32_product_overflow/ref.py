# An int32 product: torch wraps it at 2^31 before the cast to float.
import torch
import torch.nn as nn

n = 8


class Model(nn.Module):
    def forward(self, x):
        return (x * 1000000000).float()


def get_inputs():
    return [torch.randint(0, 10, (n,), dtype=torch.int32)]


def get_init_inputs():
    return []
