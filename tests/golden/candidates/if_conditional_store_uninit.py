import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def keep_positive_rows(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n + offs, mask=offs < n, other=0.0)
    if tl.sum(x, axis=0) > 0:
        tl.store(y_ptr + row * n + offs, x, mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        keep_positive_rows[(x.shape[0],)](x, y, x.shape[1], BLOCK=4)
        return y


def get_inputs():
    return [torch.randn(2, 3)]


def get_init_inputs():
    return []
