"""Re-normalise advantages over the rows a trainer actually consumed.

Quarry's ``advantage`` column is ReBN over one whole batch. A trainer whose
batch differs (several Quarry batches, a subsample, filtered rows) recomputes
it here over exactly its rows, with the rule of schema/returns.go:

    A = (G − mean) / (population std + 1e-9), exactly 0 when the std is 0,

mean and std taken in two passes over the ``return`` column (the first with
Neumaier compensated summation, the second compensated by (Σ(x−mean))²/n),
so the results equal Quarry's own to the last bit for the same rows.

Without reading rows, the manifests' ``returns`` sufficient statistics
(count, sum, sum_sq) merge to normalise the union of whole batches:
``stats_normalize(merge_stats(manifests), g)``.

GRPO group advantages: within each ``group_id``, the episode return G_0
normalised over the group's episodes (the ``advantage_group`` rule).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["NORM_EPSILON", "Stats", "group_advantages", "merge_stats", "normalizer", "rebn", "stats_normalize"]

NORM_EPSILON = 1e-9
_EPS = 2.0 ** -52  # float64 machine epsilon, as in schema/returns.go


def _neumaier(total: float, comp: float, x: float) -> tuple[float, float]:
    t = total + x
    if abs(total) >= abs(x):
        comp += (total - t) + x
    else:
        comp += (x - t) + total
    return t, comp


@dataclass(frozen=True)
class Normalizer:
    """A population's size, mean and population std."""

    n: int
    mean: float
    std: float

    def apply(self, g: float) -> float:
        if self.std == 0:
            return 0.0
        return (g - self.mean) / (self.std + NORM_EPSILON)


def normalizer(xs) -> Normalizer:
    """Mean and population std of xs, computed as schema/returns.go's
    normalizerOf does; a population of equal members has std exactly 0."""
    xs = [float(x) for x in xs]
    if not xs:
        return Normalizer(0, 0.0, 0.0)
    n = float(len(xs))
    total, comp = 0.0, 0.0
    lo = hi = xs[0]
    for x in xs:
        if not math.isfinite(x):
            raise ValueError(f"return {x}: want a finite number")
        total, comp = _neumaier(total, comp, x)
        lo, hi = min(lo, x), max(hi, x)
    mean = (total + comp) / n
    if lo == hi:
        return Normalizer(len(xs), lo, 0.0)
    ss, d = 0.0, 0.0
    for x in xs:
        ss += (x - mean) * (x - mean)
        d += x - mean
    return Normalizer(len(xs), mean, math.sqrt(max(0.0, (ss - d * d / n) / n)))


def _returns(rows, column: str = "return") -> list[float]:
    out = []
    for i, r in enumerate(rows):
        if column not in r or r[column] is None:
            raise KeyError(f"row {i} has no {column!r} column: want turn rows as read from the turns table")
        out.append(r[column])
    return out


def rebn(rows, *, inplace: bool = False) -> list[float]:
    """ReBN advantages over exactly these turn rows, from their ``return``
    column, in row order. With inplace, each row's ``advantage`` is set too
    (and ``norm_scheme`` to "rebn")."""
    g = _returns(rows)
    z = normalizer(g)
    adv = [z.apply(x) for x in g]
    if inplace:
        for r, a in zip(rows, adv):
            r["advantage"] = a
            r["norm_scheme"] = "rebn"
    return adv


@dataclass(frozen=True)
class Stats:
    """Sufficient statistics of a population of returns (schema.Stats)."""

    count: int = 0
    sum: float = 0.0
    sum_sq: float = 0.0

    def merge(self, other: "Stats") -> "Stats":
        return Stats(self.count + other.count, self.sum + other.sum, self.sum_sq + other.sum_sq)

    def mean(self) -> float:
        return self.sum / self.count if self.count else 0.0

    def var(self) -> float:
        """Population variance E[G²] − mean², taken as exactly 0 within the
        rounding error of that difference (a constant population)."""
        if self.count == 0:
            return 0.0
        n = float(self.count)
        mean = self.sum / n
        mean_sq = self.sum_sq / n
        v = mean_sq - mean * mean
        if v <= 32 * _EPS * mean_sq:
            return 0.0
        return v

    def std(self) -> float:
        return math.sqrt(self.var())

    def normalize(self, g: float) -> float:
        s = self.std()
        if s == 0:
            return 0.0
        return (g - self.mean()) / (s + NORM_EPSILON)


def merge_stats(manifests) -> Stats:
    """The merged ``returns`` statistics of several manifests (dicts as
    Batch.manifest holds them, or Batch objects)."""
    out = Stats()
    for i, m in enumerate(manifests):
        m = getattr(m, "manifest", m)
        r = m.get("returns") if isinstance(m, dict) else None
        if not isinstance(r, dict) or not {"count", "sum", "sum_sq"} <= set(r):
            raise KeyError(f"manifest {i} has no returns {{count, sum, sum_sq}}")
        out = out.merge(Stats(int(r["count"]), float(r["sum"]), float(r["sum_sq"])))
    return out


def stats_normalize(stats: Stats, g: float) -> float:
    """(g − mean) / (std + 1e-9) of the population stats describes; 0 when
    its std is 0."""
    return stats.normalize(g)


def group_advantages(episode_rows) -> dict[str, float]:
    """GRPO group advantages: {episode_id: advantage}, each episode's
    ``return`` (G_0) normalised over the episodes of its ``group_id`` given
    here; 0 for a group of one or of equal returns. Broadcast to turns with
    ``adv[row["episode_id"]]``."""
    groups: dict[str, list[tuple[str, float]]] = {}
    for i, e in enumerate(episode_rows):
        for col in ("episode_id", "group_id", "return"):
            if e.get(col) is None:
                raise KeyError(f"episode row {i} has no {col!r} column: want rows of the episodes table")
        groups.setdefault(e["group_id"], []).append((e["episode_id"], e["return"]))
    out = {}
    for members in groups.values():
        z = normalizer([g for _, g in members])
        for eid, g in members:
            if eid in out:
                raise ValueError(f"episode {eid} appears twice")
            out[eid] = z.apply(g)
    return out
