import torch
import torch.nn as nn
import triton
import triton.language as tl


# An int argument past int32 is int64 in Triton: .to(tl.float32) of it must not wrap.
@triton.jit
def add_big(x_ptr, out_ptr, n, big, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + big.to(tl.float32), mask=mask)


class ModelNew(nn.Module):
    def forward(self, y):
        out = torch.empty_like(y)
        n = y.numel()
        add_big[(triton.cdiv(n, 32),)](y, out, n, 2**33, BLOCK=32)
        return out
