# Two nn.Module classes and no Model, neither named by the other: keq cannot tell which one
# ModelNew answers (tests/cli_golden.sh: --ref-class says).
import torch
import torch.nn as nn


class Doubler(nn.Module):
    def forward(self, x):
        return x * 2


class Halver(nn.Module):
    def forward(self, x):
        return x / 2


def get_inputs():
    return [torch.rand([4, 4])]


def get_init_inputs():
    return [[], {}]
