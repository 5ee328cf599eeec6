import torch.nn as nn
from liger_kernel.ops.kl_div import LigerKLDivLossFunction

class ModelNew(nn.Module):
    def forward(self, y_pred, y_true):
        return LigerKLDivLossFunction.apply(y_pred, y_true, "batchmean", False, 1e-10)
