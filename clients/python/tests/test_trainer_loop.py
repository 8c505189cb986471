import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

from quarry import Consumer, FolderStore
from tests.fixtures import commit_batch, end_stream
from tests.test_control import calls, fake_submit

JOB = "online-test"
HERE = os.path.dirname(os.path.abspath(__file__))
TRAINER = os.path.join(HERE, "..", "examples", "trainer_loop.py")


class TrainerLoopTest(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = tmp.name
        self.out = os.path.join(self.dir, "out")
        self.ckpt = os.path.join(self.dir, "ckpt.json")
        self.submit, self.log = fake_submit(self.dir)
        for n in range(5):
            commit_batch(self.out, JOB, n, versions=("v0",) if n == 0 else (f"v{n - 1}", f"v{n}"))

    def trainer_cmd(self, steps, *extra):
        return [sys.executable, TRAINER, "--output", self.out, "--job", JOB, "--consumer", "trainer",
                "--steps", str(steps), "--train-seconds", "0", "--checkpoint", self.ckpt,
                "--submit-cmd", " ".join(self.submit + ["--local"]), "--next-timeout", "30", *extra]

    def run_trainer(self, steps, *extra):
        p = subprocess.run(self.trainer_cmd(steps, *extra), capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        return [json.loads(line) for line in p.stdout.splitlines()]

    def checkpoint(self):
        with open(self.ckpt) as f:
            return json.load(f)

    def cursor(self):
        return Consumer(FolderStore(self.out), JOB, "trainer").cursor()

    def test_trains_announces_checkpoints_and_acks(self):
        events = self.run_trainer(2)
        self.assertEqual([e["batch"] for e in events], [0, 1])
        self.assertEqual(self.checkpoint(), {"next_batch": 2, "trained": [
            {"batch": 0, "versions": ["v0"], "turn_rows": 3, "ready": True},
            {"batch": 1, "versions": ["v0", "v1"], "turn_rows": 6, "ready": True},
        ]})
        self.assertEqual(self.cursor()["next_batch"], 2)
        self.assertEqual(self.cursor()["trainer_step"], 2)
        self.assertEqual(calls(self.log), [["--local", "policy", JOB, "--version", "v1"],
                                           ["--local", "policy", JOB, "--version", "v2"]])

    def test_resume_from_checkpoint_after_kill_between_checkpoint_and_ack(self):
        self.run_trainer(2)
        # As if the trainer died after writing the checkpoint of batch 1 but
        # before acking it: the cursor is one batch behind.
        store = FolderStore(self.out)
        store.put(f"{JOB}/_consumers/trainer.json",
                  json.dumps({"schema_version": 1, "job": JOB, "consumer": "trainer", "next_batch": 1}).encode())
        events = self.run_trainer(4)
        self.assertEqual(events[0], {"event": "resumed", "next_batch": 2, "trained": 2})
        self.assertEqual([e["batch"] for e in events[1:]], [2, 3])
        self.assertEqual([t["batch"] for t in self.checkpoint()["trained"]], [0, 1, 2, 3])
        self.assertEqual(self.cursor()["next_batch"], 4)
        # Every version announced once, in order, across both runs.
        self.assertEqual([c[-1] for c in calls(self.log)], ["v1", "v2", "v3", "v4"])

    def test_sigkill_mid_announcement_retrains_only_the_unsaved_batch(self):
        # The trainer hangs announcing v2 (after training batch 1, before its
        # checkpoint) and is killed there with SIGKILL.
        env = dict(os.environ, FAKE_SUBMIT_HANG="v2")
        p = subprocess.Popen(self.trainer_cmd(4), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
        try:
            deadline = time.monotonic() + 60
            while not os.path.exists(self.log + ".hung"):
                self.assertIsNone(p.poll(), "the trainer exited before announcing v2")
                self.assertLess(time.monotonic(), deadline, "the trainer never announced v2")
                time.sleep(0.01)  # polling for the marker, with a deadline
        finally:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait(timeout=30)
        self.assertEqual(self.checkpoint()["next_batch"], 1)
        self.assertEqual(self.cursor()["next_batch"], 1)
        events = self.run_trainer(4)
        self.assertEqual([e.get("batch") for e in events], [None, 1, 2, 3])
        # Every batch in the checkpoint exactly once; batch 1 was announced
        # twice (the first announcement never finished), each version in order.
        self.assertEqual([t["batch"] for t in self.checkpoint()["trained"]], [0, 1, 2, 3])
        self.assertEqual(self.cursor()["next_batch"], 4)
        self.assertEqual([c[-1] for c in calls(self.log)], ["v1", "v2", "v2", "v3", "v4"])

    def test_disagreeing_cursor_is_a_clear_error(self):
        self.run_trainer(1)
        FolderStore(self.out).put(f"{JOB}/_consumers/trainer.json", json.dumps(
            {"schema_version": 1, "job": JOB, "consumer": "trainer", "next_batch": 3}).encode())
        p = subprocess.run(self.trainer_cmd(2), capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 1)
        self.assertIn("cursor of 'trainer' is at batch 3, checkpoint", p.stderr)

    def test_resume_with_cursor_already_acked(self):
        self.run_trainer(1)
        events = self.run_trainer(3)
        self.assertEqual([e.get("batch") for e in events], [None, 1, 2])
        self.assertEqual([t["batch"] for t in self.checkpoint()["trained"]], [0, 1, 2])

    def test_steps_already_reached_trains_nothing(self):
        self.run_trainer(2)
        events = self.run_trainer(2)
        self.assertEqual([e["event"] for e in events], ["resumed"])
        self.assertEqual(len(calls(self.log)), 2)

    def test_announce_to_an_ended_job_is_skipped(self):
        # The job's server is gone: before the stream ended that is an error,
        # after (_SUCCESS written) there is nothing left to announce to.
        env = dict(os.environ, FAKE_SUBMIT_DOWN="1")
        p = subprocess.run(self.trainer_cmd(2), capture_output=True, text=True, timeout=120, env=env)
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn("no submit --local is running", p.stderr)
        self.assertFalse(os.path.exists(self.ckpt))  # it failed before its first checkpoint
        end_stream(self.out, JOB, 5)
        p = subprocess.run(self.trainer_cmd(3), capture_output=True, text=True, timeout=120, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        events = [json.loads(line) for line in p.stdout.splitlines()]
        self.assertIn("announce_skipped", [e["event"] for e in events])

    def test_stops_at_end_of_stream(self):
        end_stream(self.out, JOB, 5)
        events = self.run_trainer(10)
        self.assertEqual([e["event"] for e in events], ["trained"] * 5 + ["end_of_stream"])
        self.assertEqual(self.checkpoint()["next_batch"], 5)

    def test_weights_request_sent_before_announce(self):
        import http.server
        import threading

        order = []

        class Weights(http.server.BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                order.append(("weights", body, len(calls(log))))
                data = json.dumps({"version": body["version"]}).encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        log = self.log
        srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Weights)
        t = threading.Thread(target=srv.serve_forever)
        t.start()
        self.addCleanup(t.join)
        self.addCleanup(srv.server_close)
        self.addCleanup(srv.shutdown)
        url = f"http://127.0.0.1:{srv.server_address[1]}/admin/weights"
        self.run_trainer(2, "--weights-url", url, "--weights-extra", '{"unavailable_ms": 50, "status": 404}')
        # Each swap happened before its announcement (announcements made so far: 0, then 1).
        self.assertEqual(order, [
            ("weights", {"unavailable_ms": 50, "status": 404, "version": "v1"}, 0),
            ("weights", {"unavailable_ms": 50, "status": 404, "version": "v2"}, 1),
        ])


if __name__ == "__main__":
    unittest.main()
