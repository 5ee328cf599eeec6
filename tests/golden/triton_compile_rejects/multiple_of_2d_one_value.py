import torch
import torch.nn as nn
import triton
import triton.language as tl


# tl.multiple_of takes one value per dimension of a block: a 2-D block with one value does not
# compile (gpt-5's streaming matmul hints its [BLOCK_M, MICRO_K] pointers with 16).
@triton.jit
def kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, VEC: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.multiple_of(x_ptr + offs[:, None] * VEC, 16)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, x, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        kernel[(triton.cdiv(n, 4),)](x, out, n, BLOCK=8, VEC=2)
        return out
