import torch
import torch.nn as nn
import triton
import triton.language as tl


# `scale` is a runtime float argument: the compiled kernel types it fp32, and an fp16 block times
# an fp32 scalar is an fp32 product (Triton's promotion, as torch's for two tensors). keq once
# took it for a weak Python float, rounded the product to fp16 and reported a false
# counterexample. The interpreter keeps the float a Python number and rounds as keq did; the
# compiled kernel's prototype types it fp32 (tests/fixtures/gpu/measure_scalar_argument_types.py).
@triton.jit
def scale_kernel(x_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * scale, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        out = torch.empty(x.shape, device=x.device, dtype=torch.float32)
        n = x.numel()
        scale_kernel[(triton.cdiv(n, 256),)](x, out, n, self.scale, BLOCK=256)
        return out
