import torch
import torch.nn as nn
import triton
import triton.language as tl


# The second config asks for 64 warps (2,048 threads, past the GPU's 1,024): compiled while the
# autotuner benchmarks every config, it raises OutOfResources, which Triton 3.6 takes as an
# infinite time, so the first config always runs (tests/fixtures/gpu/autotune_bench_skips.txt).
# keq said NOT_EQUIVALENT ("the candidate raises") at the second config.
@triton.autotune(configs=[triton.Config({"BLOCK": 32}, num_warps=4),
                          triton.Config({"BLOCK": 64}, num_warps=64)], key=["n"])
@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=m), 0.0), mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, n)
        return y


n = 37


def get_inputs():
    return [torch.randn(n)]


def get_init_inputs():
    return []
