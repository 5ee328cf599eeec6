import torch
import torch.nn as nn
import triton
import triton.language as tl


# silu(x) * y in fp32, rounded once at the store, as agents write it (and as inductor fuses it).
@triton.jit
def swiglu_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    out = x * tl.sigmoid(x) * y
    tl.store(out_ptr + offs, out.to(tl.bfloat16), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        out = torch.empty_like(x)
        n = x.numel()
        swiglu_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
        return out
