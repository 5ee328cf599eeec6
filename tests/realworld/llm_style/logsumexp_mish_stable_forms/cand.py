# The Linear stays in torch; one Triton program per block of rows streams the features with a
# running max and a rescaled running sum (online logsumexp), then applies mish in the
# overflow-safe forms LLM-written kernels use: softplus as log(1 + e^-|z|) + max(z, 0) and tanh
# as (1 - e^-2s) / (1 + e^-2s). The scale and the doubling are folded into one multiplier.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"ROWS": 8, "COLS": 128}, num_warps=4, num_stages=2),
        triton.Config({"ROWS": 16, "COLS": 64}, num_warps=4, num_stages=2),
    ],
    key=["n_cols"],
)
@triton.jit
def lse_mish_rows(y_ptr, out_ptr, n_rows, n_cols, stride_row, factor, lo, hi,
                  ROWS: tl.constexpr, COLS: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    row_ok = rows < n_rows
    running_max = tl.full((ROWS,), float("-inf"), dtype=tl.float32)
    running_sum = tl.zeros((ROWS,), dtype=tl.float32)
    for start in range(0, n_cols, COLS):
        cols = start + tl.arange(0, COLS)
        ok = row_ok[:, None] & (cols[None, :] < n_cols)
        v = tl.load(y_ptr + rows[:, None] * stride_row + cols[None, :], mask=ok, other=0.0)
        v = tl.minimum(tl.maximum(v.to(tl.float32) * factor, lo), hi)
        v = tl.where(ok, v, float("-inf"))
        new_max = tl.maximum(running_max, tl.max(v, axis=1))
        running_sum = running_sum * tl.exp(running_max - new_max) + tl.sum(tl.exp(v - new_max[:, None]), axis=1)
        running_max = new_max
    z = tl.log(running_sum) + running_max
    softplus = tl.log(1.0 + tl.exp(-tl.abs(z))) + tl.maximum(z, 0.0)
    e = tl.exp(-2.0 * softplus)
    mish = z * ((1.0 - e) / (1.0 + e))
    tl.store(out_ptr + rows, z * mish, mask=row_ok)


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_size, scale_factor, clamp_min, clamp_max):
        super().__init__()
        self.matmul = nn.Linear(input_size, hidden_size)
        self.factor = float(scale_factor) * 2.0
        self.lo = float(clamp_min)
        self.hi = float(clamp_max)

    def forward(self, x):
        assert x.is_cuda, "CUDA input expected"
        y = torch.nn.functional.linear(x, self.matmul.weight, self.matmul.bias).contiguous()
        n_rows, n_cols = y.shape
        out = torch.empty((n_rows, 1), device=y.device, dtype=y.dtype)
        grid = lambda meta: (triton.cdiv(n_rows, meta["ROWS"]),)
        lse_mish_rows[grid](y, out, n_rows, n_cols, y.stride(0), self.factor, self.lo, self.hi)
        return out
