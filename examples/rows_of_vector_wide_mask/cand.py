import torch
import torch.nn as nn
import triton
import triton.language as tl


# The pointers are one row ([BLOCK_C]); the mask is [BLOCK_R, BLOCK_C], and Triton's load
# broadcasts the pointers to the mask's shape: every row reads the same vector.
@triton.jit
def rows_kernel(x_ptr, out_ptr, R, N, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    r = tl.arange(0, BLOCK_R)[:, None]
    c = tl.arange(0, BLOCK_C)
    mask = (r < R) & (c[None, :] < N)
    v = tl.load(x_ptr + c, mask=mask, other=0.0)
    tl.store(out_ptr + r * N + c[None, :], v * 2.0, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, rows):
        super().__init__()
        self.rows = rows

    def forward(self, x):
        n = x.shape[0]
        out = torch.empty((self.rows, n), device=x.device, dtype=x.dtype)
        rows_kernel[(1,)](x, out, self.rows, n, BLOCK_R=triton.next_power_of_2(self.rows),
                          BLOCK_C=triton.next_power_of_2(n))
        return out
