import torch
import torch.nn as nn

batch_size = 4
hidden = 8
vocab = 32

class Model(nn.Module):
    """Distillation loss over two LM heads: the generalized Jensen-Shannon divergence
    (beta = 0.5, temperature 1) between the student's and the teacher's token distributions,
    beta * KL(P || M) + (1 - beta) * KL(Q || M) with M = beta * P + (1 - beta) * Q (P the
    teacher's, Q the student's), summed over the vocabulary and averaged over the tokens."""
    def __init__(self, hidden, vocab):
        super().__init__()
        self.student_head = nn.Linear(hidden, vocab, bias=False)
        self.teacher_head = nn.Linear(hidden, vocab, bias=False)

    def forward(self, student_x, teacher_x):
        beta = 0.5
        log_q = self.student_head(student_x).float().log_softmax(dim=-1)
        log_p = self.teacher_head(teacher_x).float().log_softmax(dim=-1)
        p, q = log_p.exp(), log_q.exp()
        log_m = torch.log(beta * p + (1 - beta) * q)
        loss = beta * p * (log_p - log_m) + (1 - beta) * q * (log_q - log_m)
        return loss.sum() / student_x.shape[0]

def get_inputs():
    return [torch.randn(batch_size, hidden), torch.randn(batch_size, hidden)]

def get_init_inputs():
    return [hidden, vocab]
