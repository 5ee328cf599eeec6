import torch.nn as nn
from flash_attn.losses.cross_entropy import CrossEntropyLoss


class ModelNew(nn.Module):
    def __init__(self, lse_square_scale):
        super().__init__()
        self.loss = CrossEntropyLoss(reduction="none", lse_square_scale=lse_square_scale,
                                     return_z_loss=True)

    def forward(self, logits, target):
        return self.loss(logits, target)
