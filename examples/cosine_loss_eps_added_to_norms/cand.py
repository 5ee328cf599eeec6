# A row-wise cosine loss that adds eps to the product of the norms, where torch clamps each norm
# at eps: at unit-sized inputs the two agree to 1e-8, past float32's resolution, but where the
# norms are as small as sqrt(eps) the candidate's loss is off by a quarter.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def cosine_loss_rows(p_ptr, t_ptr, loss_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    dot = 0.0
    pp = 0.0
    tt = 0.0
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        p = tl.load(p_ptr + row * n_cols + cols, mask=mask, other=0.0)
        t = tl.load(t_ptr + row * n_cols + cols, mask=mask, other=0.0)
        dot += tl.sum(p * t)
        pp += tl.sum(p * p)
        tt += tl.sum(t * t)
    cosine = dot / (tl.sqrt(pp) * tl.sqrt(tt) + 1e-8)
    tl.store(loss_ptr + row, 1.0 - cosine)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, predictions, targets):
        predictions = predictions.contiguous()
        targets = targets.contiguous()
        rows, cols = predictions.shape
        loss = torch.empty(rows, device=predictions.device, dtype=torch.float32)
        cosine_loss_rows[(rows,)](predictions, targets, loss, cols, BLOCK=1024)
        return torch.mean(loss)
