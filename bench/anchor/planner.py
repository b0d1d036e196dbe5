"""PyTorch mirror of the project's planner (src/models/planner.ts): a GPT
decoder with tied input/output embeddings (nn.Embedding), learned
positions counted back from the prompt's end, key/value-cached sampling,
and the copy gate (a bonus softplus(h·w + b + offset) on marked tokens'
logits; the marks are a [B, C, V] 0/1 tensor the caller gives), as a
PyTorch user writes one."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import Block, causal_mask, key_padding_mask


class Planner(nn.Module):
    def __init__(self, cfg: dict, pad: int):
        super().__init__()
        self.cfg, self.pad = cfg, pad
        d = cfg["dim"]
        self.tok = nn.Embedding(cfg["vocabSize"], d)
        self.pos = nn.Parameter(torch.randn(cfg["promptLength"] + cfg["completionLength"], d) * 0.05)
        self.blocks = nn.ModuleList(Block(d, cfg["heads"]) for _ in range(cfg["layers"]))
        self.ln_f = nn.LayerNorm(d)
        # The project's gate starts at a bonus of 3 (planner.ts COPY_GATE_START).
        self.copy = nn.Linear(d, 1) if cfg.get("copyGate") else None
        self.copy_offset = math.log(math.expm1(3.0))

    def positions(self, prompt_tokens: int, length: int) -> torch.Tensor:
        start = self.cfg["promptLength"] - prompt_tokens
        return self.pos[start : start + length]

    def unembed(self, h: torch.Tensor, marks: torch.Tensor | None = None) -> torch.Tensor:
        logits = h @ self.tok.weight.t()
        if self.copy is not None and marks is not None:
            logits = logits + F.softplus(self.copy(h) + self.copy_offset) * marks
        return logits

    def hidden(self, seq: torch.Tensor, prompt_tokens: int) -> torch.Tensor:
        s = seq.shape[1]
        mask = causal_mask(s) + key_padding_mask(seq != self.pad)
        x = self.tok(seq) + self.positions(prompt_tokens, s)
        for blk in self.blocks:
            x = blk(x, mask)
        return self.ln_f(x)

    def log_probs(self, prompt: torch.Tensor, completion: torch.Tensor, marks: torch.Tensor | None = None) -> torch.Tensor:
        """log π(completion_t | …) [B, C]; only the C predicting positions go through the output product."""
        pl, c = prompt.shape[1], completion.shape[1]
        h = self.hidden(torch.cat([prompt, completion], 1), pl)
        logits = self.unembed(h[:, pl - 1 : pl - 1 + c], marks)
        return torch.log_softmax(logits, -1).gather(2, completion[:, :, None])[:, :, 0]

    def group_log_probs(self, prompt: torch.Tensor, completion: torch.Tensor, group: int, marks: torch.Tensor | None = None) -> torch.Tensor:
        """log_probs for completion row i under prompt row i // group: each prompt runs once, its keys and values repeated for its group."""
        u, pl = prompt.shape
        c = completion.shape[1]
        pad_mask = key_padding_mask(prompt != self.pad)
        cache: list = [None] * len(self.blocks)
        x = self.tok(prompt) + self.positions(pl, pl)
        for i, blk in enumerate(self.blocks):
            x = self._layer(blk, x, cache, i, causal_mask(pl) + pad_mask)
        cache = [(k.repeat_interleave(group, 0), v.repeat_interleave(group, 0)) for k, v in cache]
        first = x[:, -1:].repeat_interleave(group, 0)
        mask = torch.cat([pad_mask.repeat_interleave(group, 0).expand(-1, 1, c, pl), (causal_mask(c) + key_padding_mask(completion != self.pad)).expand(-1, 1, c, c)], 3)
        y = self.tok(completion) + self.pos[self.cfg["promptLength"] : self.cfg["promptLength"] + c]
        for i, blk in enumerate(self.blocks):
            y = self._layer(blk, y, cache, i, mask)
        logits = self.unembed(self.ln_f(torch.cat([first, y[:, : c - 1]], 1)), marks)
        return torch.log_softmax(logits, -1).gather(2, completion[:, :, None])[:, :, 0]

    def _layer(self, blk: Block, x: torch.Tensor, cache: list, i: int, mask: torch.Tensor | None) -> torch.Tensor:
        a = blk.ln1(x)
        att = blk.attn
        q, k, v = att.split(att.q(a)), att.split(att.k(a)), att.split(att.v(a))
        if cache[i] is not None:
            k, v = torch.cat([cache[i][0], k], 2), torch.cat([cache[i][1], v], 2)
        cache[i] = (k, v)
        scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
        if mask is not None:
            scores = scores + mask
        b, t = x.shape[:2]
        h = x + att.o((torch.softmax(scores, -1) @ v).transpose(1, 2).reshape(b, t, -1))
        return h + blk.mlp(blk.ln2(h))

    @torch.no_grad()
    def sample(self, prompt: torch.Tensor, steps: int, temperature: float, banned: list[int], group: int = 1, marks: torch.Tensor | None = None):
        """`steps` tokens for each of `group` rows per prompt, drawn at `temperature` with a key/value cache (the prompt runs once per group); their temperature-1 log-probs."""
        pl = prompt.shape[1]
        b = prompt.shape[0] * group
        cache: list = [None] * len(self.blocks)
        pad_mask = key_padding_mask(prompt != self.pad)
        x = self.tok(prompt) + self.positions(pl, pl)
        for i, blk in enumerate(self.blocks):
            x = self._layer(blk, x, cache, i, causal_mask(pl) + pad_mask)
        cache = [(k.repeat_interleave(group, 0), v.repeat_interleave(group, 0)) for k, v in cache]
        pad_mask = pad_mask.repeat_interleave(group, 0)
        logits = self.unembed(self.ln_f(x[:, -1:])).repeat_interleave(group, 0)
        logits = logits[:, 0]
        tokens, logps = [], []
        # Generated keys are never padding: the prompt's padding mask, widened by the new positions.
        for t in range(steps):
            logits[:, banned] = -math.inf
            ids = torch.multinomial(torch.softmax(logits / temperature, -1), 1)
            tokens.append(ids)
            logps.append(torch.log_softmax(logits, -1).gather(1, ids))
            if t == steps - 1:
                break
            x = self.tok(ids) + self.pos[self.cfg["promptLength"] + t][None, None]
            mask = torch.cat([pad_mask, torch.zeros(b, 1, 1, t + 1)], 3)
            for i, blk in enumerate(self.blocks):
                x = self._layer(blk, x, cache, i, mask)
            logits = self.unembed(self.ln_f(x[:, -1:]), None if marks is None else marks[:, t + 1 : t + 2])[:, 0]
        return torch.cat(tokens, 1), torch.cat(logps, 1)
