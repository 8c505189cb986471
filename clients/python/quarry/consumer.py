"""Consume an online job's committed batches through the object store.

This is the consumption protocol (docs/consume.md) for Python, with the
standard library only:

- batch n is committed when ``<job>/_manifest/part-%05d.json`` exists (more
  digits past 99999); online jobs commit in batch order;
- a consumer's cursor is ``<job>/_consumers/<name>.json``
  (``{"schema_version":1,"job","consumer","next_batch"}`` plus any extra
  fields), missing meaning next_batch 0;
- ``next()`` waits for the batch at the consumer's position, reads the files
  its manifest names and verifies their size and sha256;
- ``ack(batch)`` writes the cursor past the batch once the trainer has used
  it: the cursor is the commit, so a trainer that acks after its step is
  durable trains every batch exactly once.

A consumer holds no lease: two processes using the same name see the same
batches. A name is one trainer.
"""

from __future__ import annotations

import hashlib
import json
import re
import time

__all__ = ["Batch", "BatchCorrupt", "Consumer", "EndOfStream", "manifest_key", "cursor_key"]

SCHEMA_VERSION = 1
_CONSUMER_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
_JOB_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{0,62}$")  # schema's job id rule
_CURSOR_FIELDS = ("schema_version", "job", "consumer", "next_batch")
_KINDS = ("turns", "episodes", "failures")


class EndOfStream(Exception):
    """The job's stream has ended: _SUCCESS says it wrote fewer batches than
    the consumer's position."""


class BatchCorrupt(Exception):
    """A committed batch cannot be trusted: a file its manifest names is
    missing or differs from the manifest (size or sha256), or the manifest
    itself is unreadable."""


def manifest_key(job: str, batch: int) -> str:
    return f"{job}/_manifest/part-{batch:05d}.json"


def cursor_key(job: str, consumer: str) -> str:
    return f"{job}/_consumers/{consumer}.json"


def _check_names(job: str, name: str) -> None:
    if not isinstance(job, str) or not _JOB_RE.match(job):
        raise ValueError(f"job {job!r}: want the job id (1-63 characters of a-z, 0-9, '.', '_', '-', "
                         "starting with a letter or digit: the folder under the output root)")
    if not isinstance(name, str) or not _CONSUMER_RE.match(name):
        raise ValueError(
            f"consumer name {name!r}: want 1-64 characters of A-Z, a-z, 0-9, '.', '_', '-', "
            "starting with a letter or digit"
        )


def _kind_of(path: str) -> str | None:
    if path.endswith(".turns.parquet"):
        return "turns"
    if path.endswith(".episodes.parquet"):
        return "episodes"
    if path.startswith("_failures/") or path.endswith(".jsonl"):
        return "failures"
    return None


def _pyarrow_parquet(what: str):
    try:
        import pyarrow as pa  # noqa: PLC0415 (lazy: pyarrow is optional)
        import pyarrow.parquet as pq  # noqa: PLC0415
    except ImportError as e:
        raise ImportError(
            f"Batch.{what} needs pyarrow to read Parquet, which is not installed: pip install pyarrow. "
            "Without it, use Batch.file_bytes('turns'|'episodes') with another Parquet reader, "
            "Batch.manifest for counts and statistics, or the Flight stream (quarry.flight)."
        ) from e
    return pa, pq


