import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def hardtanh_tanh_kernel(x_ptr, out_ptr, n_elements, lo, hi, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    x = tl.minimum(tl.maximum(x, lo), hi)
    # tanh(x) = (e^{2x} - 1) / (e^{2x} + 1); x is in [-1, 1] here, so e^{2x} cannot overflow
    e2x = tl.exp(2.0 * x)
    tl.store(out_ptr + offs, (e2x - 1.0) / (e2x + 1.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
        hardtanh_tanh_kernel[grid](x, out, n, -1.0, 1.0, BLOCK_SIZE=1024)
        return out
