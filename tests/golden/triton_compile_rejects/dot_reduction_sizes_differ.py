import torch
import torch.nn as nn
import triton
import triton.language as tl


# Triton 3.6 refuses this kernel when it compiles it for sm_90
# (tests/crosscheck/triton_compile_rejects.py); LLM-written kernels do it: the first operand's
# K (32) is not the second's (16).
@triton.jit
def kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, VEC: tl.constexpr):
    r = tl.arange(0, BLOCK)
    k = tl.arange(0, 2 * BLOCK)
    a = tl.load(x_ptr + r[:, None] * BLOCK + k[None, :] % BLOCK)
    b = tl.load(x_ptr + r[:, None] * BLOCK + r[None, :])
    tl.store(out_ptr + r[:, None] * BLOCK + r[None, :], tl.dot(a, b))

class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        kernel[(1,)](x, out, x.shape[0], BLOCK=16, VEC=2)
        return out
