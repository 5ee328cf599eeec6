import torch
import torch.nn as nn
import triton
import triton.language as tl


# An LLM-written wrapper passes x.data_ptr(), an int: the kernel's x_addr is an integer scalar,
# x_addr + offs an integer block, and tl.load refuses it ("Unsupported ptr type", compiled for
# sm_90 by tests/crosscheck/triton_compile_rejects.py, whose signature makes it i32 where the
# launch makes a data_ptr() i64).
@triton.jit
def kernel(x_addr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_addr + offs, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        kernel[(triton.cdiv(n, 8),)](x.data_ptr(), out, n, BLOCK=8)
        return out
