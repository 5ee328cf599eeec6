import torch
import torch.nn as nn
import triton
import triton.language as tl


# hardswish(x) alone: the product with x is missing. At x = 1 (hardswish(1) = 2/3) the two
# agree but for 1/6 rounded to float32, so the first point a search meets shows a difference of
# 2e-8; keq's counterexample shows the plain one.
@triton.jit
def hardswish_product_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    relu6 = tl.minimum(tl.maximum(x + 3.0, 0.0), 6.0)
    tl.store(out_ptr + offs, x * (relu6 * 0.16666667), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        hardswish_product_kernel[(triton.cdiv(n, 256),)](x, out, n, BLOCK=256)
        return out


batch_size = 2
dim = 8


def get_inputs():
    return [torch.rand(batch_size, dim)]


def get_init_inputs():
    return []
