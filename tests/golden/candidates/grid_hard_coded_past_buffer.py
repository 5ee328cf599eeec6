import torch
import torch.nn as nn
import triton
import triton.language as tl


# A grid written for the file's 64 x 128 elements, run on 4 x 5: 8172 lanes load out of bounds
# and 8172 store out of bounds.
@triton.jit
def relu_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0))


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        relu_kernel[(64,)](x, y, BLOCK=128)
        return y


def get_inputs():
    return [torch.randn(4, 5)]


def get_init_inputs():
    return []
