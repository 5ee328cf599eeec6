import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    partial = tl.sum(x, axis=0)
    tl.store(out_ptr, partial)  # every program writes the same element: a race, not a sum


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.zeros(1, device=x.device)
        n = x.numel()
        row_sum_kernel[(triton.cdiv(n, 4),)](x, out, n, BLOCK=4)
        return out


def get_inputs():
    return [torch.randn(10)]


def get_init_inputs():
    return []
