import torch
import torch.nn as nn
import triton
import triton.language as tl


# tl.multiple_of hints a block; on a constexpr it does not compile (gpt-5's split-K matmul
# writes tl.multiple_of(BLOCK_K, 8)). Triton's interpreter skips hints, so only compiling shows it.
@triton.jit
def kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, VEC: tl.constexpr):
    tl.multiple_of(BLOCK, 8)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, x, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        kernel[(triton.cdiv(n, 4),)](x, out, n, BLOCK=8, VEC=2)
        return out
