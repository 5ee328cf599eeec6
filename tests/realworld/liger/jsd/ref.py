import torch
import torch.nn as nn

batch_size = 4
vocab = 64

class Model(nn.Module):
    """Generalized Jensen-Shannon divergence (beta = 0.5) of log-probabilities, averaged over
    the batch: beta * KL(P || M) + (1 - beta) * KL(Q || M), M = beta * P + (1 - beta) * Q."""
    def forward(self, log_q, log_p):
        beta = 0.5
        p, q = log_p.exp(), log_q.exp()
        log_m = torch.log(beta * p + (1 - beta) * q)
        loss = beta * p * (log_p - log_m) + (1 - beta) * q * (log_q - log_m)
        return loss.sum() / log_q.shape[0]

def get_inputs():
    return [torch.randn(batch_size, vocab).log_softmax(dim=-1), torch.randn(batch_size, vocab).log_softmax(dim=-1)]

def get_init_inputs():
    return []
