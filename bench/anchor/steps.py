"""The three training steps the bench times, on random inputs of the
project's shapes and dtypes (a step's time does not depend on pixel or
token values): grounder SFT, planner SFT and planner GRPO. Each `make_*`
prepares its batches first, as the project's bench does, and returns a
step function taking one work item (the shapes the project's step ran)."""
import copy
import math

import torch
import torch.nn.functional as F

from grounder import Grounder
from planner import Planner


def grounder_inputs(n: int, cfg: dict, k: dict, g: torch.Generator):
    """One batch: images NCHW in [0, 1], tokens (bos first, padding after), word letters, web-screen validity, spelled target."""
    h, w, cell = k["canvasHeight"], k["canvasWidth"], k["cell"]
    rows, cols = h // cell, w // cell
    t, length = cfg["maxTokens"], cfg["charLength"]
    images = torch.rand(n, 3, h, w, generator=g)
    tokens = torch.full((n, t), k["pad"], dtype=torch.long)
    chars = torch.zeros(n, t, length, dtype=torch.long)
    letters = torch.zeros(n, k["spellLetters"], dtype=torch.long)
    for i in range(n):
        used = int(torch.randint(4, t - 4, (1,), generator=g))
        tokens[i, 0] = k["bos"]
        tokens[i, 1:used] = torch.randint(7, cfg["vocabSize"], (used - 1,), generator=g)
        chars[i, 1:used, :5] = torch.randint(1, k["wordCharClasses"], (used - 1, 5), generator=g)
        spelled = int(torch.randint(1, k["spellLetters"], (1,), generator=g))
        letters[i, :spelled] = torch.randint(1, k["letterClasses"], (spelled,), generator=g)
    after_space = (torch.rand(n, k["spellLetters"], generator=g) < 0.2).float()
    grid = torch.zeros(rows, cols)
    grid[: math.ceil(k["screenHeight"] / cell), : math.ceil(k["screenWidth"] / cell)] = 1
    valid = grid.reshape(1, -1).repeat(n, 1)
    return images, tokens, chars, valid, letters, after_space


