import torch
import torch.nn as nn
import triton
import triton.language as tl


# Triton 3.6 refuses this kernel when it compiles it for sm_90
# (tests/crosscheck/triton_compile_rejects.py).
@triton.jit
def kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, VEC: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + offs, tl.cumsum(x, axis=1), mask=offs < n)

class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        kernel[(triton.cdiv(n, 4),)](x, out, n, BLOCK=8, VEC=2)
        return out
