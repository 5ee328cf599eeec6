import torch
import torch.nn as nn
import triton
import triton.language as tl


# The configs set BLOCK, which the kernel does not declare (it reads a block of its own): the
# autotuner passes each config's keywords to the launch, and Triton 3.6's compiled launch raises
# KeyError there (JITFunction._pack_args), as an LLM-written KL-div kernel did in KernelBench's
# run. The interpreter ignores the keyword, so no crosscheck runs here.
@triton.autotune(configs=[triton.Config({"BLOCK": 8}), triton.Config({"BLOCK": 16})], key=["n"])
@triton.jit
def kernel(x_ptr, out_ptr, n):
    offs = tl.program_id(0) * 8 + tl.arange(0, 8)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask, other=0.0), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        kernel[(triton.cdiv(n, 8),)](x, out, n)
        return out


batch_size = 2
dim = 5


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
