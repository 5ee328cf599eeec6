import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 8}), triton.Config({"BLOCK": 16})], key=["n"])
@triton.jit
def relu_kernel(x_ptr, y_ptr, n, scale=2.0, BLOCK: tl.constexpr = 4):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=mask), 0.0) * scale, mask=mask)


# Triton calls a grid with every bound argument by name: a positional runtime one (n), a
# default (scale) and the config's constexpr (LLMKernel L3 2 reads meta['M']).
def grid(meta):
    assert meta["n"] == 20 and meta["scale"] == 2.0
    return (triton.cdiv(meta["n"], meta["BLOCK"]),)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        relu_kernel[grid](x, y, x.numel())
        return y


def get_inputs():
    return [torch.randn(4, 5)]


def get_init_inputs():
    return []
