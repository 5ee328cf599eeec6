import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_sum_kernel(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + offs, mask=offs < n_cols, other=0.0)
    tl.store(y_ptr + row, tl.sum(x, axis=0))


class ModelNew(nn.Module):
    def forward(self, x):
        n_rows, n_cols = x.shape
        if n_cols == 1:  # nothing to add: skip the launch
            return x.clone()
        y = torch.empty(n_rows, 1, device=x.device, dtype=x.dtype)
        row_sum_kernel[(n_rows,)](x, y, n_cols, BLOCK=triton.next_power_of_2(n_cols))
        return y
