import torch
import torch.nn as nn


class Model(nn.Module):
    """W8A8 block-scaled matmul: A (M, K) in fp8 with one scale per row and K-block, B (N, K) in
    fp8 with one scale per (N-block, K-block); C = dequant(A) @ dequant(B)^T in fp16."""

    def __init__(self, block_n, block_k):
        super().__init__()
        self.block_n = block_n
        self.block_k = block_k

    def forward(self, A, B, As, Bs):
        M, K = A.shape
        N = B.shape[0]
        a_scale = torch.repeat_interleave(As, self.block_k, dim=1)[:, :K]
        b_scale = torch.repeat_interleave(Bs, self.block_n, dim=0)
        b_scale = torch.repeat_interleave(b_scale, self.block_k, dim=1)[:N, :K]
        a = A.float() * a_scale
        b = B.float() * b_scale
        return (a @ b.T).to(torch.float16)


M = 4
N = 48
K = 80
block_n = 16
block_k = 32


def get_inputs():
    A = torch.randn(M, K).to(torch.float8_e4m3fn)
    B = torch.randn(N, K).to(torch.float8_e4m3fn)
    As = torch.rand(M, (K + block_k - 1) // block_k) + 0.01
    Bs = torch.rand((N + block_n - 1) // block_n, (K + block_k - 1) // block_k) + 0.01
    return [A, B, As, Bs]


def get_init_inputs():
    return [block_n, block_k]
