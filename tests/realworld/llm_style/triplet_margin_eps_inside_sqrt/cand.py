import torch
import torch.nn as nn
import triton
import triton.language as tl


# One program per row, sums of squared differences in a loop over blocks; the eps guard goes
# inside the square root (sqrt(sum + 1e-8)) where torch adds 1e-6 to every difference.
@triton.jit
def triplet_kernel(a_ptr, p_ptr, n_ptr, out_ptr, D, margin, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    pos = 0.0
    neg = 0.0
    for start in range(0, D, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < D
        a = tl.load(a_ptr + row * D + cols, mask=mask, other=0.0)
        p = tl.load(p_ptr + row * D + cols, mask=mask, other=0.0)
        n = tl.load(n_ptr + row * D + cols, mask=mask, other=0.0)
        pos += tl.sum((a - p) * (a - p))
        neg += tl.sum((a - n) * (a - n))
    loss = tl.sqrt(pos + 1e-8) - tl.sqrt(neg + 1e-8) + margin
    tl.store(out_ptr + row, tl.maximum(loss, 0.0))


class ModelNew(nn.Module):
    def __init__(self, margin=1.0):
        super().__init__()
        self.margin = margin

    def forward(self, anchor, positive, negative):
        B, D = anchor.shape
        losses = torch.empty(B, device=anchor.device, dtype=anchor.dtype)
        triplet_kernel[(B,)](anchor.contiguous(), positive.contiguous(), negative.contiguous(),
                             losses, D, self.margin, BLOCK=256)
        return losses.mean()
