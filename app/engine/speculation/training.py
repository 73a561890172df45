"""Train a model's draft head: the model answers a prompt set, and the head learns to follow its features.

Self-distillation, run where the whole model is (the admin's machine, where the worker's shard is cut):
1. the model answers every training prompt greedily and once more sampled (T = 0.8, top-p 0.95);
2. generation records the final feature h_t of every position it runs, and the model's own argmax a_t
   follows from it — the argmax, not the text, is what greedy verification accepts;
3. the head learns (h_t, x_{t+1}) → h_{t+1} and a_{t+1}, unrolled ``unroll`` steps on its own predicted
   features (with input noise) so a chain of drafts does not drift off the features it was trained on —
   EAGLE-3's training-time test; its first step also reads r_{t+1}, the root's feature after the first
   ``fuse_layer`` layers, which the workstation computes before drafting (``head.py``).
Prompts are held out by whole answers, and the held-out figures go into the file's metadata.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import torch

from app.engine.speculation.answers import Answer, AnswerRecipe, load_answers, prompts_digest, save_answers
from app.engine.speculation.head import DraftHead
from app.engine.speculation.head_file import HeadInfo
from app.jobs import CancelFlag, Progress, raise_if_cancelled
from app.resources import DRAFT_PROMPTS


@dataclass(frozen=True)
class TrainConfig:
    new_tokens: int = 128  # tokens per answer
    sampled_answers: int = 1  # sampled answers per prompt beside the greedy one (more prompts beat more samples)
    inner_size: int = 1024
    vocab_size: int = 8192  # the draft's vocabulary: the model's most frequent outputs
    epochs: int = 6
    unroll: int = 4  # steps trained on the head's own features; with 2, depths 3-4 drifted to ~0.25
    batch_size: int = 256
    learning_rate: float = 1e-3
    feature_loss: float = 0.1  # weight of matching the next feature, beside predicting the next token
    noise: float = 0.05
    held_out: float = 0.1  # share of answers kept out of training, for the reported accuracy
    generate_batch: int = 64  # on a CPU, larger batches answer faster
    seed: int = 0
    # The root's feature after this many layers joins the first step (None: the embedding alone). 2 is the
    # default split's head: offline, on 400 answers, it took the first drafted token from 0.376 to 0.412.
    fuse_layer: int | None = 2


def load_training_prompts(path: Path = DRAFT_PROMPTS) -> list[list[dict]]:
    """Each prompt as a one-message conversation."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    prompts = [[{"role": "user", "content": p["content"]}] for p in data["prompts"]]
    if not prompts:
        raise ValueError(f"{path} holds no prompts")
    return prompts


def answer_prompts(
    model,
    tokenizer,
    prompts: Sequence[list[dict]],
    config: TrainConfig,
    stop_ids: set[int],
    progress: Progress,
    cancel: CancelFlag | None = None,
) -> list[Answer]:
    """The model's answers with their features: greedy, then ``sampled_answers`` sampled passes.

    Batches group prompts of similar length (less padding to compute); answers come back in prompt order.
    """
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    texts = [tokenizer.apply_chat_template(p, tokenize=False, add_generation_prompt=True) for p in prompts]
    by_length = sorted(range(len(texts)), key=lambda i: len(tokenizer(texts[i])["input_ids"]))
    passes = [False] + [True] * config.sampled_answers
    total = len(passes) * len(texts)
    answers: list[Answer] = []
    tokenizer.padding_side = "left"
    torch.manual_seed(config.seed)
    for sampled in passes:
        done: dict[int, Answer] = {}
        for start in range(0, len(texts), config.generate_batch):
            raise_if_cancelled(cancel)
            batch = by_length[start : start + config.generate_batch]
            encoded = tokenizer([texts[i] for i in batch], return_tensors="pt", padding=True).to(model.device)
            rows = answer_batch(model, encoded["input_ids"], encoded["attention_mask"], config, stop_ids, pad, sampled)
            done.update(zip(batch, rows, strict=True))
            progress("answering training prompts", (len(answers) + len(done)) / total)
        answers.extend(done[i] for i in range(len(texts)))
    return answers


