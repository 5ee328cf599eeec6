import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def smooth_l1_kernel(p_ptr, t_ptr, partial_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    d = tl.load(p_ptr + offs, mask=mask, other=0.0) - tl.load(t_ptr + offs, mask=mask, other=0.0)
    ad = tl.abs(d)
    loss = tl.where(ad < 1.0, 0.5 * d * d, ad - 0.5)
    loss = tl.where(mask, loss, 0.0)
    tl.store(partial_ptr + pid, tl.sum(loss, axis=0))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        p = predictions.contiguous().view(-1)
        t = targets.contiguous().view(-1)
        n = p.numel()
        BLOCK = 1024
        nblocks = triton.cdiv(n, BLOCK)
        partial = torch.empty(nblocks, device=p.device, dtype=torch.float32)
        smooth_l1_kernel[(nblocks,)](p, t, partial, n, BLOCK=BLOCK)
        return partial.sum() / n
