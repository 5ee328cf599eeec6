import torch
import torch.nn as nn
import triton
import triton.language as tl


# Triton 3.6 refuses this kernel when it compiles it for sm_90
# (tests/crosscheck/triton_compile_rejects.py); LLM-written kernels do it: a mask with one
# [:, None] too many makes the loaded tile 3-D, and the two operands' batches differ.
@triton.jit
def kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, VEC: tl.constexpr):
    r = tl.arange(0, BLOCK)
    a = tl.load(x_ptr + r[:, None] * BLOCK + r[None, :], mask=(r[:, None] < n)[:, None], other=0.0)
    b = tl.load(x_ptr + r[:, None] * BLOCK + r[None, :])
    c = tl.dot(a, b[None, :, :])
    tl.store(out_ptr + r[:, None] * BLOCK + r[None, :], tl.sum(c, axis=0))

class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        kernel[(1,)](x, out, x.shape[0], BLOCK=16, VEC=2)
        return out
