import torch
import torch.nn as nn


class Model(nn.Module):
    """Adds an fp16 and a bf16 tensor: torch computes in fp32."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return a + b


n = 300


def get_inputs():
    return [torch.randn(n).half(), (torch.randn(n) * 1000).bfloat16()]


def get_init_inputs():
    return []
