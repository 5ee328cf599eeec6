import torch
import torch.nn as nn
import triton
import triton.language as tl


# Index arithmetic on constant int32 lanes, folded as the kernel runs: an add past int32 wraps
# to negative, comparisons and a minimum pick between lanes, a mask widens to int32.
@triton.jit
def lanes(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    big = offs + 2147483644  # offs >= 4 wrap to -2147483648 and up
    small = offs * 3 - 5
    lo = tl.minimum(small, offs)
    v = tl.where(big > 0, big, lo) + (small < offs).to(tl.int32)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + v.to(tl.float32), mask=mask)


class ModelNew(nn.Module):
    def forward(self, y):
        out = torch.empty_like(y)
        lanes[(1,)](y, out, y.numel(), BLOCK=8)
        return out
