"""Turn a consumed batch's rows into the layouts RL trainers take.

Every adapter takes ``turns`` and ``episodes``: lists of dicts keyed by the
Parquet column names of the turns and episodes tables (Batch.turn_rows(),
Batch.episode_rows(), or the Flight stream's ``table.to_pylist()``), and
returns plain Python lists (``tensorize`` turns rectangular ones into numpy
arrays or torch tensors when those are installed).

Token views come from the episode rows: ``token_ids`` (prompts, responses
and observations as served), ``loss_mask`` (1 on tokens the policy
generated) and ``turn_spans`` (each turn's response span). An episode whose
chat template rewrote history has ``segments`` instead: each segment becomes
a sample of its own (same uid/group, its own tokens). An episode without
token ids (token_source "none": a random or oracle policy, or an endpoint
that returns no ids) cannot be trained on token by token, and every adapter
raises MissingTokens naming the column.

Layout of one sample (one episode, or one segment of it): the prompt is the
tokens before the first turn's response; the response is everything after,
observations included, with the loss mask 0 on tokens the policy did not
generate.

Rewards: ``reward="episode"`` (default) puts the episode's ``return`` (G_0,
discounted by the job's gamma) on the sample's last generated token;
``reward="turn"`` puts each turn's ``reward`` on the last token of its
response span (dense per-turn rewards; the trainer discounts them).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

__all__ = [
    "MissingTokens",
    "Sample",
    "samples",
    "tensorize",
    "to_oat",
    "to_openrlhf",
    "to_skyrl",
    "to_trl",
    "to_verl",
]

_REWARD_MODES = ("episode", "turn")


class MissingTokens(ValueError):
    """The batch has no token ids for an episode (column token_ids is null)."""


@dataclass
class Sample:
    """One trainable token sequence: an episode, or one segment of one."""

    episode: dict  # the episode row
    segment: int
    last_segment: bool
    token_ids: list
    loss_mask: list
    logprobs: list | None
    spans: list  # [(turn, start, end)] response span of each turn, in token_ids

    @property
    def prompt_len(self) -> int:
        if self.spans:
            return min(s for _, s, _ in self.spans)
        for i, m in enumerate(self.loss_mask):
            if m:
                return i
        return len(self.token_ids)

    @property
    def prompt_ids(self) -> list:
        return self.token_ids[: self.prompt_len]

    @property
    def response_ids(self) -> list:
        return self.token_ids[self.prompt_len:]

    @property
    def response_mask(self) -> list:
        return [int(m) for m in self.loss_mask[self.prompt_len:]]

    @property
    def response_logprobs(self) -> list | None:
        return None if self.logprobs is None else list(self.logprobs[self.prompt_len:])

    @property
    def episode_id(self) -> str:
        return self.episode["episode_id"]


def _episode_name(e: dict, i: int) -> str:
    return e.get("episode_id") or f"episode row {i}"


def _spans(raw, where: str) -> list:
    out = []
    for s in raw or []:
        if isinstance(s, dict):
            t, a, b = s.get("turn"), s.get("start"), s.get("end")
        else:
            t, a, b = s
        if not (isinstance(a, int) and isinstance(b, int) and 0 <= a <= b):
            raise ValueError(f"{where}: turn_spans entry {s!r}: want {{turn, start, end}} with 0 <= start <= end")
        out.append((t, a, b))
    return out


def _sample(e: dict, seg: int, last: bool, tokens, mask, logprobs, spans, where: str) -> Sample:
    tokens = list(tokens)
    if mask is None or len(mask) != len(tokens):
        raise ValueError(f"{where}: loss_mask has {None if mask is None else len(mask)} entries for "
                         f"{len(tokens)} token_ids: want one per token")
    if logprobs is not None and len(logprobs) != len(tokens):
        raise ValueError(f"{where}: logprobs has {len(logprobs)} entries for {len(tokens)} token_ids")
    spans = _spans(spans, where)
    for _, a, b in spans:
        if b > len(tokens):
            raise ValueError(f"{where}: turn span [{a}, {b}) past the {len(tokens)} token_ids")
    return Sample(e, seg, last, tokens, list(mask), None if logprobs is None else list(logprobs), spans)


def samples(episodes, trainer: str = "this trainer") -> list[Sample]:
    """The token sequences of the episode rows, in row order (segments in
    order within an episode). Raises MissingTokens for an episode without
    token ids."""
    out = []
    for i, e in enumerate(episodes):
        name = _episode_name(e, i)
        segs = e.get("segments")
        if e.get("token_ids") is not None:
            out.append(_sample(e, 0, True, e["token_ids"], e.get("loss_mask"), e.get("logprobs"),
                               e.get("turn_spans"), f"episode {name}"))
        elif segs:
            for k, s in enumerate(segs):
                out.append(_sample(e, s.get("segment", k), k == len(segs) - 1, s.get("token_ids") or [],
                                   s.get("loss_mask"), s.get("logprobs"), s.get("turn_spans"),
                                   f"episode {name} segment {s.get('segment', k)}"))
        else:
            raise MissingTokens(
                f"episode {name}: column token_ids is null (token_source {e.get('token_source')!r}) and it has no "
                f"segments: {trainer} trains on token ids, which this batch does not have. Generate with an "
                "endpoint that returns token ids (token_source served), or train from the text columns "
                "(prompt_delta, action) with your own tokenizer."
            )
    return out


def _turn_index(turns) -> dict:
    index = {}
    for i, t in enumerate(turns or []):
        key = (t.get("episode_id"), t.get("turn"))
        if None in key:
            raise KeyError(f"turn row {i} has no episode_id or turn column")
        index[key] = t
    return index


def _check_reward(reward: str) -> None:
    if reward not in _REWARD_MODES:
        raise ValueError(f"reward {reward!r}: want 'episode' (the episode return on the last generated token) "
                         "or 'turn' (each turn's reward on the last token of its response)")


def _token_rewards(s: Sample, reward: str, turns: dict) -> list:
    """Rewards over the sample's response tokens (zeros but where placed)."""
    p = s.prompt_len
    out = [0.0] * (len(s.token_ids) - p)
    if not out:
        return out
    if reward == "episode":
        last = max((i for i, m in enumerate(s.response_mask) if m), default=len(out) - 1)
        out[last] = float(s.episode["return"])
        return out
    for turn, _, end in s.spans:
        row = turns.get((s.episode_id, turn))
        if row is None:
            raise KeyError(f"episode {s.episode_id} turn {turn}: no turn row (reward='turn' needs the batch's turn rows)")
        if end > p:
            out[end - 1 - p] += float(row["reward"])
    return out


