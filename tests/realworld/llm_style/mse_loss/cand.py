import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sq_diff_sum_kernel(p_ptr, t_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask, other=0.0)
    t = tl.load(t_ptr + offs, mask=mask, other=0.0)
    d = p - t
    partial = tl.sum(d * d, axis=0)
    tl.atomic_add(out_ptr, partial)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        p = predictions.contiguous().view(-1)
        t = targets.contiguous().view(-1)
        n = p.numel()
        out = torch.zeros(1, device=p.device, dtype=torch.float32)
        BLOCK = 1024
        sq_diff_sum_kernel[(triton.cdiv(n, BLOCK),)](p, t, out, n, BLOCK=BLOCK)
        return (out / n).squeeze()
