import torch
import torch.nn as nn
import triton
import triton.language as tl


# One program per row; it adds its row's sum with an atomic only where that sum is positive
# (LLMKernel L2 61 skips its atomics under `if tl.abs(block_sum) > 1e-8:`).
@triton.jit
def positive_row_sums_kernel(x_ptr, out_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * cols + offs, mask=offs < cols, other=0.0)
    s = tl.sum(x, axis=0)
    if s > 0.0:
        tl.atomic_add(out_ptr, s)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.zeros(1, device=x.device, dtype=x.dtype)
        positive_row_sums_kernel[(x.shape[0],)](x, out, x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
        return out


rows = 3
cols = 5


def get_inputs():
    return [torch.randn(rows, cols)]


def get_init_inputs():
    return []
