import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def diag_scale_kernel(a_ptr, b_ptr, c_ptr, n, m, BLOCK_N: tl.constexpr, BLOCK_M: tl.constexpr,
                      VEC: tl.constexpr):
    pid_n = tl.program_id(0)
    pid_m = tl.program_id(1)
    rows = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    row_ok = rows < n
    a = tl.load(a_ptr + rows, mask=row_ok, other=0.0)
    cols = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    # "vectorize" the columns in chunks of VEC: Triton blocks cannot be sliced, so this file
    # does not compile, however its numbers would come out
    for v in range(0, BLOCK_M, VEC):
        chunk = cols[v:v + VEC]
        mask = row_ok[:, None] & (chunk[None, :] < m)
        b = tl.load(b_ptr + rows[:, None] * m + chunk[None, :], mask=mask, other=0.0)
        tl.store(c_ptr + rows[:, None] * m + chunk[None, :], a[:, None] * b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A, B):
        N, M = B.shape
        C = torch.empty_like(B)
        grid = (triton.cdiv(N, 64), triton.cdiv(M, 64))
        diag_scale_kernel[grid](A, B, C, N, M, BLOCK_N=64, BLOCK_M=64, VEC=4)
        return C
