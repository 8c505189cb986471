#!/usr/bin/env python3
"""A simulated trainer for an online Quarry job (standard library only).

Loop: take the next committed batch, "train" on it (sleep), record what it
trained (batch number, the manifest's policy versions, its turn row count),
optionally tell the inference server to load the next weights (POST
--weights-url, waiting for the swap to finish), announce that version to the
job, write the checkpoint atomically, then ack the batch.

Version labels: after training its k-th batch (k from 0, counting the
checkpoint's) the trainer serves and announces v<k+1>; the job starts at v0.

Crash safety: the checkpoint ({"next_batch", "trained"}) is written before the
ack. On start, an existing checkpoint's next_batch is re-acked, so a kill
between the checkpoint and the ack never trains a batch twice, and a kill
before the checkpoint redelivers the batch (it was not trained durably).

Example:
    trainer_loop.py --output /data/out --job online-demo --consumer trainer \
        --steps 10 --train-seconds 0.5 --checkpoint ckpt.json \
        --submit-cmd "submit --local --state-dir .quarry" \
        --weights-url http://127.0.0.1:8000/admin/weights
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from quarry import BatchCorrupt, CLIControl, Consumer, ControlError, EndOfStream, open_store  # noqa: E402
from quarry.consumer import manifest_key  # noqa: E402


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--output", required=True, help="the job's output root: a folder, file:// or s3:// URL")
    p.add_argument("--job", required=True, help="job id")
    p.add_argument("--consumer", required=True, help="consumer name (its cursor is _consumers/<name>.json)")
    p.add_argument("--steps", type=int, required=True, help="stop after this many batches in total")
    p.add_argument("--train-seconds", type=float, default=0.0, help="simulated training time per batch")
    p.add_argument("--checkpoint", required=True, help="checkpoint file (JSON), written atomically")
    p.add_argument("--submit-cmd", required=True,
                   help='the submit command before "policy", e.g. "submit --local --state-dir .quarry"')
    p.add_argument("--weights-url", help="POST {\"version\": ...} here to load new weights before announcing")
    p.add_argument("--weights-extra", default="{}",
                   help="JSON object merged into the weights request (e.g. {\"unavailable_ms\": 200})")
    p.add_argument("--announce-retries", type=int, default=0,
                   help="retry a failed announcement this many times (backoff from 0.1 s to 2 s)")
    p.add_argument("--skip-last-announce", action="store_true",
                   help="announce no version after the last batch (a step-bounded job may have ended by then)")
    p.add_argument("--next-timeout", type=float, default=None,
                   help="give up when no batch is committed within this many seconds (default: wait)")
    a = p.parse_args(argv)
    if a.steps < 0:
        p.error(f"--steps {a.steps}: want >= 0")
    try:
        a.weights_extra = json.loads(a.weights_extra)
        assert isinstance(a.weights_extra, dict)
    except (json.JSONDecodeError, AssertionError):
        p.error(f"--weights-extra {a.weights_extra!r}: want a JSON object")
    a.submit_cmd = shlex.split(a.submit_cmd)
    if not a.submit_cmd:
        p.error("--submit-cmd is empty")
    return a


def load_checkpoint(path: str) -> dict | None:
    try:
        with open(path, "rb") as f:
            state = json.load(f)
    except FileNotFoundError:
        return None
    if not isinstance(state.get("next_batch"), int) or not isinstance(state.get("trained"), list):
        raise SystemExit(f"checkpoint {path}: want {{\"next_batch\": n, \"trained\": [...]}}")
    return state


def write_checkpoint(path: str, state: dict) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".ckpt-", dir=folder)
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(state, f, indent=2)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def swap_weights(url: str, version: str, extra: dict) -> None:
    body = json.dumps({**extra, "version": version}).encode()
    req = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=600) as resp:
        resp.read()


def announce(control, a, version: str, ended) -> None:
    """Announces version, retrying while the job's control plane is away
    (a restarting submit --local, a Temporal frontend being redeployed). A
    step-bounded job that has ended (its _SUCCESS is written: every batch is
    committed) needs no new version, so a failure then is not an error."""
    for attempt in range(a.announce_retries + 1):
        try:
            control.announce(a.job, version)
            return
        except ControlError as e:
            if ended():
                log("announce_skipped", version=version, reason="the job has ended")
                return
            if attempt == a.announce_retries:
                raise
            log("announce_retry", version=version, attempt=attempt + 1, error=str(e).splitlines()[0][:200])
            time.sleep(min(2.0, 0.1 * 2 ** attempt))


def log(event: str, **fields) -> None:
    print(json.dumps({"event": event, **fields}), flush=True)


def main(argv=None) -> int:
    a = parse_args(argv)
    try:
        return run(a)
    except (BatchCorrupt, ControlError, TimeoutError, ValueError, OSError) as e:
        print(f"trainer_loop: {e}", file=sys.stderr)
        return 1


def run(a) -> int:
    store = open_store(a.output)
    consumer = Consumer(store, a.job, a.consumer)
    control = CLIControl(a.submit_cmd)
    state = load_checkpoint(a.checkpoint)
    if state is None:
        state = {"next_batch": 0, "trained": []}
    elif state["next_batch"] > 0:
        # Re-ack: a kill between the checkpoint and the ack left the cursor
        # one batch behind the checkpoint.
        consumer.ack(state["next_batch"] - 1)
        log("resumed", next_batch=state["next_batch"], trained=len(state["trained"]))
    if not state["trained"] and state["next_batch"] == 0:
        state["next_batch"] = consumer.position()  # a fresh trainer starts at the stored cursor
    if consumer.position() != state["next_batch"]:
        raise ValueError(f"cursor of {a.consumer!r} is at batch {consumer.position()}, "
                         f"checkpoint {a.checkpoint} at {state['next_batch']}: they disagree")
    while len(state["trained"]) < a.steps:
        # ready: the batch was committed before the trainer asked for it,
        # i.e. generated while the trainer trained (overlap).
        ready = store.get(manifest_key(a.job, consumer.position())) is not None
        try:
            batch = consumer.next(timeout=a.next_timeout)
        except EndOfStream:
            log("end_of_stream", trained=len(state["trained"]))
            break
        time.sleep(a.train_seconds)  # the simulated training step
        state["trained"].append({"batch": batch.number, "versions": batch.policy_versions,
                                 "turn_rows": batch.turn_rows_count, "ready": ready})
        version = f"v{len(state['trained'])}"
        if a.weights_url:
            swap_weights(a.weights_url, version, a.weights_extra)
        if len(state["trained"]) < a.steps or not a.skip_last_announce:
            announce(control, a, version, lambda: store.get(f"{a.job}/_SUCCESS") is not None)
        state["next_batch"] = batch.number + 1
        write_checkpoint(a.checkpoint, state)
        consumer.ack(batch, trainer_step=len(state["trained"]))
        log("trained", batch=batch.number, versions=batch.policy_versions, turn_rows=batch.turn_rows_count,
            announced=version)
    return 0


if __name__ == "__main__":
    sys.exit(main())
