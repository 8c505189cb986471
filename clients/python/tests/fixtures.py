"""Hand-written committed batches for the tests: data files with made-up
bytes and manifests that name them with their real size and sha256."""

import hashlib
import json
import os


def write_file(root, key, data: bytes):
    path = os.path.join(root, *key.split("/"))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    return path


def entry(path, data: bytes, rows):
    return {"path": path, "size": len(data), "sha256": hashlib.sha256(data).hexdigest(), "rows": rows}


def batch_files(job, n, failures=None):
    """The data files of batch n: {relative path: bytes}."""
    files = {
        f"shards/part-{n:05d}.turns.parquet": f"PAR1 turns of {job} batch {n} PAR1".encode(),
        f"shards/part-{n:05d}.episodes.parquet": f"PAR1 episodes of {job} batch {n} PAR1".encode(),
    }
    if failures:
        files[f"_failures/part-{n:05d}.jsonl"] = b"".join(json.dumps(f).encode() + b"\n" for f in failures)
    return files


def commit_batch(root, job, n, *, turn_rows=None, versions=("v0",), failures=None, returns=None):
    """Write batch n's files, then its manifest (the commit). Returns the manifest."""
    files = batch_files(job, n, failures)
    turn_rows = 3 * (n + 1) if turn_rows is None else turn_rows
    entries = []
    for path, data in files.items():
        write_file(root, f"{job}/{path}", data)
        rows = len(failures) if path.endswith(".jsonl") else (turn_rows if ".turns." in path else 2)
        entries.append(entry(path, data, rows))
    m = {
        "schema_version": 1,
        "job": job,
        "batch": n,
        "files": entries,
        "turn_rows": turn_rows,
        "episode_rows": 2,
        "failed_episodes": len(failures or []),
        "returns": returns or {"count": turn_rows, "sum": 1.5 * turn_rows, "sum_sq": 2.5 * turn_rows},
        "gamma": 1,
        "norm_scheme": "rebn",
        "env_versions": {"game:GuessTheNumber-v0": "1"},
        "policy": {
            "versions": [{"version": v, "step": i} for i, v in enumerate(versions)],
            "current": {"version": versions[-1], "step": len(versions) - 1},
        },
    }
    write_file(root, f"{job}/_manifest/part-{n:05d}.json", json.dumps(m, indent=2).encode())
    return m


def end_stream(root, job, batches):
    write_file(root, f"{job}/_SUCCESS", json.dumps({"schema_version": 1, "job": job, "batches": batches}).encode())
