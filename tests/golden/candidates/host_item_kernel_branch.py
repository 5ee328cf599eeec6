import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def pick_kernel(X_ptr, T_ptr, out_ptr, n_cols, ignore_index, inv_n):
    row = tl.program_id(0).to(tl.int64)
    T_ptr += row
    y = tl.load(T_ptr)
    if y == ignore_index:  # targets lie in [0, 3): never taken
        tl.store(out_ptr + row, 0.0)
        return
    tl.store(out_ptr + row, tl.load(X_ptr + row * n_cols) * inv_n)


class ModelNew(nn.Module):
    def forward(self, x, target):
        mask = target != -100
        n = mask.sum().item()  # 4 for every target in [0, 3)
        assert (target * mask).max() < x.shape[-1], "target out of range"
        out = torch.empty(x.shape[0], dtype=x.dtype, device=x.device)
        pick_kernel[(x.shape[0],)](X_ptr=x, T_ptr=target, out_ptr=out, n_cols=x.shape[1],
                                   ignore_index=-100, inv_n=1.0 / n)
        return out


class ModelSumItem(nn.Module):
    def forward(self, x, target):
        return x * x.sum().item()  # differs between inputs: a Python float that is a term


class ModelItemKernelScalar(nn.Module):
    def forward(self, x, target):
        out = torch.empty(x.shape[0], dtype=x.dtype, device=x.device)
        total = x.sum().item()  # reaches the kernel as an fp32 scalar
        pick_kernel[(x.shape[0],)](x, target, out, x.shape[1], -100, total)
        return out


class ModelItemArithmetic(nn.Module):
    def forward(self, x, target):
        return x * (x.sum().item() * 0.5)  # Python arithmetic on it: unsupported


class ModelItemMembership(nn.Module):
    def forward(self, x, target):
        if 1.0 in [x.sum().item()]:  # compared by value: unsupported
            return x
        return -x


def get_inputs():
    return [torch.randn(4, 3), torch.randint(0, 3, (4,))]


def get_init_inputs():
    return []
