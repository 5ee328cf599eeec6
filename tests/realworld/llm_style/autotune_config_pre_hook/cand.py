import torch
import torch.nn as nn
import triton
import triton.language as tl

@triton.autotune(
    configs=[triton.Config({"BLOCK": 512}, num_warps=4, pre_hook=lambda nargs: nargs["out_ptr"].zero_()),
             triton.Config({"BLOCK": 1024}, num_warps=8, pre_hook=lambda nargs: nargs["out_ptr"].zero_())],
    key=["n"],
)
@triton.jit
def fused_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.load(y_ptr + offs, mask=m)
    tl.atomic_add(out_ptr + offs, tl.maximum(x, 0.0) * y + 1.0, mask=m)

class ModelNew(nn.Module):
    def forward(self, x, y):
        out = torch.empty_like(x)
        n = out.numel()
        fused_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, out, n)
        return out