def _all_logprobs(ss) -> list | None:
    lp = [s.response_logprobs for s in ss]
    return None if any(x is None for x in lp) else lp


# verl ----------------------------------------------------------------------


def to_verl(turns, episodes, *, reward: str = "episode", pad_token_id: int | None = None) -> dict:
    """A DataProto-shaped dict: {"batch": {...}, "non_tensor_batch": {...},
    "meta_info": {}}.

    batch: prompts, responses, input_ids (prompt + response), attention_mask,
    position_ids, response_mask (1 on generated tokens, 0 on observations),
    token_level_rewards (over the response), rollout_log_probs (when every
    sample has logprobs). non_tensor_batch: uid (= group_id, verl's GRPO
    grouping key), episode_id, data_source, segment.

    With pad_token_id, prompts are left-padded and responses right-padded to
    the batch's longest (verl's layout; attention_mask 0 on padding) so every
    batch entry is rectangular; without it, entries are ragged per sample.
    """
    _check_reward(reward)
    ss = samples(episodes, "verl")
    tix = _turn_index(turns) if reward == "turn" else {}
    prompts = [s.prompt_ids for s in ss]
    responses = [s.response_ids for s in ss]
    rmask = [s.response_mask for s in ss]
    rewards = [_token_rewards(s, reward, tix) for s in ss]
    logprobs = _all_logprobs(ss)
    if pad_token_id is None:
        amask = [[1] * (len(p) + len(r)) for p, r in zip(prompts, responses)]
    else:
        pl = max((len(p) for p in prompts), default=0)
        rl = max((len(r) for r in responses), default=0)
        amask = [[0] * (pl - len(p)) + [1] * (len(p) + len(r)) + [0] * (rl - len(r))
                 for p, r in zip(prompts, responses)]
        prompts = [[pad_token_id] * (pl - len(p)) + p for p in prompts]
        responses = [r + [pad_token_id] * (rl - len(r)) for r in responses]
        rmask = [m + [0] * (rl - len(m)) for m in rmask]
        rewards = [x + [0.0] * (rl - len(x)) for x in rewards]
        if logprobs is not None:
            logprobs = [x + [0.0] * (rl - len(x)) for x in logprobs]
    batch = {
        "prompts": prompts,
        "responses": responses,
        "input_ids": [p + r for p, r in zip(prompts, responses)],
        "attention_mask": amask,
        "position_ids": [_positions(m) for m in amask],
        "response_mask": rmask,
        "token_level_rewards": rewards,
    }
    if logprobs is not None:
        batch["rollout_log_probs"] = logprobs
    non_tensor = {
        "uid": [s.episode["group_id"] for s in ss],
        "episode_id": [s.episode_id for s in ss],
        "data_source": [s.episode.get("data_source") for s in ss],
        "segment": [s.segment for s in ss],
    }
    return {"batch": batch, "non_tensor_batch": non_tensor, "meta_info": {}}


