import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def instnorm_div_kernel(x_ptr, y_ptr, NC, HW, eps, inv_div,
                        BLOCK_C: tl.constexpr, BLOCK_HW: tl.constexpr):
    # Several (n, c) planes per program: one base pointer per plane, broadcast against the
    # spatial offsets as a [BLOCK_HW, BLOCK_C] tile. One pass for sum and sum of squares.
    pid = tl.program_id(0)
    planes = pid * BLOCK_C + tl.arange(0, BLOCK_C)
    plane_mask = planes < NC
    base_x = x_ptr + planes * HW
    base_y = y_ptr + planes * HW
    s1 = tl.zeros((BLOCK_C,), dtype=tl.float32)
    s2 = tl.zeros((BLOCK_C,), dtype=tl.float32)
    for start in range(0, HW, BLOCK_HW):
        hw = start + tl.arange(0, BLOCK_HW)
        m = (hw < HW)[:, None] & plane_mask[None, :]
        v = tl.load(base_x[None, :] + hw[:, None], mask=m, other=0.0)
        s1 += tl.sum(v, axis=0)
        s2 += tl.sum(v * v, axis=0)
    mean = s1 / HW
    var = s2 / HW - mean * mean
    scale = inv_div / tl.sqrt(var + eps)
    for start in range(0, HW, BLOCK_HW):
        hw = start + tl.arange(0, BLOCK_HW)
        m = (hw < HW)[:, None] & plane_mask[None, :]
        v = tl.load(base_x[None, :] + hw[:, None], mask=m, other=0.0)
        tl.store(base_y[None, :] + hw[:, None], (v - mean[None, :]) * scale[None, :], mask=m)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, divide_by):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.eps = 1e-5
        self.divide_by = float(divide_by)

    def forward(self, x):
        y = self.conv(x).contiguous()
        N, C, H, W = y.shape
        out = torch.empty_like(y)
        BLOCK_C = 4
        grid = (triton.cdiv(N * C, BLOCK_C),)
        instnorm_div_kernel[grid](y, out, N * C, H * W, self.eps, 1.0 / self.divide_by,
                                  BLOCK_C=BLOCK_C, BLOCK_HW=64)
        return out