def make_grounder_sft(cfg: dict, k: dict, g: torch.Generator, lr: float, work: list[dict]):
    model = Grounder(cfg, k)
    opt = torch.optim.Adam(model.parameters(), lr=lr, eps=1e-7)
    cells = (k["canvasHeight"] // k["cell"]) * (k["canvasWidth"] // k["cell"])
    batches = {}
    for w in work:
        n = w["batch"]
        if n not in batches:
            target = torch.zeros(n, cells)
            for i in range(n):
                box = torch.randint(0, cells - 3, (1,), generator=g)
                target[i, box : box + 3] = torch.tensor([0.25, 0.5, 0.25])
            batches[n] = (grounder_inputs(n, cfg, k, g), target, torch.rand(n, cells, 2, generator=g))

    def step(w: dict) -> float:
        inputs, cell_t, offset_t = batches[w["batch"]]
        logits, offsets, _ = model(*inputs)
        cell = -(cell_t * torch.log_softmax(logits, -1)).sum(1)
        offset = (((offsets - offset_t) ** 2).sum(2) * cell_t).sum(1)
        loss = cell.mean() + offset.mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.item()

    return model, step


def planner_batch(n: int, prompt_length: int, cfg: dict, k: dict, g: torch.Generator):
    """Prompts left-padded to `prompt_length` (bos first), completions right-padded to C with eos."""
    c = cfg["completionLength"]
    prompt = torch.full((n, prompt_length), k["pad"], dtype=torch.long)
    completion = torch.full((n, c), k["pad"], dtype=torch.long)
    for i in range(n):
        used = int(torch.randint(prompt_length * 3 // 4, prompt_length + 1, (1,), generator=g))
        prompt[i, prompt_length - used] = k["bos"]
        prompt[i, prompt_length - used + 1 :] = torch.randint(7, cfg["vocabSize"], (used - 1,), generator=g)
        written = int(torch.randint(4, c // 2, (1,), generator=g))
        completion[i, :written] = torch.randint(7, cfg["vocabSize"], (written,), generator=g)
        completion[i, written] = k["eos"]
    return prompt, completion


def copy_marks(n: int, cfg: dict, g: torch.Generator) -> torch.Tensor:
    """Copy marks [n, C, V] as sparse as a real batch's (a few tokens at the positions inside a quote)."""
    return (torch.rand(n, cfg["completionLength"], cfg["vocabSize"], generator=g) < 0.001).float()


def make_planner_sft(cfg: dict, k: dict, g: torch.Generator, lr: float, clip: float, work: list[dict]):
    model = Planner(cfg, k["pad"])
    opt = torch.optim.Adam(model.parameters(), lr=lr, eps=1e-7)
    batches = {(w["batch"], w["promptLength"]): None for w in work}
    for key in batches:
        batches[key] = (*planner_batch(key[0], key[1], cfg, k, g), copy_marks(key[0], cfg, g))

    def step(w: dict) -> float:
        prompt, completion, marks = batches[(w["batch"], w["promptLength"])]
        mask = (completion != k["pad"]).float()
        loss = -(model.log_probs(prompt, completion, marks) * mask).sum() / mask.sum().clamp(min=1)
        opt.zero_grad()
        loss.backward()
        if clip > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        opt.step()
        return loss.item()

    return model, step


def grpo_loss(logp, logp_old, logp_ref, adv, mask, beta: float, eps: float) -> torch.Tensor:
    ratio = torch.exp(logp - logp_old)
    a = adv[:, None]
    policy = -torch.minimum(ratio * a, ratio.clamp(1 - eps, 1 + eps) * a)
    d = logp_ref - logp
    per_token = (policy + beta * (torch.exp(d) - d - 1)) * mask
    return (per_token.sum(1) / mask.sum(1).clamp(min=1)).mean()


def make_planner_grpo(cfg: dict, gcfg: dict, k: dict, g: torch.Generator, lr: float, work: list[dict]):
    model = Planner(cfg, k["pad"])
    reference = copy.deepcopy(model).requires_grad_(False)
    grounder = Grounder(gcfg, k).requires_grad_(False)
    opt = torch.optim.Adam(model.parameters(), lr=lr, eps=1e-7)
    c, pool = cfg["completionLength"], k["poolBatch"]
    # One prompt per group: the project runs each state's prompt once for its G samples.
    prompts = {(w["rows"] // w["groupSize"], w["promptLength"]): None for w in work}
    for key in prompts:
        prompts[key] = planner_batch(key[0], key[1], cfg, k, g)[0]
    pool_inputs = grounder_inputs(pool, gcfg, k, g) if any(w["groundedQueries"] > 0 for w in work) else None
    banned = [k["pad"], k["bos"], k["sep"]]

    def step(w: dict) -> float:
        n, group = w["rows"], w["groupSize"]
        prompt = prompts[(n // group, w["promptLength"])]
        marks = copy_marks(n, cfg, g)
        tokens, logp_old_gen = model.sample(prompt, w["decodeSteps"], k["temperature"], banned, group, marks)
        completion = torch.full((n, c), k["pad"], dtype=torch.long)
        completion[:, : tokens.shape[1]] = tokens
        logp_old = F.pad(logp_old_gen, (0, c - tokens.shape[1]))
        # The reward pool's neural grounder on the instructions that parsed, in fixed-size chunks as
        # the project runs it (greedy cell and its mass); the verifier and the reward rules are not mirrored.
        with torch.no_grad():
            for _ in range(math.ceil(w["groundedQueries"] / pool)):
                logits, offsets, _ = grounder(*pool_inputs)
                torch.softmax(logits, -1).max(1)
        rewards = torch.rand(n, generator=g).view(-1, group)
        adv = ((rewards - rewards.mean(1, keepdim=True)) / (rewards.std(1, keepdim=True) + 1e-4)).view(-1)
        mask = (completion != k["pad"]).float()
        with torch.no_grad():
            logp_ref = reference.group_log_probs(prompt, completion, group, marks)
        logp = model.group_log_probs(prompt, completion, group, marks)
        loss = grpo_loss(logp, logp_old, logp_ref, adv, mask, k["beta"], k["epsilon"])
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.item()

    return model, step
