import torch
import torch.nn as nn
import triton
import triton.language as tl


# Programs step by STEP but each covers BLOCK = 4 * STEP elements (LLMKernel L2 61 offsets its
# blocks by BLOCK_DHW and covers BLOCK_DHW * VECTOR_SIZE): neighbours store the same elements, with
# the same values, so memory ends the same whichever lands last.
@triton.jit
def relu_twice_kernel(x_ptr, y_ptr, n, STEP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * STEP + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0) * 2.0, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        relu_twice_kernel[(triton.cdiv(n, 8),)](x, y, n, STEP=8, BLOCK=32)
        return y


n = 37


def get_inputs():
    return [torch.randn(n)]


def get_init_inputs():
    return []
