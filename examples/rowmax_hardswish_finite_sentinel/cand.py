import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rowmax_hardswish_kernel(x_ptr, y_ptr, C, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < C
    v = tl.load(x_ptr + row * C + offs, mask=mask, other=0.0)
    hs = v * tl.minimum(tl.maximum(v + 3.0, 0.0), 6.0) / 6.0
    # Masked lanes take -1e30, a stand-in for -inf; hardswish is at least -3/8, so it never wins.
    tl.store(y_ptr + row, tl.max(tl.where(mask, hs, -1e30), axis=0))


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        B, C = x.shape
        y = torch.empty((B, 1), device=x.device, dtype=x.dtype)
        rowmax_hardswish_kernel[(B,)](x, y, C, BLOCK=triton.next_power_of_2(C))
        return y


batch_size = 2
channels = 3


def get_inputs():
    return [torch.randn(batch_size, channels)]


def get_init_inputs():
    return []
