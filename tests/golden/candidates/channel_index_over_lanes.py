# One program covers BLOCK_C channels by BLOCK_HW positions in a flat block of lanes (the form
# LLM-written epilogues take): the channel mask's tail starts at BLOCK_C, not at the lane count.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, y_ptr, C, HW, BLOCK_C: tl.constexpr, BLOCK_HW: tl.constexpr):
    tid = tl.arange(0, BLOCK_C * BLOCK_HW)
    c = tl.program_id(0) * BLOCK_C + tid // BLOCK_HW
    hw = tid % BLOCK_HW
    mask = (c < C) & (hw < HW)
    x = tl.load(x_ptr + c * HW + hw, mask=mask, other=0.0)
    tl.store(y_ptr + c * HW + hw, 2.0 * x, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        C, HW = x.shape
        y = torch.empty_like(x)
        scale_kernel[(triton.cdiv(C, 4),)](x, y, C, HW, BLOCK_C=4, BLOCK_HW=8)
        return y


def get_inputs():
    return [torch.randn(6, 5)]


def get_init_inputs():
    return []
