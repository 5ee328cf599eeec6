import torch
import torch.nn as nn
import triton
import triton.language as tl


# In a kernel, range() is an scf.for and `tile == 0` a dynamic if: a name only its taken branch
# defines is gone after it, and Triton 3.6 refuses to compile the read (NameError: 'b is not
# defined', seen on the H200 with an LLM-written level-2 #89 kernel written this way). With
# tl.static_range the loop unrolls, the if is static, and the same code compiles.
@triton.jit
def dynamic(X, Y, BLOCK: tl.constexpr, TILES: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    for tile in range(TILES):
        if tile == 0:
            b = tl.load(X + offs)
        acc += b
    tl.store(Y + offs, acc)


@triton.jit
def unrolled(X, Y, BLOCK: tl.constexpr, TILES: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    for tile in tl.static_range(TILES):
        if tile == 0:
            b = tl.load(X + offs)
        acc += b
    tl.store(Y + offs, acc)


# A name first assigned in a range() loop's body is gone after the loop (NameError on the H200:
# tests/fixtures/gpu/dynamic_scopes.txt); the loop's own variable stays.
@triton.jit
def loop_local(X, Y, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    for i in range(2):
        v = tl.load(X + offs)
        acc += v
    tl.store(Y + offs, acc + v + i)


class ModelLoop(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        loop_local[(1,)](x, y, BLOCK=4)
        return y


# The loop's own variable read after a range() loop: Triton compiles it, but the H200 stored
# 2.35e-38 where Python's last value gives 2x + 1 (dynamic_scopes.txt): keq does not model it.
@triton.jit
def loop_variable(X, Y, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    for i in range(2):
        acc += tl.load(X + offs)
    tl.store(Y + offs, acc + i)


class ModelLoopVariable(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        loop_variable[(1,)](x, y, BLOCK=4)
        return y


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        dynamic[(1,)](x, y, BLOCK=4, TILES=2)
        return y


class ModelUnrolled(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        unrolled[(1,)](x, y, BLOCK=4, TILES=2)
        return y


def get_inputs():
    return [torch.randn(4)]


def get_init_inputs():
    return []
