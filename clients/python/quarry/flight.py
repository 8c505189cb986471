"""A client of ``quarry serve``'s Arrow Flight stream (pyarrow, imported lazily).

The service streams the batch at a consumer's cursor, waiting for its
commit, and takes acks; the trainer needs no store access:

    c = FlightConsumer("grpc://127.0.0.1:8815", job="online-demo", name="trainer")
    b = c.next()                 # FlightBatch: number, manifest, turns (and episodes) tables
    train(b.turns.to_pylist())
    c.ack(b)                     # the cursor moves past b; the next next() gets b.number + 1

Wire format (docs/consume.md):
- DoGet ticket: JSON {"job", "consumer", "table": "turns"|"episodes",
  "wait_ms"} (wait_ms 0: wait as long as the call lives);
- the stream's schema metadata: "quarry.batch" (decimal batch number) and
  "quarry.manifest" (the manifest JSON);
- actions "ack" {"job", "consumer", "batch"} and "cursor" {"job",
  "consumer"}, each answering with the cursor JSON.

A DoGet without an ack redelivers the same batch (the service is
stateless), so a trainer reads the turns and episodes of one batch with two
calls before it acks. The encoding functions here are pure and need no
pyarrow.
"""

from __future__ import annotations

import json

from .consumer import BatchCorrupt, EndOfStream, _check_names

__all__ = ["FlightBatch", "FlightConsumer", "action_body", "batch_metadata", "parse_cursor", "ticket"]

META_BATCH = "quarry.batch"
META_MANIFEST = "quarry.manifest"
TABLES = ("turns", "episodes")


def ticket(job: str, consumer: str, table: str = "turns", wait_ms: int = 0) -> bytes:
    """The DoGet ticket for the consumer's next batch of one table."""
    _check_names(job, consumer)
    if table not in TABLES:
        raise ValueError(f"table {table!r}: want turns or episodes")
    if not isinstance(wait_ms, int) or isinstance(wait_ms, bool) or wait_ms < 0:
        raise ValueError(f"wait_ms {wait_ms!r}: want 0 (wait as long as the call lives) or more milliseconds")
    return json.dumps({"job": job, "consumer": consumer, "table": table, "wait_ms": wait_ms},
                      separators=(",", ":")).encode()


def action_body(job: str, consumer: str, batch: int | None = None) -> bytes:
    """The body of the "ack" action (with batch) or the "cursor" action
    (without)."""
    _check_names(job, consumer)
    body = {"job": job, "consumer": consumer}
    if batch is not None:
        if not isinstance(batch, int) or isinstance(batch, bool) or batch < 0:
            raise ValueError(f"batch {batch!r}: want a batch number >= 0")
        body["batch"] = batch
    return json.dumps(body, separators=(",", ":")).encode()


def parse_cursor(body: bytes) -> dict:
    """The cursor an action answered with."""
    try:
        c = json.loads(bytes(body))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ValueError(f"cursor answer is not JSON: {e}") from e
    if not isinstance(c, dict) or not isinstance(c.get("next_batch"), int):
        raise ValueError(f"cursor answer {c!r}: want {{..., \"next_batch\": n}}")
    return c


def batch_metadata(metadata) -> tuple[int, dict]:
    """(batch number, manifest) from a streamed schema's metadata (pyarrow
    gives a dict of bytes to bytes)."""
    md = {(k.decode() if isinstance(k, bytes) else k): (v.decode() if isinstance(v, bytes) else v)
          for k, v in (metadata or {}).items()}
    if META_BATCH not in md or META_MANIFEST not in md:
        raise BatchCorrupt(f"stream schema metadata lacks {META_BATCH} or {META_MANIFEST}: is this quarry serve?")
    try:
        number = int(md[META_BATCH])
        manifest = json.loads(md[META_MANIFEST])
    except (ValueError, json.JSONDecodeError) as e:
        raise BatchCorrupt(f"stream schema metadata: {e}") from e
    if manifest.get("batch") != number:
        raise BatchCorrupt(f"stream metadata: {META_BATCH} {number} but the manifest is batch {manifest.get('batch')}")
    return number, manifest


def _flight():
    try:
        import pyarrow.flight as flight  # noqa: PLC0415 (lazy: pyarrow is optional)
    except ImportError as e:
        raise ImportError(
            "quarry.flight needs pyarrow with Flight, which is not installed: pip install pyarrow. "
            "Without it, consume the store directly (quarry.Consumer) and ack over HTTP (quarry.HTTPControl)."
        ) from e
    return flight


class FlightBatch:
    """One streamed batch: number, manifest (dict) and the tables fetched
    (pyarrow.Table; None for a table not asked for)."""

    def __init__(self, number: int, manifest: dict, turns=None, episodes=None):
        self.number, self.manifest, self.turns, self.episodes = number, manifest, turns, episodes

    def __repr__(self) -> str:
        return f"FlightBatch({self.number}, turn_rows={self.manifest.get('turn_rows')})"


class FlightConsumer:
    """A named consumer of one job through the Flight service."""

    def __init__(self, location: str, job: str, name: str, client=None):
        _check_names(job, name)
        self.job, self.name = job, name
        self.client = client if client is not None else _flight().FlightClient(location)

    def _get(self, table: str, wait_ms: int):
        t = ticket(self.job, self.name, table, wait_ms)
        flight = _flight()
        try:
            reader = self.client.do_get(flight.Ticket(t))
            tab = reader.read_all()
        except flight.FlightTimedOutError as e:
            raise TimeoutError(f"job {self.job!r}: no batch committed within wait_ms {wait_ms}: {e}") from e
        except Exception as e:
            # The service answers NotFound "end of stream: ..." once the job
            # has ended; pyarrow's mapping of that code varies by version.
            if "end of stream" in str(e):
                raise EndOfStream(str(e)) from e
            raise
        number, manifest = batch_metadata(tab.schema.metadata)
        return number, manifest, tab

    def next(self, tables=("turns", "episodes"), wait_ms: int = 0) -> FlightBatch:
        """The batch at the consumer's cursor, with the tables asked for
        (waiting up to wait_ms for its commit; 0: as long as it takes)."""
        got = {}
        number = manifest = None
        for table in tables:
            n, m, tab = self._get(table, wait_ms)
            if number is not None and n != number:
                raise BatchCorrupt(f"turns of batch {number} but episodes of batch {n}: was the cursor moved meanwhile?")
            number, manifest, got[table] = n, m, tab
        if number is None:
            raise ValueError("next: want at least one of turns, episodes")
        return FlightBatch(number, manifest, got.get("turns"), got.get("episodes"))

    def _action(self, kind: str, body: bytes) -> dict:
        flight = _flight()
        results = list(self.client.do_action(flight.Action(kind, body)))
        if not results:
            raise ValueError(f"action {kind}: no answer")
        return parse_cursor(results[0].body.to_pybytes())

    def ack(self, batch) -> dict:
        n = batch.number if isinstance(batch, FlightBatch) else batch
        return self._action("ack", action_body(self.job, self.name, n))

    def cursor(self) -> dict:
        return self._action("cursor", action_body(self.job, self.name))
