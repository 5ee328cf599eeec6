# A reference in KernelBook's form: the class is named for what it does (no Model), the sizes are
# literals in get_inputs(), and get_init_inputs() returns [args, kwargs]. keq compares it with the
# candidate, whose class ignores the pad_idx it is built with.
import torch
import torch.nn as nn


class PadMaskScale(nn.Module):
    def __init__(self, pad_idx=0, scale=2.0):
        super().__init__()
        self.pad_idx = pad_idx
        self.scale = scale

    def forward(self, x):
        return torch.ne(x, self.pad_idx).float() * self.scale + torch.relu(x)


def get_inputs():
    return [torch.randint(0, 3, [4, 4, 8]).float()]


def get_init_inputs():
    return [[], {'pad_idx': 1, 'scale': 3.0}]
