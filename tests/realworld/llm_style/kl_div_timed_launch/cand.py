import torch
import torch.nn as nn
import triton
import triton.language as tl

# Older Triton releases lack some of these; fall back to hand-written ones.
if not hasattr(tl, "tanh"):
    def _tanh(x):
        e = tl.exp(2 * x)
        return (e - 1) / (e + 1)
    tl.tanh = _tanh


@triton.jit
def kl_rows_kernel(p_ptr, t_ptr, row_sums_ptr, n_rows, n_cols,
                   BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid_r = tl.program_id(0)
    pid_c = tl.program_id(1)
    rows = pid_r * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = pid_c * BLOCK_C + tl.arange(0, BLOCK_C)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    offs = rows[:, None] * n_cols + cols[None, :]
    # masked lanes read 1.0: t * (log t - log p) is 0 there
    p = tl.load(p_ptr + offs, mask=mask, other=1.0)
    t = tl.load(t_ptr + offs, mask=mask, other=1.0)
    part = tl.sum(t * (tl.log(t) - tl.log(p)), axis=1)
    tl.atomic_add(row_sums_ptr + rows, part, mask=rows < n_rows)


@triton.jit
def total_kernel(row_sums_ptr, out_ptr, n_rows, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    s = tl.load(row_sums_ptr + offs, mask=offs < n_rows, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(s, axis=0))


def kl_div_batchmean(predictions, targets):
    predictions = predictions.contiguous()
    targets = targets.contiguous()
    n_rows = predictions.shape[0]
    n_cols = predictions.numel() // n_rows
    row_sums = torch.zeros(n_rows, dtype=torch.float32, device=predictions.device)
    out = torch.zeros(1, dtype=torch.float32, device=predictions.device)
    BLOCK_R, BLOCK_C = 16, 256
    grid = (triton.cdiv(n_rows, BLOCK_R), triton.cdiv(n_cols, BLOCK_C))
    # pick num_warps by timing each candidate launch
    best, best_warps = float("inf"), 4
    for warps in (4, 8):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        kl_rows_kernel[grid](predictions, targets, row_sums, n_rows, n_cols,
                             BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C, num_warps=warps)
        end.record()
        torch.cuda.synchronize()
        ms = start.elapsed_time(end)
        if ms < best:
            best, best_warps = ms, warps
    row_sums.zero_()
    kl_rows_kernel[grid](predictions, targets, row_sums, n_rows, n_cols,
                         BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C, num_warps=best_warps)
    total_kernel[(triton.cdiv(n_rows, 1024),)](row_sums, out, n_rows, BLOCK=1024)
    out.div_(n_rows)
    return out[0]


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        return kl_div_batchmean(predictions, targets)
