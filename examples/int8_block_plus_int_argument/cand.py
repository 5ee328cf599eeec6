import torch
import torch.nn as nn
import triton
import triton.language as tl


# `zero_point` is a runtime int argument, an int32 scalar in the kernel: int8 plus int32 is int32
# (Triton's integer promotion), so 127 + 3 is 130, not a wrapped int8 (Triton's interpreter
# agrees: tests/fixtures/gpu/measure_scalar_argument_types.py).
@triton.jit
def shift_kernel(q_ptr, out_ptr, n, zero_point, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    q = tl.load(q_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, q + zero_point, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, zero_point):
        super().__init__()
        self.zero_point = zero_point

    def forward(self, q):
        out = torch.empty(q.shape, device=q.device, dtype=torch.int32)
        n = q.numel()
        shift_kernel[(triton.cdiv(n, 256),)](q, out, n, self.zero_point, BLOCK=256)
        return out
