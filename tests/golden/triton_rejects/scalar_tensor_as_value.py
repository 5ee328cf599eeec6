import torch
import torch.nn as nn
import triton
import triton.language as tl


# A 0-d tensor passed for a scalar arrives as a pointer: x - shift does not compile.
@triton.jit
def kernel(x_ptr, out_ptr, shift, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, x - shift, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        shift = torch.tensor(0.5, dtype=x.dtype, device=x.device)
        kernel[(triton.cdiv(n, 8),)](x, out, shift, n, BLOCK=8)
        return out
