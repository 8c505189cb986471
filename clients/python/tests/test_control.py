import http.server
import json
import os
import sys
import tempfile
import threading
import unittest

from quarry import CLIControl, ControlError, HTTPControl
from quarry.control import check_version

# A stand-in for the submit CLI: appends its argv to a file as one JSON line;
# exits 2 with a message on stderr when asked for version "refused", 1 on
# every call when $FAKE_SUBMIT_DOWN is set (no job server); hangs
# (after creating <log>.hung) when asked for the version in $FAKE_SUBMIT_HANG,
# so a test can kill its caller mid-announcement.
FAKE_SUBMIT = r'''
import json, os, sys, time
log = sys.argv[1]
args = sys.argv[2:]
with open(log, "a") as f:
    f.write(json.dumps(args) + "\n")
if os.environ.get("FAKE_SUBMIT_DOWN"):
    sys.stderr.write("submit: policy --local: no submit --local is running\n")
    sys.exit(1)
if "refused" in args:
    sys.stderr.write("submit: job online-test: version refused is older than v3\n")
    sys.exit(2)
if os.environ.get("FAKE_SUBMIT_HANG") in args:
    open(log + ".hung", "w").close()
    time.sleep(3600)  # the hung command; the test kills it
'''


def fake_submit(folder):
    """The submit_cmd of a fake CLI and the file it logs its calls to."""
    script = os.path.join(folder, "fake_submit.py")
    with open(script, "w") as f:
        f.write(FAKE_SUBMIT)
    log = os.path.join(folder, "calls.jsonl")
    return [sys.executable, script, log], log


def calls(log):
    if not os.path.exists(log):
        return []
    with open(log) as f:
        return [json.loads(line) for line in f]


class CLIControlTest(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.cmd, self.log = fake_submit(tmp.name)

    def test_announce_runs_submit_policy(self):
        c = CLIControl(self.cmd + ["--local", "--state-dir", ".quarry"])
        c.announce("online-test", "v7")
        c.announce("online-test", "v8", model="qwen-v8")
        self.assertEqual(calls(self.log), [
            ["--local", "--state-dir", ".quarry", "policy", "online-test", "--version", "v7"],
            ["--local", "--state-dir", ".quarry", "policy", "online-test", "--version", "v8", "--model", "qwen-v8"],
        ])

    def test_default_command(self):
        self.assertEqual(CLIControl().command("j", "v1"),
                         ["submit", "--local", "--state-dir", ".quarry", "policy", "j", "--version", "v1"])

    def test_failure_carries_stderr(self):
        with self.assertRaisesRegex(ControlError, "exited 2: submit: job online-test: version refused is older"):
            CLIControl(self.cmd).announce("online-test", "refused")

    def test_missing_program(self):
        with self.assertRaisesRegex(ControlError, "cannot run"):
            CLIControl(["/nonexistent/submit"]).announce("j", "v1")

    def test_bad_version_refused_before_running(self):
        for v, msg in [("", "empty version"), ("a\nb", "no line breaks"), ("x" * 513, "at most 512")]:
            with self.assertRaisesRegex(ValueError, msg):
                CLIControl(self.cmd).announce("j", v)
        self.assertEqual(calls(self.log), [])
        self.assertEqual(check_version("step-1200"), "step-1200")

    def test_string_command_refused(self):
        with self.assertRaisesRegex(TypeError, "shlex.split"):
            CLIControl("submit --local")


class ControlServer(http.server.ThreadingHTTPServer):
    """A loopback server answering like quarry serve's control API: it
    records each request and refuses version "bad" with a JSON error."""

    def __init__(self):
        self.requests = []
        self.cursors = {}
        super().__init__(("127.0.0.1", 0), Handler)


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, code, body):
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append(("POST", self.path, body))
        parts = self.path.split("/")
        if self.path.endswith("/policy"):
            if body["version"] == "bad":
                return self.reply(400, {"error": "version \"bad\": refused by the test server"})
            return self.reply(200, {"job": parts[3], "version": body["version"]})
        self.server.cursors[parts[5]] = body["batch"] + 1
        return self.reply(200, {"consumer": parts[5], "next_batch": body["batch"] + 1})

    def do_GET(self):
        self.server.requests.append(("GET", self.path, None))
        parts = self.path.split("/")
        if parts[5] not in self.server.cursors:
            return self.reply(404, {"error": {"message": "no such job"}})
        return self.reply(200, {"consumer": parts[5], "next_batch": self.server.cursors[parts[5]]})


class HTTPControlTest(unittest.TestCase):
    def setUp(self):
        self.server = ControlServer()
        t = threading.Thread(target=self.server.serve_forever)
        t.start()
        self.addCleanup(t.join)
        self.addCleanup(self.server.server_close)
        self.addCleanup(self.server.shutdown)
        self.control = HTTPControl(f"http://127.0.0.1:{self.server.server_address[1]}/")

    def test_announce_posts_version_and_model(self):
        self.control.announce("online-test", "v7")
        self.control.announce("online-test", "v8", model="qwen-v8")
        self.assertEqual(self.server.requests, [
            ("POST", "/v1/jobs/online-test/policy", {"version": "v7", "model": ""}),
            ("POST", "/v1/jobs/online-test/policy", {"version": "v8", "model": "qwen-v8"}),
        ])

    def test_server_error_is_raised_with_its_message(self):
        with self.assertRaisesRegex(ControlError, r'HTTP 400: version "bad": refused by the test server'):
            self.control.announce("online-test", "bad")
        with self.assertRaisesRegex(ControlError, "HTTP 404: no such job"):
            self.control.cursor("online-test", "trainer")

    def test_cursor_and_ack(self):
        self.assertEqual(self.control.ack("online-test", "trainer", 4)["next_batch"], 5)
        self.assertEqual(self.control.cursor("online-test", "trainer")["next_batch"], 5)
        self.assertEqual(self.server.requests[0], ("POST", "/v1/jobs/online-test/cursors/trainer", {"batch": 4}))

    def test_unreachable(self):
        port = self.server.server_address[1]
        self.server.shutdown()
        self.server.server_close()
        with self.assertRaisesRegex(ControlError, "announce v1"):
            HTTPControl(f"http://127.0.0.1:{port}", timeout=5).announce("j", "v1")

    def test_bad_base_url(self):
        with self.assertRaisesRegex(ValueError, "base_url"):
            HTTPControl("127.0.0.1:8816")


if __name__ == "__main__":
    unittest.main()
