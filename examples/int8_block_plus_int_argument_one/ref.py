import torch
import torch.nn as nn


class Model(nn.Module):
    """Shifts int8 codes by one, in int8 (wrapping), then widens them."""

    def __init__(self, zero_point):
        super().__init__()
        self.zero_point = zero_point

    def forward(self, q):
        return (q + self.zero_point).to(torch.int32)


n = 300
zero_point = 1


def get_inputs():
    return [torch.randint(-128, 128, (n,), dtype=torch.int8)]


def get_init_inputs():
    return [zero_point]
