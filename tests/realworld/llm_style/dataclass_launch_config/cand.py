from typing import Optional, Tuple, List
from dataclasses import dataclass
import torch
import torch.nn as nn
import triton
import triton.language as tl

@triton.jit
def fused_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.load(y_ptr + offs, mask=m)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0) * y + 1.0, mask=m)


@dataclass
class LaunchConfig:
    block: int = 1024
    num_warps: int = 4

def launch(x: torch.Tensor, y: torch.Tensor, out: Optional[torch.Tensor] = None, cfg: LaunchConfig = LaunchConfig()) -> torch.Tensor:
    if out is None:
        out = torch.empty_like(x)
    n: int = out.numel()
    grid: Tuple[int] = (triton.cdiv(n, cfg.block),)
    fused_kernel[grid](x, y, out, n, BLOCK=cfg.block, num_warps=cfg.num_warps)
    return out

class ModelNew(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.cfg = LaunchConfig(block=2048)
    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return launch(x, y, cfg=self.cfg)
