# Row maximum and its index in one pass: tl.max(..., return_indices=True), the masked lanes
# loaded as -inf so they never win (a tie with -inf inputs still takes the first index).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_max_kernel(x_ptr, v_ptr, i_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=float("-inf"))
    v, i = tl.max(x, axis=0, return_indices=True)
    tl.store(v_ptr + row, v)
    tl.store(i_ptr + row, i.to(tl.int64))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        values = torch.empty(rows, device=x.device, dtype=x.dtype)
        indices = torch.empty(rows, device=x.device, dtype=torch.int64)
        row_max_kernel[(rows,)](x, values, indices, cols, BLOCK=triton.next_power_of_2(cols))
        return values, indices


batch = 4
dim = 100


def get_inputs():
    return [torch.randn(batch, dim)]


def get_init_inputs():
    return []
