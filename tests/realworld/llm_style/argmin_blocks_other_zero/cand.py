# A running argmin whose masked lanes load 0.0 instead of +inf: no input of torch.rand's [0, 1) is
# below it, so a lane past the end of the row can win its block, and its index is returned.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_K": 32, "BLOCK_N": 32}, num_warps=4),
        triton.Config({"BLOCK_K": 64, "BLOCK_N": 64}, num_warps=8),
    ],
    key=["K", "N"],
)
@triton.jit
def argmin_dim1_kernel(x_ptr, out_ptr, K, N, stride_b, stride_k,
                       BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_n = tl.program_id(0)
    pid_b = tl.program_id(1).to(tl.int64)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask_n = offs_n < N
    best_val = tl.full((BLOCK_N,), float("inf"), tl.float32)
    best_idx = tl.zeros((BLOCK_N,), dtype=tl.int32)
    for k0 in range(0, K, BLOCK_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        ptrs = x_ptr + pid_b * stride_b + offs_k[:, None] * stride_k + offs_n[None, :]
        vals = tl.load(ptrs, mask=(offs_k[:, None] < K) & mask_n[None, :], other=0.0)
        block_min = tl.min(vals, axis=0)
        block_arg = tl.argmin(vals, axis=0) + k0
        better = block_min < best_val
        best_val = tl.where(better, block_min, best_val)
        best_idx = tl.where(better, block_arg, best_idx)
    tl.store(out_ptr + pid_b * N + offs_n, best_idx.to(tl.int64), mask=mask_n)


def triton_argmin_dim1(x):
    assert x.is_cuda and x.dim() == 3
    x = x.contiguous()
    B, K, N = x.shape
    out = torch.empty((B, N), dtype=torch.int64, device=x.device)
    grid = lambda meta: (triton.cdiv(N, meta["BLOCK_N"]), B)
    argmin_dim1_kernel[grid](x, out, K, N, x.stride(0), x.stride(1))
    return out


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        if self.dim != 1:
            return torch.argmin(x, dim=self.dim)
        return triton_argmin_dim1(x)
