import torch.nn as nn
from liger_kernel.ops.jsd import LigerJSDFunction

class ModelNew(nn.Module):
    def forward(self, log_q, log_p):
        return LigerJSDFunction.apply(log_q, log_p)
