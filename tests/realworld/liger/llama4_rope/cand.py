import torch
import torch.nn as nn
from liger_kernel.ops.llama4_rope import LigerLlama4RopeFunction

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q, k, freqs):
        return LigerLlama4RopeFunction.apply(q, k, freqs)
