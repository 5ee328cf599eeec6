import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def shift_kernel(x_ptr, tmp_ptr, y_ptr, BLOCK: tl.constexpr, BARRIER: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(tmp_ptr + offs, tl.load(x_ptr + offs))
    if BARRIER:
        tl.debug_barrier()
    # Reads its neighbour's store: another lane, maybe another thread.
    tl.store(y_ptr + offs, tl.load(tmp_ptr + (offs + 1) % BLOCK))


class ModelNew(nn.Module):
    def forward(self, x):
        tmp = torch.empty_like(x)
        y = torch.empty_like(x)
        shift_kernel[(1,)](x, tmp, y, BLOCK=8, BARRIER=False)
        return y


def get_inputs():
    return [torch.randn(8)]


def get_init_inputs():
    return []