class Batch:
    """One committed, verified batch.

    number: the batch index; manifest: the commit record as a dict; files:
    {path relative to the job folder: bytes}, every one verified.
    """

    def __init__(self, number: int, manifest: dict, files: dict[str, bytes]):
        self.number = number
        self.manifest = manifest
        self.files = files

    def __repr__(self) -> str:
        return f"Batch({self.number}, turn_rows={self.manifest.get('turn_rows')}, files={sorted(self.files)})"

    @property
    def turn_rows_count(self) -> int:
        return int(self.manifest.get("turn_rows", 0))

    @property
    def policy_versions(self) -> list[str]:
        """The distinct policy versions of the batch's turns, oldest first
        (empty for an offline job)."""
        policy = self.manifest.get("policy") or {}
        return [v["version"] for v in policy.get("versions") or []]

    def file_bytes(self, kind: str) -> bytes | None:
        """The verified bytes of the batch's "turns", "episodes" or
        "failures" file; None when the batch has no such file (a batch
        without failed episodes has no failures file)."""
        if kind not in _KINDS:
            raise ValueError(f"file kind {kind!r}: want one of {', '.join(_KINDS)}")
        for path, data in self.files.items():
            if _kind_of(path) == kind:
                return data
        return None

    def failures(self) -> list[dict]:
        """The batch's failed episodes (the _failures JSON Lines), [] when none."""
        data = self.file_bytes("failures")
        if not data:
            return []
        out = []
        for i, line in enumerate(data.decode("utf-8").splitlines()):
            if line.strip():
                try:
                    out.append(json.loads(line))
                except json.JSONDecodeError as e:
                    raise BatchCorrupt(f"batch {self.number}: failures line {i + 1}: {e}") from e
        return out

    def _table(self, kind: str, what: str):
        pa, pq = _pyarrow_parquet(what)
        data = self.file_bytes(kind)
        if data is None:
            raise BatchCorrupt(f"batch {self.number}: the manifest names no {kind} file")
        return pq.read_table(pa.BufferReader(data))

    def turn_table(self):
        """The turns file as a pyarrow.Table (needs pyarrow)."""
        return self._table("turns", "turn_table()")

    def episode_table(self):
        """The episodes file as a pyarrow.Table (needs pyarrow)."""
        return self._table("episodes", "episode_table()")

    def turn_rows(self) -> list[dict]:
        """The turn rows as dicts keyed by column name (needs pyarrow)."""
        return self._table("turns", "turn_rows()").to_pylist()

    def episode_rows(self) -> list[dict]:
        """The episode rows as dicts keyed by column name (needs pyarrow)."""
        return self._table("episodes", "episode_rows()").to_pylist()


