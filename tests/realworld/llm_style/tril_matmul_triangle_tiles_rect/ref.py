import torch
import torch.nn as nn


class Model(nn.Module):
    """C = tril(A @ B) for lower-triangular A and B (KernelBench level 1 #15's problem)."""

    def forward(self, A, B):
        return torch.tril(torch.matmul(A, B))


M = 1024


def get_inputs():
    return [torch.tril(torch.rand(M, M)), torch.tril(torch.rand(M, M))]
