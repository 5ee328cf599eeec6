import torch
import torch.nn as nn
from liger_kernel.ops.qwen2vl_mrope import LigerQwen2VLMRopeFunction

def sections(half):
    t = half // 4 + 1
    h = half // 4
    return [t, h, half - t - h]

class ModelNew(nn.Module):
    def forward(self, q, k, cos_half, sin_half):
        cos = torch.cat((cos_half, cos_half), dim=-1)
        sin = torch.cat((sin_half, sin_half), dim=-1)
        return LigerQwen2VLMRopeFunction.apply(q, k, cos, sin, sections(cos_half.shape[-1]))
