import torch
import torch.nn as nn
import triton
import triton.language as tl


def _sigmoid(x):
    return 1.0 / (1.0 + tl.exp(-x))


tl.sigmoid = _sigmoid  # replaces Triton's, never called (LLMKernel L1 72 patches six names so)


@triton.jit
def exp_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.exp(tl.load(x_ptr + offs, mask=mask)), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        exp_kernel[(triton.cdiv(n, 32),)](x, y, n, BLOCK=32)
        return y


def get_inputs():
    return [torch.randn(4, 5)]


def get_init_inputs():
    return []
