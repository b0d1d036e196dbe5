"""Building blocks shared by the two PyTorch mirrors: pre-norm transformer
blocks written the way a PyTorch user writes them (nn.Linear, nn.LayerNorm),
with the project's shapes: 4·d MLP with tanh-GELU, additive masks."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

# The project's additive mask value (src/models/layers.ts MASKED).
MASKED = -1e9


class Attention(nn.Module):
    def __init__(self, dim: int, heads: int, kv_dim: int | None = None):
        super().__init__()
        kv_dim = dim if kv_dim is None else kv_dim
        self.heads = heads
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(kv_dim, dim)
        self.v = nn.Linear(kv_dim, dim)
        self.o = nn.Linear(dim, dim)

    def split(self, x: torch.Tensor) -> torch.Tensor:
        b, t, d = x.shape
        return x.view(b, t, self.heads, d // self.heads).transpose(1, 2)

    def forward(self, xq: torch.Tensor, xkv: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        b, tq, d = xq.shape
        q, k, v = self.split(self.q(xq)), self.split(self.k(xkv)), self.split(self.v(xkv))
        scores = q @ k.transpose(-1, -2) / math.sqrt(d // self.heads)
        if mask is not None:
            scores = scores + mask
        out = torch.softmax(scores, -1) @ v
        return self.o(out.transpose(1, 2).reshape(b, tq, d))


class MLP(nn.Module):
    def __init__(self, dim: int, hidden: int):
        super().__init__()
        self.fc = nn.Linear(dim, hidden)
        self.proj = nn.Linear(hidden, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.proj(F.gelu(self.fc(x), approximate="tanh"))


class Block(nn.Module):
    """Self-attention, optional cross-attention to a memory, MLP; pre-norm."""

    def __init__(self, dim: int, heads: int, cross: bool = False):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = Attention(dim, heads)
        self.lnx = nn.LayerNorm(dim) if cross else None
        self.cross = Attention(dim, heads) if cross else None
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = MLP(dim, 4 * dim)

    def forward(self, x, self_mask=None, memory=None, memory_mask=None):
        a = self.ln1(x)
        h = x + self.attn(a, a, self_mask)
        if self.cross is not None and memory is not None:
            h = h + self.cross(self.lnx(h), memory, memory_mask)
        return h + self.mlp(self.ln2(h))


def key_padding_mask(valid: torch.Tensor) -> torch.Tensor:
    """[B, T] 1/0 validity → additive [B, 1, 1, T]."""
    return ((1 - valid.float()) * MASKED)[:, None, None, :]


def causal_mask(t: int) -> torch.Tensor:
    return torch.triu(torch.full((t, t), MASKED), diagonal=1)[None, None]
