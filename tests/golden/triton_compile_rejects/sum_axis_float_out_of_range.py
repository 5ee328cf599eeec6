import torch
import torch.nn as nn
import triton
import triton.language as tl


# A float axis past the block's rank: _wrap_axis compares it as it is and raises before the IR
# builder sees it.
@triton.jit
def kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    y = tl.sum(x, 2.0)
    tl.store(out_ptr + offs, tl.sqrt(y), mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        kernel[(triton.cdiv(n, 8),)](x, out, n, BLOCK=8)
        return out
