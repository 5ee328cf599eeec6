import torch.nn as nn
from liger_kernel.ops.grpo_loss import GrpoLossFunction

class ModelNew(nn.Module):
    def __init__(self, temperature=1.0, beta=0.04, eps_low=0.2, eps_high=0.2):
        super().__init__()
        self.temperature, self.beta, self.eps_low, self.eps_high = temperature, beta, eps_low, eps_high

    def forward(self, logits, old_logp, ref_logp, completion_ids, advantages):
        loss, _, _ = GrpoLossFunction.apply(
            logits, old_logp, ref_logp, completion_ids, advantages, None,
            self.temperature, self.beta, self.eps_low, self.eps_high, False)
        return loss
