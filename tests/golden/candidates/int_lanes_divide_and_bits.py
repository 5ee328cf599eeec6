import torch
import torch.nn as nn
import triton
import triton.language as tl


# Index arithmetic on constant lanes of a 2-D broadcast ([8, 1] against [1, 2]): C's truncating
# // and % on negative dividends (Triton's, not Python's floor), bitwise & | ^, a product past
# int32 that wraps, an `and` of two masks, and int8 lanes that wrap to the byte. Each lane's
# value goes to the output as a float.
@triton.jit
def lanes(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    rows = tl.arange(0, BLOCK)[:, None]  # 0..7
    cols = tl.arange(0, 2)[None, :]  # 0, 1
    d = rows - 5 - 3 * cols  # -5..2, -8..-1
    q = d // 3
    r = d % 3
    bits = (rows & 6) + (rows | 8) * 10 + (rows ^ 3) * 100
    wrap = (rows + 1) * 1073741824  # 2^30 * 2 wraps to -2^31, * 4 to 0
    inside = ((rows > 1) & (rows < 6 - cols)).to(tl.int32)
    byte = (rows + 120).to(tl.int8) + (cols * 0 + 10).to(tl.int8)  # int8: 130.. wraps to -126..
    v = q * 1000000 + r * 10000 + bits + inside * 7 + (wrap >> 30) + byte.to(tl.int32) * 1000
    offs = rows * 2 + cols
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + v.to(tl.float32), mask=mask)


class ModelNew(nn.Module):
    def forward(self, y):
        out = torch.empty_like(y)
        lanes[(1,)](y, out, y.numel(), BLOCK=8)
        return out
