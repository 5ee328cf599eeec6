# The kernel copies all but the last element into torch.empty memory, and the host multiplies the
# result: the matmul reads memory nothing wrote. keq read it as a term id that names no term and
# crashed (a segfault); now that memory is some undefined value, a finding where it reaches the
# output.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, x, w):
        y = torch.empty_like(x)
        copy_kernel[(1,)](x, y, x.numel() - 1, BLOCK=32)
        return y @ w
