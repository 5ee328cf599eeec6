# Split-K matmul in the style of an LLM-written KernelBench submission: each program of the third
# grid axis sums K_CHUNK = cdiv(K, SPLIT_K) columns in BLOCK_K steps and adds its tile into C with
# atomic_add. The loop runs past its chunk whenever K_CHUNK is not a multiple of BLOCK_K, and
# masks only by K, so neighbouring chunks are summed twice (a test at K = 8192 passes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def splitk_kernel(a_ptr, b_ptr, c_ptr, M, N, K, K_CHUNK,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_n = tl.program_id(0)
    pid_m = tl.program_id(1)
    pid_s = tl.program_id(2)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for kk in range(0, K_CHUNK, BLOCK_K):
        offs_k = pid_s * K_CHUNK + kk + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + offs_m[:, None] * K + offs_k[None, :],
                    mask=(offs_m[:, None] < M) & (offs_k[None, :] < K), other=0.0)
        b = tl.load(b_ptr + offs_k[:, None] * N + offs_n[None, :],
                    mask=(offs_k[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        acc += tl.dot(a, b, input_precision="ieee")
    tl.atomic_add(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc,
                  mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


class ModelNew(nn.Module):
    def forward(self, A, B):
        A, B = A.contiguous(), B.contiguous()
        M, K = A.shape
        N = B.shape[1]
        split_k = 8
        C = torch.zeros((M, N), device=A.device, dtype=torch.float32)
        grid = (triton.cdiv(N, 16), triton.cdiv(M, 16), split_k)
        splitk_kernel[grid](A, B, C, M, N, K, triton.cdiv(K, split_k),
                            BLOCK_M=16, BLOCK_N=16, BLOCK_K=16)
        return C
