"""Tell an online job which policy version the inference servers now serve.

Two ways with one interface, ``announce(job, version, model=None)``:

- ``CLIControl`` runs ``submit policy <job> --version <v> [--model <m>]``
  (the submit command is configurable: ``submit --local --state-dir .quarry``
  for a local job);
- ``HTTPControl`` posts to ``quarry serve``'s control API:
  ``POST {base}/v1/jobs/{job}/policy`` with ``{"version", "model"}``.

Announce a version only once the servers answer with it: every turn records
the version live when its request was sent.
"""

from __future__ import annotations

import json
import subprocess
import urllib.error
import urllib.parse
import urllib.request

__all__ = ["CLIControl", "ControlError", "HTTPControl", "check_version"]

MAX_NAME_LEN = 512  # schema.MaxNameLen


class ControlError(RuntimeError):
    """An announcement (or another control call) was refused or failed; the
    message carries the command's stderr or the server's error."""


def check_version(version: str) -> str:
    """Refuse a label that cannot be a policy_version value (the rule of
    schema.CheckVersionLabel)."""
    if not isinstance(version, str) or version == "":
        raise ValueError("empty version: want a label such as v7 or step-1200")
    if len(version.encode()) > MAX_NAME_LEN:
        raise ValueError(f"version of {len(version.encode())} bytes: want at most {MAX_NAME_LEN}")
    if any(c in version for c in "\n\r\x00"):
        raise ValueError(f"version {version!r}: no line breaks or NUL")
    return version


class CLIControl:
    """Announce versions by running the submit CLI.

    submit_cmd is the command up to the subcommand, as a list; cwd, env and
    timeout (seconds) go to subprocess.run.
    """

    def __init__(self, submit_cmd=("submit", "--local", "--state-dir", ".quarry"), *, cwd=None, env=None,
                 timeout: float | None = None):
        if isinstance(submit_cmd, str):
            raise TypeError("submit_cmd: want a list of arguments (use shlex.split on a command line)")
        self.submit_cmd = list(submit_cmd)
        if not self.submit_cmd:
            raise ValueError("submit_cmd is empty: want e.g. ['submit', '--local', '--state-dir', '.quarry']")
        self.cwd, self.env, self.timeout = cwd, env, timeout

    def command(self, job: str, version: str, model: str | None = None) -> list[str]:
        """The argv announce runs."""
        cmd = self.submit_cmd + ["policy", job, "--version", check_version(version)]
        if model:
            cmd += ["--model", model]
        return cmd

    def announce(self, job: str, version: str, model: str | None = None) -> None:
        cmd = self.command(job, version, model)
        try:
            subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=self.cwd, env=self.env,
                           timeout=self.timeout)
        except subprocess.CalledProcessError as e:
            raise ControlError(
                f"announce {version} to job {job!r}: {' '.join(cmd)} exited {e.returncode}: "
                f"{(e.stderr or '').strip() or '(no stderr)'}"
            ) from e
        except subprocess.TimeoutExpired as e:
            raise ControlError(f"announce {version} to job {job!r}: {' '.join(cmd)} timed out after {e.timeout} s") from e
        except FileNotFoundError as e:
            raise ControlError(f"announce {version} to job {job!r}: cannot run {cmd[0]!r}: {e}") from e


class HTTPControl:
    """Announce versions (and read or move cursors) through ``quarry serve``'s
    HTTP control API, with urllib only."""

    def __init__(self, base_url: str, *, timeout: float = 30.0):
        u = urllib.parse.urlparse(base_url)
        if u.scheme not in ("http", "https") or not u.netloc:
            raise ValueError(f"base_url {base_url!r}: want http://host:port")
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout

    def _url(self, *parts: str) -> str:
        return self.base_url + "/v1/" + "/".join(urllib.parse.quote(p, safe="") for p in parts)

    def _call(self, method: str, url: str, body=None, what: str = ""):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(url, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                raw = resp.read()
        except urllib.error.HTTPError as e:
            raise ControlError(f"{what}: {method} {url}: HTTP {e.code}: {_server_error(e)}") from e
        except urllib.error.URLError as e:
            raise ControlError(f"{what}: {method} {url}: {e.reason}") from e
        if not raw.strip():
            return None
        try:
            return json.loads(raw)
        except json.JSONDecodeError as e:
            raise ControlError(f"{what}: {method} {url}: answer is not JSON: {raw[:200]!r}") from e

    def announce(self, job: str, version: str, model: str | None = None):
        body = {"version": check_version(version), "model": model or ""}
        return self._call("POST", self._url("jobs", job, "policy"), body, f"announce {version} to job {job!r}")

    def cursor(self, job: str, consumer: str) -> dict:
        return self._call("GET", self._url("jobs", job, "cursors", consumer), None, f"cursor of {consumer!r}")

    def ack(self, job: str, consumer: str, batch: int) -> dict:
        return self._call("POST", self._url("jobs", job, "cursors", consumer), {"batch": batch},
                          f"ack batch {batch} for {consumer!r}")


def _server_error(e: urllib.error.HTTPError) -> str:
    try:
        raw = e.read()
    except OSError:
        return e.reason or ""
    try:
        body = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return raw.decode("utf-8", "replace").strip()[:500] or str(e.reason)
    if isinstance(body, dict):
        err = body.get("error", body.get("message"))
        if isinstance(err, dict):
            err = err.get("message", err)
        if err is not None:
            return str(err)
    return json.dumps(body)
