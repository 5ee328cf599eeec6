import torch
import torch.nn as nn
import triton
import triton.language as tl


# The second config fails the kernel's tl.static_assert: Triton's benchmarking skips it.
@triton.autotune(configs=[triton.Config({"BLOCK": 4}), triton.Config({"BLOCK": 256})], key=["n"])
@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK <= 128)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2.0, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        copy_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, n)
        return y


def get_inputs():
    return [torch.randn(2, 4)]


def get_init_inputs():
    return []
