import torch
import torch.nn as nn
import triton
import triton.language as tl

# Triton 3.6 compiles a kernel's read of a module global only when the global is a
# tl.constexpr(...) instance (code_generator.global_lookup); an annotation is not one.
SCALE_CONSTEXPR = tl.constexpr(2.0)
SCALE_ANNOTATED: tl.constexpr = 2.0
BLOCK_PLAIN = 8
PAIR = tl.constexpr((2.0, 1))
OUT_DTYPE = tl.float32


@triton.jit
def scale_constexpr(X, Y):
    offs = tl.arange(0, 8)
    tl.store(Y + offs, (tl.load(X + offs) * SCALE_CONSTEXPR * PAIR[0]).to(OUT_DTYPE))


@triton.jit
def scale_annotated(X, Y):
    offs = tl.arange(0, 8)
    tl.store(Y + offs, tl.load(X + offs) * SCALE_ANNOTATED)


@triton.jit
def block_plain(X, Y):
    offs = tl.arange(0, BLOCK_PLAIN)
    tl.store(Y + offs, tl.load(X + offs))


class ModelConstexpr(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        scale_constexpr[(1,)](x, y)
        return y


class ModelAnnotated(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        scale_annotated[(1,)](x, y)
        return y


class ModelPlainInt(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        block_plain[(1,)](x, y)
        return y


def get_inputs():
    return [torch.randn(8)]


def get_init_inputs():
    return []
