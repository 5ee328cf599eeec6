import torch.nn as nn
from liger_kernel.ops.fused_linear_jsd import LigerFusedLinearJSDFunction

class ModelNew(nn.Module):
    def __init__(self, hidden, vocab):
        super().__init__()
        self.student_head = nn.Linear(hidden, vocab, bias=False)
        self.teacher_head = nn.Linear(hidden, vocab, bias=False)

    def forward(self, student_x, teacher_x):
        return LigerFusedLinearJSDFunction.apply(
            student_x, self.student_head.weight, teacher_x, self.teacher_head.weight)
