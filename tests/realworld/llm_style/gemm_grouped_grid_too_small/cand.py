import torch
import torch.nn as nn
import triton
import triton.language as tl

# Grouped program order over (pixel tiles, channel tiles), as LLM-written GEMMs do; the host
# divides the pixel tiles by GROUP_M when it sizes the grid, so only every GROUP_M-th group of
# tiles has programs and the rest of the output is never written. Sizes that fit one group (and
# a harness whose torch.empty reuses the reference's freed output) hide it.
@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 4}, num_warps=4),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 2}, num_warps=8),
    ],
    key=["M", "C_out", "C_in"],
)
@triton.jit
def conv1x1_kernel(x_ptr, w_ptr, y_ptr, M, HW, C_in, C_out,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                   GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(C_out, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = tl.minimum(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    n_img = offs_m // HW
    pix = offs_m % HW
    x_row = n_img * (C_in * HW) + pix
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, C_in, BLOCK_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(x_ptr + x_row[:, None] + offs_k[None, :] * HW,
                    mask=(offs_m[:, None] < M) & (offs_k[None, :] < C_in), other=0.0)
        b = tl.load(w_ptr + offs_n[None, :] * C_in + offs_k[:, None],
                    mask=(offs_k[:, None] < C_in) & (offs_n[None, :] < C_out), other=0.0)
        acc += tl.dot(a, b, input_precision="ieee")
    y_off = (n_img * (C_out * HW) + pix)[:, None] + offs_n[None, :] * HW
    tl.store(y_ptr + y_off, acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < C_out))


def conv1x1(x, weight):
    assert x.is_cuda and weight.is_cuda, "CUDA tensors expected"
    N, C_in, H, W = x.shape
    C_out = weight.shape[0]
    x = x.contiguous()
    y = torch.empty((N, C_out, H, W), device=x.device, dtype=x.dtype)
    M = N * H * W
    grid = lambda meta: (
        triton.cdiv(triton.cdiv(M, meta["BLOCK_M"]), meta["GROUP_M"]) * triton.cdiv(C_out, meta["BLOCK_N"]),
    )
    conv1x1_kernel[grid](x, weight.reshape(C_out, C_in), y, M, H * W, C_in, C_out)
    return y


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=1, bias=False)

    def forward(self, x):
        return conv1x1(x, self.conv.weight)
