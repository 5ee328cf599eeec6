import torch
import torch.nn as nn
import triton
import triton.language as tl


# A misspelled option (enable_fp_fusion is one Triton takes): Triton 3.6's compiled launch raises
# KeyError before it compiles (JITFunction._pack_args); its interpreter ignores the keyword, so
# no crosscheck runs here.
@triton.jit
def kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask, other=0.0), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        kernel[(triton.cdiv(n, 8),)](x, out, n, BLOCK=8, enable_fp_fusoin=False)
        return out


batch_size = 2
dim = 5


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
