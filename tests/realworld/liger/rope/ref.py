import torch
import torch.nn as nn

batch_size = 2
heads = 4
seq = 8
half_dim = 8

def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)

class Model(nn.Module):
    """Rotary position embedding as Hugging Face's apply_rotary_pos_emb, on q and k, with cos
    and sin built as cat(f, f) from half-width tables."""
    def forward(self, q, k, cos_half, sin_half):
        cos = torch.cat((cos_half, cos_half), dim=-1).unsqueeze(0)
        sin = torch.cat((sin_half, sin_half), dim=-1).unsqueeze(0)
        c, s = cos.unsqueeze(1), sin.unsqueeze(1)
        return q * c + rotate_half(q) * s, k * c + rotate_half(k) * s

def get_inputs():
    return [torch.randn(batch_size, heads, seq, 2 * half_dim), torch.randn(batch_size, heads, seq, 2 * half_dim),
            torch.randn(seq, half_dim), torch.randn(seq, half_dim)]

def get_init_inputs():
    return []
