import torch
import torch.nn as nn
import triton
import triton.language as tl


# A local assigned from constexprs without `: tl.constexpr` is a tensor in Triton 3.6, so it
# cannot size an arange (LLMKernel L2 7 writes BLOCK_SIZE_VEC = BLOCK_SIZE_SPATIAL // VEC_SIZE).
@triton.jit
def kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, VEC: tl.constexpr):
    LANES = BLOCK // VEC
    offs = tl.program_id(0) * LANES + tl.arange(0, LANES)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, x, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        kernel[(triton.cdiv(n, 4),)](x, out, n, BLOCK=8, VEC=2)
        return out
