# The kernel registered as a torch custom op (torch.library.custom_op with a fake kernel, called
# through torch.ops), a dataclass launch config behind functools.lru_cache, and a forward under
# @torch.no_grad() on the current CUDA stream: the newer idioms of LLM-written modules.
import functools
import os
from dataclasses import dataclass

import torch
import torch.nn as nn
import triton
import triton.language as tl


@dataclass
class LaunchConfig:
    block: int = 128
    num_warps: int = 4


@triton.jit
def gelu2_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    y = 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))
    tl.store(y_ptr + offs, y * 2.0, mask=m)


@functools.lru_cache(maxsize=None)
def _config(n: int) -> LaunchConfig:
    return LaunchConfig(block=min(1024, triton.next_power_of_2(n)))


@torch.library.custom_op("kb::gelu2", mutates_args=())
def gelu2(x: torch.Tensor) -> torch.Tensor:
    assert x.dtype in (torch.float16, torch.bfloat16, torch.float32)
    x = x.contiguous()
    y = x.new_empty(x.shape)
    n = x.numel()
    cfg = _config(n)
    gelu2_kernel[(triton.cdiv(n, cfg.block),)](x, y, n, BLOCK=cfg.block, num_warps=cfg.num_warps)
    return y


@gelu2.register_fake
def _(x):
    return torch.empty_like(x)


class ModelNew(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.debug = os.environ.get("KB_DEBUG", "0") == "1"

    @torch.no_grad()
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        with torch.cuda.stream(torch.cuda.current_stream()):
            return torch.ops.kb.gelu2(x)


batch, dim = 16, 4096


def get_inputs():
    return [torch.randn(batch, dim)]


def get_init_inputs():
    return []
