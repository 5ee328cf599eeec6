import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def cas_kernel(x_ptr, y_ptr):
    old = tl.atomic_cas(x_ptr, 0.0, 5.0)
    tl.store(y_ptr, old)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty(1, device=x.device)
        cas_kernel[(1,)](x, y)
        return x, y


def get_inputs():
    return [torch.randn(1)]


def get_init_inputs():
    return []
