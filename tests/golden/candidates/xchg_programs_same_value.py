import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def flag_kernel(flag_ptr, y_ptr, VALUE_BY_PID: tl.constexpr):
    pid = tl.program_id(0)
    v = pid * 1.0 if VALUE_BY_PID else 1.0
    old = tl.atomic_xchg(flag_ptr, v)
    tl.store(y_ptr + pid, old)


class ModelNew(nn.Module):
    def forward(self, x):
        flag = torch.zeros(1, device=x.device)
        y = torch.empty(2, device=x.device)
        flag_kernel[(2,)](flag, y, VALUE_BY_PID=False)
        return y


def get_inputs():
    return [torch.randn(2, 3)]


def get_init_inputs():
    return []