class Consumer:
    """A named consumer of one job's stream in a store (see quarry.store).

    The consumer's position starts at its stored cursor (read on the first
    ``next()``) and moves past each batch ``next()`` returns, so a trainer
    may hold several batches before acking them; acks must come in order.
    A new Consumer (a restarted trainer) starts again at the stored cursor,
    so a batch delivered but not acked is delivered again.

    poll and max_poll bound the wait between two looks at the store while a
    batch is not yet committed (doubling from poll up to max_poll).
    """

    def __init__(self, store, job: str, name: str, *, poll: float = 0.05, max_poll: float = 1.0):
        _check_names(job, name)
        if not (0 < poll <= max_poll):
            raise ValueError(f"poll {poll} and max_poll {max_poll}: want 0 < poll <= max_poll")
        self.store = store
        self.job = job
        self.name = name
        self.poll = poll
        self.max_poll = max_poll
        self._position: int | None = None

    def __repr__(self) -> str:
        return f"Consumer({self.store!r}, job={self.job!r}, name={self.name!r})"

    # Cursor ---------------------------------------------------------------

    def cursor(self) -> dict:
        """The stored cursor as a dict (extra fields included); next_batch 0
        when the consumer has never acked."""
        key = cursor_key(self.job, self.name)
        data = self.store.get(key)
        if data is None:
            return {"schema_version": SCHEMA_VERSION, "job": self.job, "consumer": self.name, "next_batch": 0}
        try:
            c = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise ValueError(f"cursor {key}: not JSON: {e}") from e
        nb = c.get("next_batch") if isinstance(c, dict) else None
        if not isinstance(nb, int) or isinstance(nb, bool) or nb < 0:
            raise ValueError(f"cursor {key}: next_batch {nb!r}: want an integer >= 0")
        if c.get("consumer", self.name) != self.name or c.get("job", self.job) != self.job:
            raise ValueError(f"cursor {key}: names job {c.get('job')!r} consumer {c.get('consumer')!r}")
        return c

    def ack(self, batch, **extra) -> dict:
        """Record that the trainer has used batch (a Batch or its number):
        the cursor moves to number + 1. Acking a batch the cursor is already
        past is a no-op; acking one ahead of the cursor is a ValueError.
        Keyword arguments are stored as extra fields of the cursor object
        (e.g. trainer_step=12) and kept by later acks. Returns the cursor."""
        n = batch.number if isinstance(batch, Batch) else batch
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise ValueError(f"ack {batch!r}: want a Batch or a batch number >= 0")
        reserved = sorted(set(extra) & set(_CURSOR_FIELDS))
        if reserved:
            raise ValueError(f"ack: extra fields {reserved} are the cursor's own")
        c = self.cursor()
        if n < c["next_batch"]:
            return c
        if n > c["next_batch"]:
            raise ValueError(
                f"ack batch {n} of job {self.job!r} for consumer {self.name!r}: the cursor is at batch "
                f"{c['next_batch']}: ack batches in order"
            )
        c.update(extra)
        c.update(schema_version=c.get("schema_version") or SCHEMA_VERSION, job=self.job, consumer=self.name,
                 next_batch=n + 1)
        body = json.dumps(c, indent=2, sort_keys=False).encode() + b"\n"
        self.store.put(cursor_key(self.job, self.name), body)
        if self._position is not None and self._position < n + 1:
            self._position = n + 1
        return c

    # Batches --------------------------------------------------------------

    def position(self) -> int:
        """The number of the batch next() returns next."""
        if self._position is None:
            self._position = self.cursor()["next_batch"]
        return self._position

    def next(self, timeout: float | None = None) -> Batch:
        """The next committed batch, verified. Blocks until it is committed
        (polling with backoff); raises EndOfStream when the job has ended
        before it, TimeoutError when timeout seconds pass first, BatchCorrupt
        when its files do not match its manifest."""
        n = self.position()
        deadline = None if timeout is None else time.monotonic() + timeout
        wait = self.poll
        while True:
            data = self.store.get(manifest_key(self.job, n))
            if data is not None:
                b = self._read(n, data)
                self._position = n + 1
                return b
            self._check_end(n)
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"batch {n} of job {self.job!r} not committed within {timeout} s")
                wait = min(wait, left)
            time.sleep(wait)
            wait = min(wait * 2, self.max_poll)

    def __iter__(self):
        """Follow the stream: yield every batch in order until it ends. Ack
        each one (``consumer.ack(batch)``) once it is used."""
        while True:
            try:
                yield self.next()
            except EndOfStream:
                return

    def _check_end(self, n: int) -> None:
        data = self.store.get(f"{self.job}/_SUCCESS")
        if data is None:
            return
        try:
            batches = json.loads(data)["batches"]
        except (json.JSONDecodeError, UnicodeDecodeError, KeyError, TypeError) as e:
            raise ValueError(f"{self.job}/_SUCCESS: unreadable: {e}") from e
        if batches <= n:
            raise EndOfStream(f"job {self.job!r} ended after {batches} batches (consumer {self.name!r} is at {n})")

    def _read(self, n: int, data: bytes) -> Batch:
        key = manifest_key(self.job, n)
        try:
            m = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise BatchCorrupt(f"{key}: not JSON: {e}") from e
        if not isinstance(m, dict) or m.get("batch") != n or m.get("job") != self.job:
            got = (m.get("job"), m.get("batch")) if isinstance(m, dict) else m
            raise BatchCorrupt(f"{key}: names job/batch {got!r}, want ({self.job!r}, {n})")
        files = {}
        for f in m.get("files") or []:
            path = f.get("path") if isinstance(f, dict) else None
            if not isinstance(path, str):
                raise BatchCorrupt(f"{key}: file entry {f!r} has no path")
            try:
                blob = self.store.get(f"{self.job}/{path}")
            except ValueError as e:
                raise BatchCorrupt(f"{key}: file path {path!r}: {e}") from e
            if blob is None:
                raise BatchCorrupt(f"batch {n}: {path} is named by the manifest but missing from the store")
            digest = hashlib.sha256(blob).hexdigest()
            if len(blob) != f.get("size") or digest != f.get("sha256"):
                raise BatchCorrupt(
                    f"batch {n}: {path}: {len(blob)} bytes with sha256 {digest}, "
                    f"the manifest says {f.get('size')} bytes with {f.get('sha256')}"
                )
            files[path] = blob
        return Batch(n, m, files)