@torch.inference_mode()
def answer_batch(
    model,
    input_ids: torch.Tensor,
    attention_mask: torch.Tensor,
    config: TrainConfig,
    stop_ids: set[int],
    pad_id: int,
    sampled: bool,
) -> list[Answer]:
    """Answer one left-padded batch, keeping each position's features as generation computes them.

    Forward hooks on the final norm (and on layer ``fuse_layer``) record every position the model runs —
    the prompt in the first call, then one token a call — so no second pass over the answers is needed:
    that pass took as long as answering. The last token an answer ends on is never run, so it is dropped.
    A hook on the LM head keeps the argmax of the logits generation computes anyway (the raw logits, before
    any sampling setting); only the prompt's other positions need the LM head applied again.
    """
    decoder = model.get_decoder()
    final: list[torch.Tensor] = []
    early: list[torch.Tensor] = []

    def keep(into: list[torch.Tensor]):
        def hook(_module, _inputs, output):
            state = output[0] if isinstance(output, tuple) else output
            into.append(state.detach())

        return hook

    chosen: list[torch.Tensor] = []

    def keep_argmax(_module, _inputs, logits):
        chosen.append(logits[:, -1].argmax(-1, keepdim=True))

    lm_head = model.get_output_embeddings()
    handles = [decoder.norm.register_forward_hook(keep(final)), lm_head.register_forward_hook(keep_argmax)]
    if config.fuse_layer is not None:  # hidden_states[i] in transformers' terms: the first i layers' output
        handles.append(decoder.layers[config.fuse_layer - 1].register_forward_hook(keep(early)))
    options = {"do_sample": True, "temperature": 0.8, "top_p": 0.95} if sampled else {"do_sample": False}
    try:
        out = model.generate(
            input_ids=input_ids,
            attention_mask=attention_mask,
            max_new_tokens=config.new_tokens,
            pad_token_id=pad_id,
            **options,
        )
    finally:
        for handle in handles:
            handle.remove()
    finals = torch.cat(final, dim=1)  # [B, padded prompt + run steps, H]
    earlies = torch.cat(early, dim=1) if early else None
    argmaxes = torch.cat(chosen, dim=1)  # [B, run steps]: from the prompt's last position on
    answers = []
    for b, (row, mask) in enumerate(zip(out.tolist(), attention_mask.tolist(), strict=True)):
        prompt_len = sum(mask)
        first = len(mask) - prompt_len
        ids = _cut_at_stop(row[first:], prompt_len, stop_ids)[: finals.shape[1] - first]
        n = len(ids)
        features = finals[b, first : first + n]
        in_prompt = lm_head(features[: prompt_len - 1]).argmax(-1)
        argmax = torch.cat([in_prompt, argmaxes[b, : n - prompt_len + 1]])
        answers.append(
            Answer(
                ids,
                prompt_len,
                sampled,
                # copies: a view would keep the whole padded batch in memory for as long as the answer lives
                features.float().cpu().clone(),
                argmax.cpu().clone(),
                None if earlies is None else earlies[b, first : first + n].float().cpu().clone(),
            )
        )
    return answers


def _cut_at_stop(ids: list[int], prompt_len: int, stop_ids: set[int]) -> list[int]:
    for i in range(prompt_len, len(ids)):
        if ids[i] in stop_ids:
            return ids[: i + 1]
    return ids


def draft_vocabulary(answers: Sequence[Answer], size: int) -> torch.Tensor:
    counts = Counter()
    for answer in answers:
        counts.update(answer.argmax.tolist())
    return torch.tensor(sorted(t for t, _ in counts.most_common(size)))


@dataclass
class Pairs:
    """Training rows: a start position, then ``unroll`` (input token, next feature, next argmax) steps.

    Every answer's positions lie end to end in flat tensors and a row is the index of its start: the steps
    are the positions after it, read per batch, so a checkpoint's features are held once (not ``unroll``
    times over), which is what lets a 4,096-wide model's answers fit in a machine's memory.
    """

    features: torch.Tensor  # [P, H]: every position's final feature
    ids: torch.Tensor  # [P]
    argmax: torch.Tensor  # [P]
    early: torch.Tensor | None  # [P, H]: every position's early feature, where the head reads it
    starts: torch.Tensor  # [m]: the flat index of each row's start
    unroll: int

    def __len__(self) -> int:
        return len(self.starts)

    def batch(
        self, rows: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor | None]:
        """Rows' start features [b, H], input tokens [b, S], next features [b, S, H], next argmaxes [b, S] and
        the first input token's early feature [b, H] (None when the head reads none)."""
        start = self.starts[rows]
        steps = start[:, None] + 1 + torch.arange(self.unroll)  # positions t+1 .. t+S
        roots = None if self.early is None else self.early[start + 1]
        return self.features[start], self.ids[steps], self.features[steps], self.argmax[steps], roots


