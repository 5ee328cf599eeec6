import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sumsq_kernel(x_ptr, acc_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(acc_ptr, tl.sum(x * x, axis=0))


@triton.jit
def scale_kernel(x_ptr, acc_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    inv = 1.0 / tl.sqrt(tl.load(acc_ptr))
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, x * inv, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        xf = x.contiguous().view(-1)
        n = xf.numel()
        acc = torch.zeros(1, device=x.device, dtype=torch.float32)
        y = torch.empty_like(xf)
        BLOCK = 4096
        grid = (triton.cdiv(n, BLOCK),)
        sumsq_kernel[grid](xf, acc, n, BLOCK=BLOCK)
        scale_kernel[grid](xf, acc, y, n, BLOCK=BLOCK)
        return y.view_as(x)
