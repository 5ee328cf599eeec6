import torch
import torch.nn as nn
import triton
import triton.language as tl

@triton.jit
def fused_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.load(y_ptr + offs, mask=m)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0) * y + 1.0, mask=m)

class FusedOp(nn.Module):
    def forward(self, x, y):
        out = torch.empty_like(x)
        n = out.numel()
        fused_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
        return out

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.ops = nn.ModuleList([FusedOp()])
        self.layers = nn.ModuleDict({"fused": FusedOp()})
    def forward(self, x, y):
        a = self.ops[0](x, y)
        return self.layers["fused"](x, y) if a is not None else a