def _positions(mask: list) -> list:
    # verl's position_ids: clip(cumsum(attention_mask) - 1, 0).
    out, c = [], 0
    for m in mask:
        c += m
        out.append(max(c - 1, 0))
    return out


# OpenRLHF ------------------------------------------------------------------


def to_openrlhf(turns, episodes, *, reward: str = "episode") -> dict:
    """OpenRLHF's Experience fields, one entry per sample (ragged):
    sequences (prompt + response token ids), attention_mask, action_mask
    (over the response: 1 on generated tokens), action_ranges ([start, end)
    of each turn's response in sequences), rollout_log_probs (over the
    response, when present), rewards (the episode return; with
    reward="turn", the sum of the turns' rewards in the sample),
    response_length (generated tokens), total_length, prompt_length, and
    info (episode_id, group_id)."""
    _check_reward(reward)
    ss = samples(episodes, "OpenRLHF")
    tix = _turn_index(turns) if reward == "turn" else {}
    return {
        "sequences": [s.token_ids for s in ss],
        "attention_mask": [[1] * len(s.token_ids) for s in ss],
        "action_mask": [s.response_mask for s in ss],
        "action_ranges": [[(a, b) for _, a, b in s.spans] for s in ss],
        "rollout_log_probs": _all_logprobs(ss),
        "rewards": [sum(_token_rewards(s, reward, tix)) for s in ss],
        "response_length": [sum(s.response_mask) for s in ss],
        "total_length": [len(s.token_ids) for s in ss],
        "prompt_length": [s.prompt_len for s in ss],
        "info": {"episode_id": [s.episode_id for s in ss], "group_id": [s.episode["group_id"] for s in ss]},
    }


# TRL -----------------------------------------------------------------------


def to_trl(turns, episodes) -> dict:
    """What a GRPOTrainer ``rollout_func`` returns: prompt_ids,
    completion_ids (everything after the prompt, observations included),
    env_mask (1 on generated completion tokens, 0 on env/tool tokens),
    logprobs (when present), and extra fields TRL passes to reward
    functions: env_reward (the episode return), group_id, episode_id."""
    del turns  # the episode rows carry everything TRL takes
    ss = samples(episodes, "TRL")
    out = {
        "prompt_ids": [s.prompt_ids for s in ss],
        "completion_ids": [s.response_ids for s in ss],
        "env_mask": [s.response_mask for s in ss],
        "env_reward": [float(s.episode["return"]) for s in ss],
        "group_id": [s.episode["group_id"] for s in ss],
        "episode_id": [s.episode_id for s in ss],
    }
    lp = _all_logprobs(ss)
    if lp is not None:
        out["logprobs"] = lp
    return out


# Oat -----------------------------------------------------------------------


def to_oat(turns, episodes) -> list[dict]:
    """Oat transitions, one per turn (as GEM's Oat actor builds them):
    prompt (the chat messages the turn's request held), prompt_ids (the
    tokens before the turn's response), response (the action text),
    response_ids, response_logprobs, rewards (dense over the response: the
    turn's return G_t on its last token), reward (the turn's reward), done
    (the episode's last turn), loss_mask (True) and info (episode_id,
    group_id, turn, return, advantage, advantage_group, policy_version,
    terminated, truncated)."""
    ss = samples(episodes, "Oat")
    tix = _turn_index(turns)
    last_turn = {}
    for (eid, t) in tix:
        last_turn[eid] = max(last_turn.get(eid, -1), t)
    out = []
    for s in ss:
        messages = _messages(s, tix)
        for turn, a, b in s.spans:
            row = tix.get((s.episode_id, turn))
            if row is None:
                raise KeyError(f"episode {s.episode_id} turn {turn}: no turn row (to_oat needs the batch's turn rows)")
            dense = [0.0] * (b - a)
            if dense:
                dense[-1] = float(row["return"])
            out.append({
                "prompt": messages.get(turn, []),
                "prompt_ids": s.token_ids[:a],
                "response": row.get("action", ""),
                "response_ids": s.token_ids[a:b],
                "response_logprobs": None if s.logprobs is None else s.logprobs[a:b],
                "rewards": dense,
                "reward": float(row["reward"]),
                "done": turn == last_turn[s.episode_id],
                "loss_mask": True,
                "info": {
                    "episode_id": s.episode_id,
                    "group_id": s.episode["group_id"],
                    "turn": turn,
                    "return": row["return"],
                    "advantage": row.get("advantage"),
                    "advantage_group": row.get("advantage_group"),
                    "policy_version": row.get("policy_version"),
                    "terminated": row.get("terminated"),
                    "truncated": row.get("truncated"),
                },
            })
    return out


