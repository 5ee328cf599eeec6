import torch
import torch.nn as nn
import triton
import triton.language as tl


# Even a plain copy of a constexpr is a tensor once assigned: it cannot shape a block.
@triton.jit
def kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, VEC: tl.constexpr):
    B = BLOCK
    acc = tl.zeros((B,), dtype=tl.float32)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, x + acc, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        kernel[(triton.cdiv(n, 8),)](x, out, n, BLOCK=8, VEC=2)
        return out
