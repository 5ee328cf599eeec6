import torch
import torch.nn as nn
import triton
import triton.language as tl


# The second config's tl.arange(0, 96) does not compile. Triton 3.6's autotuner compiles every
# config before the first launch and lets this error through (only OutOfResources and a failed
# tl.static_assert are skipped), so the launch raises whichever config would win (LLMKernel L2 72;
# tests/fixtures/gpu/autotune_bench_skips.txt).
@triton.autotune(configs=[triton.Config({"BLOCK": 32}, num_warps=4),
                          triton.Config({"BLOCK": 96}, num_warps=4)], key=["n"])
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
