import torch
import torch.nn as nn
import triton
import triton.language as tl


# The same triangular numbering of tiles (i, j <= i), but with tiles of BLOCK_M rows by BLOCK_N
# columns (32 x 16): a row tile's columns reach tile 2i + 1, and j stops at i, so the tiles past
# it are never computed (KernelBench level-1 #15's LLM-written kernel has this in one of its
# autotune configs; the H200 confirmed it).
@triton.jit
def tril_tiles(a_ptr, b_ptr, c_ptr, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
               BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    i = tl.floor((tl.sqrt(8.0 * pid.to(tl.float32) + 1.0) - 1.0) / 2.0).to(tl.int32)
    j = pid - i * (i + 1) // 2
    rows = i * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = j * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, N, BLOCK_K):
        ks = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rows[:, None] * N + ks[None, :],
                    mask=(rows[:, None] < N) & (ks[None, :] < N), other=0.0)
        b = tl.load(b_ptr + ks[:, None] * N + cols[None, :],
                    mask=(ks[:, None] < N) & (cols[None, :] < N), other=0.0)
        acc += tl.dot(a, b, input_precision="ieee")
    keep = (rows[:, None] < N) & (cols[None, :] < N) & (rows[:, None] >= cols[None, :])
    tl.store(c_ptr + rows[:, None] * N + cols[None, :], acc, mask=keep)


class ModelNew(nn.Module):
    def forward(self, A, B):
        assert A.is_cuda and A.shape == B.shape
        N = A.shape[0]
        C = torch.zeros_like(A)
        tiles = triton.cdiv(N, 32)
        tril_tiles[(tiles * (tiles + 1) // 2,)](A.contiguous(), B.contiguous(), C, N,
                                                 BLOCK_M=32, BLOCK_N=16, BLOCK_K=16)
        return C
