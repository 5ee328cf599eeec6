import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def l1_rows(x_ptr, y_ptr, n: tl.constexpr, BLOCK: tl.constexpr):
    # (n is a constexpr so that Triton's interpreter can run the loops: tests/crosscheck.)
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    total = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n, BLOCK):
        m = start + cols < n
        total += tl.abs(tl.load(x_ptr + row * n + start + cols, mask=m, other=0.0))
    # n / sum|x| once per row; a zero row gives 0 * inf = NaN, as torch's 0 / 0 does.
    scale = n / tl.sum(total, axis=0)
    for start in range(0, n, BLOCK):
        m = start + cols < n
        v = tl.load(x_ptr + row * n + start + cols, mask=m, other=0.0)
        tl.store(y_ptr + row * n + start + cols, v * scale, mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        l1_rows[(x.shape[0],)](x, y, x.shape[1], BLOCK=256)
        return y
