import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_scale_kernel(a_ptr, b_ptr, c_ptr, N, M, stride_bn, stride_cn,
                     BLOCK_N: tl.constexpr, BLOCK_M: tl.constexpr):
    pid_n = tl.program_id(0)
    pid_m = tl.program_id(1)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    a = tl.load(a_ptr + rn, mask=rn < N, other=0.0)
    mask = (rn[:, None] < N) & (rm[None, :] < M)
    b = tl.load(b_ptr + rn[:, None] * stride_bn + rm[None, :], mask=mask, other=0.0)
    tl.store(c_ptr + rn[:, None] * stride_cn + rm[None, :], a[:, None] * b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A, B):
        # diag(A) @ B scales row i of B by A[i]: no N x N matrix needed
        N, M = B.shape
        B = B.contiguous()
        C = torch.empty((N, M), device=B.device, dtype=B.dtype)
        grid = lambda meta: (triton.cdiv(N, meta["BLOCK_N"]), triton.cdiv(M, meta["BLOCK_M"]))
        row_scale_kernel[grid](A, B, C, N, M, B.stride(0), C.stride(0), BLOCK_N=32, BLOCK_M=128)
        return C
