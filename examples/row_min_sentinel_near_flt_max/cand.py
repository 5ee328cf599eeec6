import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_min_scale_kernel(x_ptr, y_ptr, C, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < C
    # Masked lanes take 3.402823e38, a stand-in for +inf: a row whose values all pass it (up to
    # FLT_MAX) gets it.
    v = tl.load(x_ptr + row * C + offs, mask=mask, other=3.402823e38)
    tl.store(y_ptr + row, tl.min(v, axis=0) * scale)


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = float(scale)

    def forward(self, x):
        x = x.contiguous()
        B, C = x.shape
        y = torch.empty((B, 1), device=x.device, dtype=x.dtype)
        row_min_scale_kernel[(B,)](x, y, C, self.scale, BLOCK=triton.next_power_of_2(C))
        return y


batch_size = 2
channels = 3
scale = 2.0


def get_inputs():
    return [torch.randn(batch_size, channels)]


def get_init_inputs():
    return [scale]
