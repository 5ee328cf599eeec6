import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def min_sub_kernel(x_ptr, y_ptr, n, c: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.minimum(x, c) - c, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, constant):
        super().__init__()
        self.constant = nn.Parameter(torch.tensor(constant))

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        # The trained constant read on the host and baked into the kernel as a tl.constexpr.
        min_sub_kernel[(triton.cdiv(n, 64),)](x, y, n, self.constant.item(), BLOCK=64)
        return y


batch_size = 4
features = 16
constant = 2.0


def get_inputs():
    return [torch.randn(batch_size, features)]


def get_init_inputs():
    return [constant]