def _messages(s: Sample, tix: dict) -> dict:
    """{turn: the chat messages of that turn's request}, rebuilt from the
    turns' prompt_delta (messages added since the previous request and
    action; the whole request on a segment's first turn) and actions."""
    turns = sorted(t for (eid, t) in tix if eid == s.episode_id and tix[(eid, t)].get("segment", 0) == s.segment)
    out, msgs = {}, []
    for t in turns:
        row = tix[(s.episode_id, t)]
        try:
            delta = json.loads(row.get("prompt_delta") or "[]")
        except json.JSONDecodeError as e:
            raise ValueError(f"episode {s.episode_id} turn {t}: prompt_delta is not JSON: {e}") from e
        msgs = msgs + delta
        out[t] = msgs
        msgs = msgs + [{"role": "assistant", "content": row.get("action", "")}]
    return out


# SkyRL ---------------------------------------------------------------------


def to_skyrl(turns, episodes, *, reward: str = "episode") -> dict:
    """A SkyRL GeneratorOutput-shaped dict: prompt_token_ids, response_ids,
    rewards (one float per sample with reward="episode"; a per-token list
    with reward="turn"), loss_masks, rollout_logprobs (or None),
    stop_reasons, trajectory_ids ({"instance_id": group_id, "repetition_id":
    sample}: build SkyRL's TrajectoryID(**t)), is_last_step (per sample,
    when some episode has several segments; else None) and rollout_metrics
    (None: SkyRL computes its own)."""
    _check_reward(reward)
    ss = samples(episodes, "SkyRL")
    tix = _turn_index(turns) if reward == "turn" else {}
    if reward == "episode":
        rewards = [float(s.episode["return"]) for s in ss]
    else:
        rewards = [_token_rewards(s, reward, tix) for s in ss]
    multi = any(not s.last_segment or s.segment for s in ss)
    return {
        "prompt_token_ids": [s.prompt_ids for s in ss],
        "response_ids": [s.response_ids for s in ss],
        "rewards": rewards,
        "loss_masks": [s.response_mask for s in ss],
        "stop_reasons": [s.episode.get("stop_reason") for s in ss],
        "rollout_metrics": None,
        "rollout_logprobs": _all_logprobs(ss),
        "trajectory_ids": [{"instance_id": s.episode["group_id"], "repetition_id": s.episode.get("sample", 0)}
                           for s in ss],
        "is_last_step": [s.last_segment for s in ss] if multi else None,
    }


# Tensors -------------------------------------------------------------------


def tensorize(d: dict, backend: str = "torch") -> dict:
    """Convert the rectangular list entries of d (e.g. to_verl(...,
    pad_token_id=0)["batch"]) to torch tensors or numpy arrays, imported
    lazily; other entries are kept as they are."""
    if backend == "torch":
        try:
            import torch  # noqa: PLC0415 (lazy: optional)
        except ImportError as e:
            raise ImportError("tensorize(backend='torch') needs torch, which is not installed") from e
        conv = torch.tensor
    elif backend == "numpy":
        try:
            import numpy  # noqa: PLC0415 (lazy: optional)
        except ImportError as e:
            raise ImportError("tensorize(backend='numpy') needs numpy, which is not installed") from e
        conv = numpy.asarray
    else:
        raise ValueError(f"backend {backend!r}: want torch or numpy")
    out = {}
    for k, v in d.items():
        rect = isinstance(v, list) and v and all(isinstance(x, list) for x in v) and len({len(x) for x in v}) == 1
        out[k] = conv(v) if rect else v
    return out
