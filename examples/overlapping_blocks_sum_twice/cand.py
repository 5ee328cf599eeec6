import torch
import torch.nn as nn
import triton
import triton.language as tl


# The same overlapping blocks as overlapping_blocks_store_same_value, but each program adds its
# block's sum with an atomic: the shared elements are counted up to four times (LLMKernel L2 61's
# group statistics).
@triton.jit
def sum_kernel(x_ptr, out_ptr, n, STEP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * STEP + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.zeros(1, device=x.device, dtype=x.dtype)
        n = x.numel()
        sum_kernel[(triton.cdiv(n, 8),)](x, out, n, STEP=8, BLOCK=32)
        return out


n = 37


def get_inputs():
    return [torch.randn(n)]


def get_init_inputs():
    return []
