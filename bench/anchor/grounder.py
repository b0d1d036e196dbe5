"""PyTorch mirror of the project's grounder (src/models/grounder.ts,
glyphReader.ts, readLayers.ts, orderedMatch.ts): the same parameters, shapes
and forward, written as a PyTorch user would (convolutions as nn.Conv2d,
pooling as F.avg_pool2d / F.max_pool2d, the token table as nn.Embedding).
Images are NCHW, PyTorch's own layout."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import MASKED, MLP, Attention, Block, key_padding_mask

# Kinds of score map the gates weigh, and the pooled slots (grounder.ts SCORE_KINDS, SLOTS).
SCORE_KINDS = 6
SLOTS = ["role", "icon", "color", "position", "relation", "gate"]
POSITION_FEATURES = 5
RELATION_FEATURES = 7
EPS = 1e-6
WORST_MATCH = -8.0
NONE = -1e6


def safe_log(x: torch.Tensor) -> torch.Tensor:
    return torch.log(x + EPS)


class Grounder(nn.Module):
    def __init__(self, cfg: dict, k: dict):
        super().__init__()
        d, (c1, c2) = cfg["dim"], cfg["stem"]
        self.cfg, self.k = cfg, k
        self.rows, self.cols = k["canvasHeight"] // k["cell"], k["canvasWidth"] // k["cell"]
        self.cells = self.rows * self.cols
        letters, width = k["letterClasses"], cfg.get("rowWidth", 5)
        self.patch = nn.Conv2d(3, c1, 4, stride=4)
        self.conv = nn.Conv2d(c1, c2, 3, padding=1)
        self.proj = nn.Conv2d(c2, d, 2, stride=2)
        self.pos_row = nn.Parameter(torch.randn(self.rows, d) * 0.1)
        self.pos_col = nn.Parameter(torch.randn(self.cols, d) * 0.1)
        self.read_ln0 = nn.LayerNorm(d)
        self.read_row = nn.Conv2d(d, d, (1, width), padding=(0, width // 2))
        self.read_block = Block(d, cfg["heads"])
        self.read_ln = nn.LayerNorm(d)
        self.read_letters = nn.Linear(d, letters)
        self.read_role = nn.Linear(d, k["roleClasses"])
        self.read_icon = nn.Linear(d, k["iconClasses"])
        self.read_color = nn.Linear(d, k["colorClasses"])
        self.tok = nn.Embedding(cfg["vocabSize"], d)
        self.chars = nn.Linear(cfg["charLength"] * k["wordCharClasses"], d)
        self.text_pos = nn.Parameter(torch.randn(cfg["maxTokens"], d) * 0.1)
        self.text_blocks = nn.ModuleList(Block(d, cfg["heads"]) for _ in range(cfg["textLayers"]))
        self.text_ln = nn.LayerNorm(d)
        self.content = nn.Linear(d, 2)
        self.slots = nn.Linear(d, len(SLOTS))
        self.parse_role = nn.Linear(d, k["roleClasses"])
        self.parse_icon = nn.Linear(d, k["iconClasses"])
        self.parse_color = nn.Linear(d, k["colorClasses"])
        self.parse_position = nn.Linear(d, POSITION_FEATURES)
        self.parse_relation = nn.Linear(d, RELATION_FEATURES)
        self.parse_gate = nn.Linear(d, SCORE_KINDS)
        self.film = nn.Linear(d, 2 * d)
        self.fine_ln1 = nn.LayerNorm(d)
        self.fine_cross = Attention(d, cfg["heads"])
        self.fine_ln2 = nn.LayerNorm(d)
        self.fine_mlp = MLP(d, 2 * d)
        self.head_ln = nn.LayerNorm(d)
        self.head_q = nn.Linear(d, d)
        self.head_k = nn.Linear(d, d)
        self.head_bias = nn.Linear(d, 1)
        self.head_offset = nn.Linear(d, 2)
        self.blocks = nn.ModuleList(Block(d, cfg["heads"], cross=True) for _ in range(cfg["layers"]))
        g = cfg.get("glyphs")
        self.stride = k["glyphStride"]
        if g:
            # A 12×12 window every 2 px, centred on its glyph position: 4 px of reach before, 6 after.
            self.glyph_window = nn.Conv2d(1, g, 6 * self.stride, stride=self.stride)
            self.glyph_out = nn.Linear(g, letters)
            self.read_glyphs = nn.Linear(letters, letters)
            self.parse_spell = nn.Linear(d, 1)

    # Screens: pixels → cell features and the reading heads' logits.

    def to_regions(self, x: torch.Tensor) -> torch.Tensor:
        """[S, cells, d] → means of 2×2 cells [S, regions, d] (zero padding counted)."""
        s, _, d = x.shape
        grid = x.transpose(1, 2).reshape(s, d, self.rows, self.cols)
        grid = F.pad(grid, (0, self.cols % 2, 0, self.rows % 2))
        return F.avg_pool2d(grid, 2).flatten(2).transpose(1, 2)

    def from_regions(self, r: torch.Tensor) -> torch.Tensor:
        s, n, d = r.shape
        rr, rc = (self.rows + 1) // 2, (self.cols + 1) // 2
        grid = r.transpose(1, 2).reshape(s, d, rr, rc).repeat_interleave(2, 2).repeat_interleave(2, 3)
        return grid[:, :, : self.rows, : self.cols].flatten(2).transpose(1, 2)

    def region_mask(self, valid: torch.Tensor) -> torch.Tensor:
        return key_padding_mask(self.to_regions(valid[:, :, None])[:, :, 0] > 0)

    def read_glyph_logits(self, images: torch.Tensor) -> torch.Tensor:
        s = images.shape[0]
        cell = self.k["cell"]
        grey = images.mean(1, keepdim=True)
        local = F.avg_pool2d(F.pad(F.avg_pool2d(grey, cell), (1, 1, 1, 1), value=1.0), 3, stride=1)
        centred = (grey - local.repeat_interleave(cell, 2).repeat_interleave(cell, 3)) * 4
        reach = 2 * self.stride
        h = F.relu(self.glyph_window(F.pad(centred, (reach, reach + self.stride, reach, reach + self.stride))))
        return self.glyph_out(h.permute(0, 2, 3, 1)).reshape(s, -1, self.k["letterClasses"])

    def glyphs_near_cells(self, glyphs: torch.Tensor) -> torch.Tensor:
        s, _, k = glyphs.shape
        gr, gc = self.k["canvasHeight"] // self.stride, self.k["canvasWidth"] // self.stride
        probs = torch.softmax(glyphs, -1).transpose(1, 2).reshape(s, k, gr, gc)
        per_cell = F.max_pool2d(probs, self.k["cell"] // self.stride)
        near = F.max_pool2d(per_cell, (3, 11), stride=1, padding=(1, 5))
        return near.flatten(2).transpose(1, 2)

    def encode_screens(self, images: torch.Tensor, valid: torch.Tensor):
        s = images.shape[0]
        x = F.relu(self.conv(F.relu(self.patch(images))))
        pos = (self.pos_row[:, None, :] + self.pos_col[None, :, :]).reshape(self.cells, -1)
        x = self.proj(x).flatten(2).transpose(1, 2) + pos
        grid = self.read_ln0(x).transpose(1, 2).reshape(s, -1, self.rows, self.cols)
        x = x + F.relu(self.read_row(grid)).flatten(2).transpose(1, 2)
        r = self.read_block(self.to_regions(x), self.region_mask(valid))
        cells = self.read_ln(x + self.from_regions(r))
        letters = self.read_letters(cells)
        glyphs = None
        if self.cfg.get("glyphs"):
            glyphs = self.read_glyph_logits(images)
            letters = letters + self.read_glyphs(self.glyphs_near_cells(glyphs))
        return cells, letters, glyphs, self.read_role(cells), self.read_icon(cells), self.read_color(cells)

    # Instructions and matching.

    def encode_instruction(self, tokens: torch.Tensor, chars: torch.Tensor):
        b, t = tokens.shape
        valid = (tokens != self.k["pad"]).float()
        letters = F.one_hot(chars, self.k["wordCharClasses"]).float().reshape(b, t, -1)
        x = self.tok(tokens) + self.chars(letters) + self.text_pos
        mask = key_padding_mask(valid)
        for blk in self.text_blocks:
            x = blk(x, mask)
        return self.text_ln(x), valid

    def token_bags(self, chars: torch.Tensor) -> torch.Tensor:
        bag = F.one_hot(chars, self.k["wordCharClasses"]).float().sum(2).clamp(max=1)
        bag[..., 0] = 0
        return bag

    def cell_coordinates(self, valid: torch.Tensor):
        grid = valid.reshape(-1, self.rows, self.cols)
        cols, rows = grid[:, 0, :].sum(1), grid[:, :, 0].sum(1)
        col = (torch.arange(self.cols) + 0.5).repeat(self.rows)[None]
        row = (torch.arange(self.rows) + 0.5).repeat_interleave(self.cols)[None]
        return col / cols.clamp(min=1)[:, None] * 2 - 1, row / rows.clamp(min=1)[:, None] * 2 - 1

    @staticmethod
    def bag_log_likelihood(log_p, log_q, want):
        return ((log_p @ want[:, :, None]) + (log_q @ (1 - want)[:, :, None]))[:, :, 0] / log_p.shape[2]

    @staticmethod
    def class_match(probs, q):
        return safe_log(probs @ torch.softmax(q, -1)[:, :, None])[:, :, 0]

    @staticmethod
    def soft_union(weights, bags):
        return 1 - torch.exp(safe_log(1 - weights[:, :, None] * bags).sum(1))

    def spelled_cells(self, glyphs, letters, after_space):
        """The in-order match of the target's letters (orderedMatch.ts); no gradient, as in the project."""
        with torch.no_grad():
            b, n = letters.shape
            gr, gc = self.k["canvasHeight"] // self.stride, self.k["canvasWidth"] // self.stride
            per_char = (torch.log_softmax(glyphs, -1) @ F.one_hot(letters, glyphs.shape[2]).float().transpose(1, 2)).reshape(b, gr, gc, n)
            present = (letters > 0).float()

            def shift(x, d):
                return F.pad(x[:, :, : x.shape[2] - d], (d, 0), value=NONE)

            score = per_char[..., 0]
            for i in range(1, n):
                w2 = torch.maximum(score, shift(score, 1))
                w4 = torch.maximum(w2, shift(w2, 2))
                w6 = torch.maximum(w4, shift(w2, 4))
                space = after_space[:, i, None, None]
                nxt = shift(w4 + (w6 - w4) * space, 1) + per_char[..., i]
                here = present[:, i, None, None]
                score = nxt * here + score * (1 - here)
            runs = (score / present.sum(1).clamp(min=1)[:, None, None]).clamp(WORST_MATCH, 0)
            grid = F.max_pool2d(runs[:, None], self.k["cell"] // self.stride)
            return grid.reshape(b, self.cells) * (letters[:, :1] > 0).float()

    def forward(self, images, tokens, chars, valid, spell_letters, spell_after_space):
        cells, r_letters, glyphs, r_role, r_icon, r_color = self.encode_screens(images, valid)
        b, d = tokens.shape[0], self.cfg["dim"]
        text, text_valid = self.encode_instruction(tokens, chars)
        pooled = (text * text_valid[:, :, None]).sum(1) / text_valid.sum(1, keepdim=True).clamp(min=1)
        content = torch.sigmoid(self.content(text)) * text_valid[:, :, None]
        bags = self.token_bags(chars)
        scores = self.slots(text) + ((1 - text_valid) * MASKED)[:, :, None]
        slots = torch.softmax(scores.transpose(1, 2), -1) @ text
        slot = {name: slots[:, i] for i, name in enumerate(SLOTS)}
        p = torch.sigmoid(r_letters)
        log_p, log_q = safe_log(p), safe_log(1 - p)
        s_text = self.bag_log_likelihood(log_p, log_q, self.soft_union(content[..., 0], bags))
        s_role = self.class_match(torch.softmax(r_role, -1), self.parse_role(slot["role"]))
        s_icon = self.class_match(torch.softmax(r_icon, -1), self.parse_icon(slot["icon"]))
        s_color = self.class_match(torch.softmax(r_color, -1), self.parse_color(slot["color"]))
        x, y = self.cell_coordinates(valid)
        pos_w = self.parse_position(slot["position"])
        s_position = (pos_w[:, :, None] * torch.stack([x, y, x * x, y * y, x * y], 1)).sum(1)
        padding = (1 - valid) * MASKED
        anchor_log = torch.log_softmax(self.bag_log_likelihood(log_p, log_q, self.soft_union(content[..., 1], bags)) * 40 + padding, -1)
        anchor = anchor_log.exp()
        dx, dy = x - (anchor * x).sum(1, keepdim=True), y - (anchor * y).sum(1, keepdim=True)
        smooth_abs = lambda v: torch.sqrt(v * v + 1e-4)  # noqa: E731
        rel = torch.stack([dx, dy, dx * dx, dy * dy, smooth_abs(dx), smooth_abs(dy), anchor_log.clamp(min=-10) / 10], 1)
        s_relation = (self.parse_relation(slot["relation"])[:, :, None] * rel).sum(1)
        gates = torch.exp(self.parse_gate(slot["gate"]).clamp(-6, 3))
        maps = torch.stack([s_text, s_role, s_icon, s_color, s_position, s_relation], 1)
        matched = (gates[:, :, None] * maps).sum(1)
        if glyphs is not None:
            spell_gate = torch.exp(self.parse_spell(slot["gate"]).clamp(-6, 3)) + 1
            matched = matched + spell_gate * self.spelled_cells(glyphs, spell_letters, spell_after_space)
        gamma, beta = self.film(pooled)[:, None].split(d, -1)
        h0 = cells * (gamma + 1) + beta
        text_mask = key_padding_mask(text_valid)
        reg = self.to_regions(h0)
        region_mask = self.region_mask(valid)
        for blk in self.blocks:
            reg = blk(reg, region_mask, text, text_mask)
        h = h0 + self.from_regions(reg)
        h = h + self.fine_cross(self.fine_ln1(h), text, text_mask)
        h = self.head_ln(h + self.fine_mlp(self.fine_ln2(h)))
        residual = (self.head_q(pooled)[:, None] * self.head_k(h)).sum(2) / math.sqrt(d) + self.head_bias(h)[:, :, 0]
        logits = matched + residual + padding
        offsets = torch.sigmoid(self.head_offset(h))
        attended = (torch.softmax(logits, -1)[:, :, None] * h).sum(1)
        return logits, offsets, torch.cat([pooled, attended], 1)
