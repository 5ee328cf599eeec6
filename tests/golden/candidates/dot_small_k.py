import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def square_kernel(x_ptr, y_ptr, N: tl.constexpr):
    r = tl.arange(0, N)
    x = tl.load(x_ptr + r[:, None] * N + r[None, :])
    y = tl.dot(x, tl.trans(x))
    tl.store(y_ptr + r[:, None] * N + r[None, :], y)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        square_kernel[(1,)](x, y, N=8)
        return y


def get_inputs():
    return [torch.randn(16, 16)]


def get_init_inputs():
    return []
