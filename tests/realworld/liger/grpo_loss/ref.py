import torch
import torch.nn as nn

batch_size = 2
completion_len = 3
vocab = 16

class Model(nn.Module):
    """GRPO's clipped surrogate loss with a KL penalty (DeepSeekMath; TRL's GRPOTrainer, token
    level): per-token log-probabilities of the completion under logits[:, :-1] / temperature,
    ratio r = exp(logp - old_logp), loss -min(r A, clamp(r, 1 - eps_low, 1 + eps_high) A) +
    beta (exp(ref - logp) - (ref - logp) - 1), averaged over each sequence, then the batch."""
    def __init__(self, temperature=1.0, beta=0.04, eps_low=0.2, eps_high=0.2):
        super().__init__()
        self.temperature, self.beta, self.eps_low, self.eps_high = temperature, beta, eps_low, eps_high

    def forward(self, logits, old_logp, ref_logp, completion_ids, advantages):
        logp_all = torch.log_softmax(logits[:, :-1].float() / self.temperature, dim=-1)
        logp = torch.gather(logp_all, -1, completion_ids.unsqueeze(-1)).squeeze(-1)
        ratio = torch.exp(logp - old_logp)
        clipped = torch.clamp(ratio, 1 - self.eps_low, 1 + self.eps_high)
        a = advantages.unsqueeze(-1)
        loss = -torch.minimum(ratio * a, clipped * a)
        loss = loss + self.beta * (torch.exp(ref_logp - logp) - (ref_logp - logp) - 1)
        return loss.mean(-1).mean()

def get_inputs():
    return [torch.randn(batch_size, completion_len + 1, vocab), torch.randn(batch_size, completion_len),
            torch.randn(batch_size, completion_len), torch.randint(0, vocab, (batch_size, completion_len)),
            torch.randn(batch_size)]

def get_init_inputs():
    return []
