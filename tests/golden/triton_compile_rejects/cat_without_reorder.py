import torch
import torch.nn as nn
import triton
import triton.language as tl


# Triton 3.6 refuses this kernel when it compiles it for sm_90
# (tests/crosscheck/triton_compile_rejects.py): tl.cat's default can_reorder=False trips
# semantic.cat's assert, its only implementation being one that may reorder the elements.
@triton.jit
def kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, VEC: tl.constexpr):
    r = tl.arange(0, BLOCK)
    a = tl.load(x_ptr + r)
    b = tl.load(x_ptr + BLOCK + r)
    tl.store(out_ptr + tl.arange(0, 2 * BLOCK), tl.cat(a, b))

class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        kernel[(1,)](x, out, x.shape[0], BLOCK=8, VEC=2)
        return out
