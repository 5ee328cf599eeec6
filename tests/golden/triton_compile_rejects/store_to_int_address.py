import torch
import torch.nn as nn
import triton
import triton.language as tl


# Every pointer passed as data_ptr(): the launch has no tensor argument at all. keq once took
# such a launch for one already run (its memo keyed on the tensors it writes, here none) and
# ran nothing, reporting an output nothing wrote; Triton refuses the kernel.
@triton.jit
def kernel(x_ptr, out_addr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_addr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        kernel[(triton.cdiv(n, 8),)](x.data_ptr(), out.data_ptr(), n, BLOCK=8)
        return out
