import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, x):
        xt = x.unsqueeze(0).expand(2, 2, 3)
        y = torch.empty((3, 2), device=x.device)
        copy_kernel[(1,)](xt, y, 6, BLOCK=8)
        return y


def get_inputs():
    return [torch.randn(2, 3)]


def get_init_inputs():
    return []
