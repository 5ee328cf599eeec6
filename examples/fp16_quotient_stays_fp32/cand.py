import torch
import torch.nn as nn
import triton
import triton.language as tl


# x / 3.0 of an fp16 block is an fp32 block in Triton (computation_type_impl: / and % of halves
# compute in fp32, and the result keeps that type), so the product with y is fp32 too. keq kept
# the quotient fp16, rounded it, and reported a false counterexample (1 / 3 * 224: 74.625 against
# 74.667).
@triton.jit
def scale_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x / 3.0 * y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        out = torch.empty(x.shape, device=x.device, dtype=torch.float32)
        n = x.numel()
        scale_kernel[(triton.cdiv(n, 128),)](x, y, out, n, BLOCK=128)
        return out
