import torch
import torch.nn as nn
import triton
import triton.language as tl

# tl.cast(x, dtype, fp_downcast_rounding=...) as Triton 3.6's semantic.cast checks it (the
# interpreter raises the same ValueErrors): ignored where the types agree, 'rtne' (the default
# conversion) or 'rtz' on a float conversion to fewer bits, a ValueError elsewhere.


@triton.jit
def cast_kernel(X, Y, MODE: tl.constexpr):
    offs = tl.arange(0, 8)
    x = tl.load(X + offs)
    if MODE == 0:  # fp32 -> fp16, rounded to nearest even: the plain conversion
        y = tl.cast(x, tl.float16, fp_downcast_rounding="rtne").to(tl.float32)
    elif MODE == 1:  # fp32 -> fp32: no conversion, the rounding is not looked at
        y = x.to(tl.float32, fp_downcast_rounding="rtz")
    elif MODE == 2:  # int32 -> fp32 is no float downcast
        y = tl.cast(x.to(tl.int32), tl.float32, fp_downcast_rounding="rtne")
    elif MODE == 3:
        y = tl.cast(x, tl.float16, fp_downcast_rounding="up").to(tl.float32)
    else:  # round toward zero: not the conversion keq models
        y = tl.cast(x, tl.float16, fp_downcast_rounding="rtz").to(tl.float32)
    tl.store(Y + offs, y)


class ModelRtne(nn.Module):
    mode = 0

    def forward(self, x):
        y = torch.empty_like(x)
        cast_kernel[(1,)](x, y, MODE=self.mode)
        return y


class ModelSameType(ModelRtne):
    mode = 1


class ModelIntSource(ModelRtne):
    mode = 2


class ModelUnknownName(ModelRtne):
    mode = 3


class ModelRtz(ModelRtne):
    mode = 4


def get_inputs():
    return [torch.randn(8)]


def get_init_inputs():
    return []
