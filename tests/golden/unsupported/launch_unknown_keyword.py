import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


# A misspelled option (enable_fp_fusion is one keq takes) is Triton's compiled launch's KeyError,
# which its interpreter ignores. Bound to the kernel it was a TypeError CPython never raises.
class Model(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        copy[(triton.cdiv(x.numel(), 8),)](x, out, x.numel(), BLOCK=8, enable_fp_fusoin=False)
        return out


def get_inputs():
    return [torch.randn(32)]


def get_init_inputs():
    return []