def make_pairs(answers: Sequence[Answer], unroll: int) -> Pairs:
    """Every start position of every answer, each distinct row once.

    A row is decided by the ids up to its last step (a causal model's features are a function of them), and
    answers share long prefixes — the chat template's system turn in every answer, the whole prompt between
    an answer and its sampled twin — so a row already seen is skipped rather than weighted again.
    """
    features, ids, argmax, early, starts = [], [], [], [], []
    seen: set[int] = set()
    offset = 0
    for a in answers:
        m = len(a.ids) - unroll - 1  # start t needs x_{t+1..t+S} and h, argmax at t+1..t+S
        if m <= 0:
            continue
        prefix = [0] * len(a.ids)  # a hash of ids[: i + 1]
        h = 0
        for i, token in enumerate(a.ids):
            h = hash((h, token))
            prefix[i] = h
        fresh = []
        for t in range(m):
            key = prefix[t + unroll]  # the row reads ids up to t + unroll, no further
            if key not in seen:
                seen.add(key)
                fresh.append(t)
        features.append(a.features)
        ids.append(torch.tensor(a.ids))
        argmax.append(a.argmax)
        early.append(a.early)
        starts.append(offset + torch.tensor(fresh, dtype=torch.long))
        offset += len(a.ids)
    if not starts or sum(len(s) for s in starts) == 0:
        raise ValueError("the answers are too short to train on")
    with_early = all(e is not None for e in early)
    return Pairs(
        torch.cat(features),
        torch.cat(ids),
        torch.cat(argmax),
        torch.cat(early) if with_early else None,
        torch.cat(starts),
        unroll,
    )


