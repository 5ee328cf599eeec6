import torch
import torch.nn as nn
import triton
import triton.language as tl


# A weight tile filled element by element (a Qwen3 trace on KernelBook's HighwayLayer): Triton
# stores only into names, so `w[i] = v` in a kernel is its NotImplementedError, whatever `w` is.
@triton.jit
def kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    w = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in range(BLOCK):
        w[i] = tl.load(x_ptr + i)
    tl.store(out_ptr + offs, w, mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        kernel[(triton.cdiv(n, 8),)](x, out, n, BLOCK=8)
        return out
