import torch.nn as nn
from liger_kernel.ops.tvd import LigerTVDLossFunction

class ModelNew(nn.Module):
    def forward(self, p, q):
        return LigerTVDLossFunction.apply(p, q)
