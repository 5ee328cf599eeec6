import torch
import torch.nn as nn
import triton
import triton.language as tl

from triton.language.extra import libdevice


@triton.jit
def math_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    bits = x.to(tl.int32, bitcast=True) & 0x7FFFFFFF  # |x| through the sign bit
    y = libdevice.tanh(x) + tl.math.exp(x) + bits.to(tl.float32, bitcast=True) + tl.sqrt_rn(x)
    tl.store(y_ptr + offs, y)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        math_kernel[(1,)](x, y, BLOCK=8)
        return y


def get_inputs():
    return [torch.randn(8)]


def get_init_inputs():
    return []
