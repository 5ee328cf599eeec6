import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, A, B):
        return A @ B

M = 512
K = 256
N = 512

def get_inputs():
    return [torch.randn(M, K), torch.randn(K, N)]

def get_init_inputs():
    return []
