import torch
import torch.nn as nn
import triton
import triton.language as tl


# Mish twice, each as overflow-safe pieces: softplus(z) = log(1 + exp(-|z|)) + max(z, 0), and
# tanh(sp) = 2 * sigmoid(2 sp) - 1 with the sigmoid picked by the sign of its argument.
@triton.jit
def mish(z):
    sp = tl.log(1.0 + tl.exp(-tl.abs(z))) + tl.maximum(z, 0.0)
    u = 2.0 * sp
    e = tl.exp(-tl.abs(u))
    sig = tl.where(u >= 0, 1.0 / (1.0 + e), e / (1.0 + e))
    return z * (2.0 * sig - 1.0)


@triton.jit
def mish_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    z = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.store(y_ptr + offs, mish(mish(z)), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        mish_kernel[(triton.cdiv(n, 128),)](x, y, n, BLOCK=128)
        return y


n = 300


def get_inputs():
    return [torch.randn(n)]


def get_init_inputs():
    return []
