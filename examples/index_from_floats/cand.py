# Two programs per row, each a half of its columns; the row is computed through floats, as some
# generated kernels do (a triangular tile index as floor((sqrt(8 * pid + 1) - 1) / 2)). (pid +
# 0.5) * 0.5 is never within fp32 rounding of an integer, so its floor is pid // 2 on any GPU,
# and keq folds it. Where rounding could decide the integer ((pid * 3) / 6 at an even pid is
# exactly k, and fp32 `/`, div.full.f32, may return k - 1 ulp) the run is UNSUPPORTED and says so
# (VerifyCorpus.AnIndexRoundingMayDecideIsUnsupportedAndSaysWhy); it was reported as an index
# that "depends on loaded data". Exact cases are taken as exact: pid * 0.5 (a power of two),
# sqrt of a perfect square, an integer over 2 (measured: tests/fixtures/gpu/sqrt_perfect_squares.txt).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def triple_halves(x_ptr, y_ptr, n_cols, HALF: tl.constexpr):
    pid = tl.program_id(0)
    row = tl.floor((pid.to(tl.float32) + 0.5) * 0.5).to(tl.int32)
    half = pid - 2 * row
    cols = half * HALF + tl.arange(0, HALF)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * n_cols + cols, x * 3.0, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        rows, n = x.shape
        y = torch.empty_like(x)
        half = triton.next_power_of_2(triton.cdiv(n, 2))
        triple_halves[(2 * rows,)](x, y, n, HALF=half)
        return y
