import torch
import torch.nn as nn
import triton
import triton.language as tl


# Assigning to an attribute in a kernel is Triton's NotImplementedError too.
@triton.jit
def kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    x.scale = 2.0
    tl.store(out_ptr + offs, x, mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        kernel[(triton.cdiv(n, 8),)](x, out, n, BLOCK=8)
        return out
