import torch
import torch.nn as nn
import triton
import triton.language as tl


# Triton makes a Python number a constant with scalar_constant, which gives any zero the null
# value: each -0.0 below is +0 on the H200 (tests/fixtures/gpu/negative_zero_constants.txt).
# `neg` is a runtime float argument, whose sign the kernel keeps.
@triton.jit
def k(X, Y, neg):
    offs = tl.arange(0, 4)
    x = tl.load(X + offs, mask=offs < 1, other=-0.0)
    tl.store(Y + offs, x)
    tl.store(Y + 4 + offs, tl.full((4,), -0.0, tl.float32))
    tl.store(Y + 8 + offs, tl.where(offs < 1, x, -0.0))
    tl.store(Y + 12 + offs, tl.full((4,), neg, tl.float32))


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty(16, device=x.device)
        k[(1,)](x, y, -0.0)
        return y


def get_inputs():
    return [torch.randn(4)]


def get_init_inputs():
    return []
