import torch
import torch.nn as nn
import triton
import triton.language as tl


# gpt-4o's div kernel (TritonBench-T): `mode` is a runtime int, so Triton compiles every branch
# of the if, and triton.language has no trunc. keq runs the branch `mode` takes; the branches it
# does not run are compiled all the same, and their names checked.
@triton.jit
def kernel(x_ptr, out_ptr, n, mode, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    if mode == 0:
        pass
    elif mode == 1:
        x = tl.floor(x)
    elif mode == 3:
        x = tl.trunc(x)
    tl.store(out_ptr + offs, x, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        kernel[(triton.cdiv(n, 8),)](x, out, n, 0, BLOCK=8)
        return out
