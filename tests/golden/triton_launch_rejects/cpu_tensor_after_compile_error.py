import torch
import torch.nn as nn
import triton
import triton.language as tl


# gpt-4o's relu_sqrt and sqrt (TritonBench-T) call their wrapper at import on a CPU tensor. The
# launcher refuses a CPU tensor only after the kernel compiled (JITFunction.run: compile, grid,
# then the launch); this kernel does not compile, which is what the GPU raises.
@triton.jit
def kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.trunc(x), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.cpu()
        out = torch.empty_like(x)
        n = x.numel()
        kernel[(triton.cdiv(n, 8),)](x, out, n, BLOCK=8)
        return out
