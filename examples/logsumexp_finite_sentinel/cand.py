# Masks its padded lanes with the finite sentinel -1e30, as many LLM-written kernels do, where
# -inf belongs. In fp32, exp(-1e30 - m) is 0; over the reals it is a positive number far below any
# float format, so keq can neither prove the pair nor confirm a counterexample: UNKNOWN, saying
# why, without spending the timeout in Z3.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def lse_rows(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    ok = cols < n_cols
    v = tl.load(x_ptr + row * n_cols + cols, mask=ok, other=0.0)
    v = tl.minimum(tl.maximum(v, -10.0), 10.0)
    v = tl.where(ok, v, -1.0e30)
    m = tl.max(v, axis=0)
    tl.store(out_ptr + row, tl.log(tl.sum(tl.exp(v - m), axis=0)) + m)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty(x.shape[0], device=x.device, dtype=x.dtype)
        lse_rows[(x.shape[0],)](x, out, x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
        return out