def train_head(
    pairs: Pairs,
    embed: torch.Tensor,
    lm_head: torch.Tensor,
    vocab: torch.Tensor,
    config: TrainConfig,
    progress: Progress,
    cancel: CancelFlag | None = None,
    device: torch.device | str = "cpu",
) -> tuple[DraftHead, list[float]]:
    """Fit a head on ``pairs`` (kept in the computer's memory; each batch goes to ``device``, where the head
    learns); returns it on the CPU and the mean loss of each epoch."""
    torch.manual_seed(config.seed)
    if config.fuse_layer is not None and pairs.early is None:
        raise ValueError("the head reads the root's early feature, but the answers were read without it")
    head = DraftHead(embed.shape[1], config.inner_size, vocab, config.fuse_layer).to(device)
    index = torch.full((lm_head.shape[0],), -100, dtype=torch.long)  # model id -> draft-vocabulary row
    index[vocab] = torch.arange(len(vocab))
    index, rows, embed = index.to(device), lm_head[vocab].to(device), embed.to(device)
    optimizer = torch.optim.AdamW(head.parameters(), lr=config.learning_rate)
    batches = (len(pairs) + config.batch_size - 1) // config.batch_size
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, config.learning_rate, total_steps=config.epochs * batches)
    losses = []
    for epoch in range(config.epochs):
        order = torch.randperm(len(pairs))
        total = 0.0
        for b in range(batches):
            raise_if_cancelled(cancel)
            batch = order[b * config.batch_size : (b + 1) * config.batch_size]
            start, tokens, next_features, targets, roots = pairs.batch(batch)
            tokens, next_features, targets = tokens.to(device), next_features.to(device), targets.to(device)
            noise = config.noise * torch.randn(len(batch), embed.shape[1])
            feature = head.start((start + noise).to(device), None if roots is None else roots.to(device))
            loss = torch.zeros((), device=device)
            for s in range(config.unroll):  # later steps feed on the head's own features, as drafting does
                feature = head(feature, embed[tokens[:, s]])
                logits = feature @ rows.T
                step = torch.nn.functional.cross_entropy(logits, index[targets[:, s]], ignore_index=-100)
                step = step + config.feature_loss * torch.nn.functional.smooth_l1_loss(feature, next_features[:, s])
                loss = loss + step / (s + 1)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            total += float(loss.detach()) * len(batch)
            if b % max(1, batches // 10) == 0 or b == batches - 1:
                done = (epoch * batches + b + 1) / (config.epochs * batches)
                progress(f"training the draft head (epoch {epoch + 1}/{config.epochs})", done)
        losses.append(total / len(pairs))
    return head.cpu().eval(), losses


@torch.inference_mode()
def chain_accuracy(head: DraftHead, answers: Sequence[Answer], embed, lm_head, depth: int = 4) -> dict:
    """On greedy held-out answers: how often the d-th drafted token is right given the first d-1 were.

    Counted from each answer position on (the root being the token the model just chose), as in drafting.
    """
    rows = lm_head[head.vocab]
    hits, tries = [0] * depth, [0] * depth
    for a in answers:
        if a.sampled:
            continue  # after a sampled token the model's argmax path and the text part ways
        ids = torch.tensor(a.ids)
        n = len(a.ids)
        feature = head.start(a.features[: n - 1], None if a.early is None else a.early[1:n])
        tokens = ids[1:n]
        alive = torch.arange(n - 1) >= a.prompt_len - 1
        for d in range(depth):
            valid = torch.arange(n - 1) + d + 1 < n  # argmax at t+d+1 exists
            feature = head(feature, embed[tokens])
            guess = head.vocab[(feature @ rows.T).argmax(-1)]
            target = torch.full_like(guess, -1)
            target[valid] = a.argmax[(torch.arange(n - 1) + d + 1)[valid]]
            tries[d] += int((alive & valid).sum())
            correct = alive & valid & (guess == target)
            hits[d] += int(correct.sum())
            alive = correct
            tokens = guess
    return {f"depth{d + 1}": round(hits[d] / tries[d], 4) if tries[d] else 0.0 for d in range(depth)}


def train_draft_head(
    model,
    tokenizer,
    fingerprint: str,
    config: TrainConfig,
    stop_ids: set[int],
    prompts: Sequence[list[dict]] | None = None,
    progress: Progress = lambda *_: None,
    cancel: CancelFlag | None = None,
    answers_file: Path | None = None,
) -> tuple[DraftHead, HeadInfo]:
    """The whole recipe on an in-memory transformers model; returns the head and what to store with it.

    With ``answers_file``, answers made the same way before are read from it, and new ones are written to it.
    """
    started = time.perf_counter()
    prompts = list(prompts if prompts is not None else load_training_prompts())
    recipe = AnswerRecipe(
        fingerprint,
        prompts_digest(prompts),
        config.new_tokens,
        config.sampled_answers,
        config.generate_batch,
        config.seed,
        config.fuse_layer,
        str(model.dtype).removeprefix("torch."),
    )
    reused = answers_file is not None and answers_file.exists()
    if reused:
        progress("reading the answers kept in " + str(answers_file), 0.0)
        answers = load_answers(answers_file, recipe)
    else:
        answers = answer_prompts(model, tokenizer, prompts, config, stop_ids, progress, cancel)
        if answers_file is not None:
            save_answers(answers_file, recipe, answers)
    shuffled = list(range(len(answers)))
    random.Random(config.seed).shuffle(shuffled)
    n_held = max(1, int(len(answers) * config.held_out)) if len(answers) > 1 else 0
    held = [answers[i] for i in shuffled[:n_held]]
    train = [answers[i] for i in shuffled[n_held:]]
    embed = model.get_input_embeddings().weight.detach().float().cpu()
    lm_head = model.get_output_embeddings().weight.detach().float().cpu()
    vocab = draft_vocabulary(train, config.vocab_size)
    pairs = make_pairs(train, config.unroll)
    head, losses = train_head(pairs, embed, lm_head, vocab, config, progress, cancel, device=model.device)
    training = {
        "config": asdict(config),
        "prompts": len(prompts),
        "answers": len(answers),
        "train_positions": len(pairs),
        "held_out_answers": len(held),
        "epoch_losses": [round(x, 4) for x in losses],
        "held_out_accuracy": chain_accuracy(head, held, embed, lm_head) if held else {},
        "seconds": round(time.perf_counter() - started, 1),
        "answers_reused": reused,  # then ``seconds`` is the training's alone
    }
    info = HeadInfo(fingerprint, embed.shape[1], config.inner_size, len(vocab), training, config.fuse_layer)
    return head, info
