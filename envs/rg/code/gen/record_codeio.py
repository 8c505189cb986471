"""Record input/output pairs for rg:codeio (see ../PROVENANCE.md).

Run once, offline, by a maintainer; never at generation time:

    git -C <reasoning-gym> show v0.1.23:reasoning_gym/data/codeio.jsonl.gz > /tmp/codeio.jsonl.gz
    python3 gen/record_codeio.py /tmp/codeio.jsonl.gz data/codeio.jsonl.gz

Only entries whose code imports nothing but pure standard-library modules from
ALLOWED (and calls no open/exec/eval/__import__) are kept. Each entry's code
runs in its own process inside bubblewrap (no network, read-only root, a
private /tmp) under a memory and CPU limit: the dataset's code comes from an
LLM and reasoning-gym warns it may misbehave. For each kept entry, PAIRS
pairs are drawn as reasoning-gym draws one (generate_inputs(Random(seed)),
then main_solution(**inputs)), with seeds 0..PAIRS-1, and recorded as
Python's str() and json.dumps() of the input and of the output. Pairs whose
JSON holds NaN or infinities, or is longer than MAX_JSON characters, are
dropped; entries left with fewer than 2 pairs, or whose question is longer
than MAX_QUESTION characters, are dropped; the first LIMIT entries kept, in
the file's order, are written.
"""

import gzip
import json
import re
import subprocess
import sys

ALLOWED = {
    "random", "math", "collections", "itertools", "typing", "re", "json", "copy", "string",
    "functools", "fractions", "operator", "heapq", "bisect", "decimal", "cmath", "enum",
    "dataclasses", "abc", "statistics", "numbers",
}
PAIRS = 5
MAX_JSON = 600
MAX_QUESTION = 6000
LIMIT = 400

WORKER = r'''
import json, resource, sys
from random import Random
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
resource.setrlimit(resource.RLIMIT_CPU, (20, 20))
e = json.loads(sys.stdin.read())
env = {"Random": Random}
exec(e["code_sample"] + "\n\n" + e["input_generator"], env, env)
out = []
for seed in range(%d):
    try:
        inputs = env["generate_inputs"](Random(seed))
        outputs = env["main_solution"](**inputs)
        out.append({
            "input_str": str(inputs), "output_str": str(outputs),
            "input_json": json.dumps(inputs, allow_nan=False),
            "output_json": json.dumps(outputs, allow_nan=False),
        })
    except Exception:
        pass
sys.stdout.write(json.dumps(out))
''' % PAIRS

BWRAP = ["bwrap", "--ro-bind", "/", "/", "--tmpfs", "/tmp", "--dev", "/dev", "--proc", "/proc",
         "--unshare-all", "--die-with-parent", "--new-session", "--chdir", "/tmp"]


def allowed(e):
    src = e["code_sample"] + "\n" + e["input_generator"]
    mods = re.findall(r"^\s*(?:import|from)\s+([\w.]+)", src, re.M)
    if any(m.split(".")[0] not in ALLOWED for m in mods):
        return False
    return not re.search(r"\b(open|exec|eval|__import__|compile|globals|getattr|setattr)\s*\(", src)


def main(src, dst):
    kept = []
    with gzip.open(src, "rt", encoding="utf-8") as f:
        for n, line in enumerate(f):
            if len(kept) >= LIMIT:
                break
            e = json.loads(line)
            if not allowed(e):
                continue
            if len(e["task_description"]) + len(e["input_output_spec"]) + len(e["code_sample"]) > MAX_QUESTION:
                continue
            try:
                r = subprocess.run(BWRAP + [sys.executable, "-I", "-c", WORKER], input=json.dumps(e),
                                   capture_output=True, text=True, timeout=30)
                pairs = json.loads(r.stdout) if r.returncode == 0 else []
            except (subprocess.TimeoutExpired, json.JSONDecodeError):
                pairs = []
            pairs = [p for p in pairs if len(p["input_json"]) <= MAX_JSON and len(p["output_json"]) <= MAX_JSON
                     and len(p["input_str"]) <= MAX_JSON and len(p["output_str"]) <= MAX_JSON]
            if len(pairs) < 2:
                continue
            kept.append({
                "line": n,
                "task_description": e["task_description"],
                "input_output_spec": e["input_output_spec"],
                "code_sample": e["code_sample"],
                "difficulty": e.get("difficulty"),
                "pairs": pairs,
            })
            print(f"line {n}: {len(pairs)} pairs ({len(kept)} kept)", file=sys.stderr)
    with gzip.GzipFile(dst, "wb", mtime=0) as f:
        for k in kept:
            f.write((json.dumps(k, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8"))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
