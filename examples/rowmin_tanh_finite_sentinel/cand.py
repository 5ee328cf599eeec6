import torch
import torch.nn as nn
import triton
import triton.language as tl


# The row minimum from a running value of 1e30, masked lanes loaded as 1e30: equal to torch's
# only while some value is below 1e30; past it, tanh makes the difference smaller than any float.
@triton.jit
def rowmin_tanh_kernel(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    running = tl.full((BLOCK,), 1e30, dtype=tl.float32)
    offs = tl.arange(0, BLOCK)
    v = tl.load(x_ptr + row * n_cols + offs, mask=offs < n_cols, other=1e30)
    m = tl.min(tl.minimum(running, v), axis=0)
    e = tl.exp(2.0 * m)
    tl.store(y_ptr + row, (e - 1.0) / (e + 1.0))


class ModelNew(nn.Module):
    def forward(self, x):
        rows, cols = x.shape
        y = torch.empty(rows, device=x.device, dtype=x.dtype)
        rowmin_tanh_kernel[(rows,)](x, y, cols, BLOCK=triton.next_power_of_2(cols))
        return y


batch_size = 4
dim = 6


def get_inputs():
    return [torch.randn(batch_size, dim)]
