import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def hinge_kernel(pred_ptr, targ_ptr, out_ptr, n, inv_n, BLOCK_SIZE: tl.constexpr):
    offs = tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    p = tl.load(pred_ptr + offs, mask=mask, other=0.0)
    t = tl.load(targ_ptr + offs, mask=mask, other=0.0)
    h = tl.maximum(1.0 - p * t, 0.0)
    h = tl.where(mask, h, 0.0)
    tl.store(out_ptr, tl.sum(h, axis=0) * inv_n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        p = predictions.reshape(-1).contiguous()
        t = targets.reshape(-1).contiguous()
        n = p.numel()
        out = torch.empty((), device=p.device, dtype=torch.float32)
        BLOCK_SIZE = triton.next_power_of_2(n)
        hinge_kernel[(1,)](p, t, out, n, 1.0 / n, BLOCK_SIZE=BLOCK_SIZE)
        return out
