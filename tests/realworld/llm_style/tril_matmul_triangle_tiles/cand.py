import torch
import torch.nn as nn
import triton
import triton.language as tl


# One program per lower-triangular tile (i, j <= i) of square BLOCK tiles, numbered row by row:
# the tile row comes from the program id as floor((sqrt(8 * pid + 1) - 1) / 2), in fp32. At
# every triangular pid that value is exactly an integer; keq takes the chain as the GPU computes
# it (tl.sqrt exact on perfect squares, measured on the H200) and checks the tiles.
@triton.jit
def tril_tiles(a_ptr, b_ptr, c_ptr, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    i = tl.floor((tl.sqrt(8.0 * pid.to(tl.float32) + 1.0) - 1.0) / 2.0).to(tl.int32)
    j = pid - i * (i + 1) // 2
    rows = i * BLOCK + tl.arange(0, BLOCK)
    cols = j * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for k0 in range(0, N, BLOCK):
        ks = k0 + tl.arange(0, BLOCK)
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
        BLOCK = 16
        tiles = triton.cdiv(N, BLOCK)
        tril_tiles[(tiles * (tiles + 1) // 2,)](A.contiguous(), B.contiguous(), C, N, BLOCK=BLOCK)
        return C
