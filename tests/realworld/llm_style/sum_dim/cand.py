import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sum_dim1_kernel(x_ptr, out_ptr, D1, D2, stride_b, stride_d1, stride_d2,
                    BLOCK_D1: tl.constexpr, BLOCK_D2: tl.constexpr):
    b = tl.program_id(0)
    pid_n = tl.program_id(1)
    cols = pid_n * BLOCK_D2 + tl.arange(0, BLOCK_D2)
    col_mask = cols < D2
    acc = tl.zeros((BLOCK_D2,), dtype=tl.float32)
    for start in range(0, D1, BLOCK_D1):
        rows = start + tl.arange(0, BLOCK_D1)
        ptrs = x_ptr + b * stride_b + rows[:, None] * stride_d1 + cols[None, :] * stride_d2
        m = (rows[:, None] < D1) & col_mask[None, :]
        tile = tl.load(ptrs, mask=m, other=0.0)
        acc += tl.sum(tile, axis=0)
    tl.store(out_ptr + b * D2 + cols, acc, mask=col_mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert self.dim == 1, "only dim=1 supported"
        B, D1, D2 = x.shape
        out = torch.empty((B, 1, D2), device=x.device, dtype=x.dtype)
        grid = (B, triton.cdiv(D2, 64))
        sum_dim1_kernel[grid](x, out, D1, D2, x.stride(0), x.stride(1), x.stride(2),
                              BLOCK_D1=32, BLOCK_D2=64)
        return out
