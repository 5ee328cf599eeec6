import torch
import torch.nn as nn
import triton
import triton.language as tl


# Claude's sigmoid_conv2d (TritonBench-T) bounds-checks with `0 <= h < H` in the kernel. Triton's
# code generator refuses a chained comparison wherever it compiles one, so in the branch of a
# dynamic if that this run does not take too.
@triton.jit
def kernel(x_ptr, out_ptr, n, lo, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    if lo > 0:
        if 0 <= lo < n:
            x = x + 1.0
    tl.store(out_ptr + offs, x, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        kernel[(triton.cdiv(n, 8),)](x, out, n, 0, BLOCK=8)
        return out
