import torch
import torch.nn as nn
import triton
import triton.language as tl


# gpt-4o's relu_sqrt (TritonBench-T) writes tl.max(x, 0.0) for tl.maximum(x, 0.0): the 0.0 is
# the reduction's axis, which Triton passes on to the IR builder, whose reduce() takes an int.
@triton.jit
def kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    y = tl.max(x, 0.0)
    tl.store(out_ptr + offs, tl.sqrt(y), mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        kernel[(triton.cdiv(n, 8),)](x, out, n, BLOCK=8)
        return out
