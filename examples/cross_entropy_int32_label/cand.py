# Cross entropy in unsloth's style: the target read as int32 in the kernel (a gather compared
# with i32 lane indices), rows whose target is the ignore_index -100 skipped, and the mean taken
# on the host over torch.count_nonzero(labels != -100).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def ce_rows(logits_ptr, stride, loss_ptr, labels_ptr, V: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    label = tl.load(labels_ptr + row).to(tl.int32)
    z = tl.load(logits_ptr + row * stride + cols, mask=cols < V, other=-float("inf"))
    m = tl.max(z, 0)
    lse = m + tl.log(tl.sum(tl.exp(z - m), 0))
    loss = 0.0
    if label != -100:
        loss = lse - tl.load(logits_ptr + row * stride + label)
    tl.store(loss_ptr + row, loss)


class ModelNew(nn.Module):
    def forward(self, logits, labels):
        b, s, v = logits.shape
        flat = logits.reshape(b * s, v)
        losses = torch.empty(b * s, device=logits.device)
        q, r = divmod(v, 65536)
        assert q + (r != 0) == 1, "one block per row"
        ce_rows[(b * s,)](flat, flat.stride(0), losses, labels.reshape(-1), V=v, BLOCK=triton.next_power_of_2(v))
        n = torch.count_nonzero(labels != -100)
        return losses.sum() / n
