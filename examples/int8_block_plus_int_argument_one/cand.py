import torch
import torch.nn as nn
import triton
import triton.language as tl


# `zero_point` is 1 here, and Triton specializes an int argument equal to 1 into the constexpr 1:
# a weak Python int, so the int8 block plus it stays int8 and 127 + 1 wraps to -128, as torch's
# int8 sum does (measured on an H100: tests/fixtures/gpu/scalar_argument_types.txt). Any other
# value is an int32 scalar (example int8_block_plus_int_argument).
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
