import json
import os
import tempfile
import threading
import unittest
from unittest import mock

from quarry import Batch, BatchCorrupt, Consumer, EndOfStream, FolderStore
from tests.fixtures import batch_files, commit_batch, end_stream

JOB = "online-test"


class WatchedStore(FolderStore):
    """A FolderStore that reports when a reader looked for a manifest that
    was not there yet (so a test knows next() is waiting)."""

    def __init__(self, root):
        super().__init__(root)
        self.missed = threading.Event()

    def get(self, key):
        data = super().get(key)
        if data is None and "/_manifest/" in key:
            self.missed.set()
        return data


class ConsumerTest(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.root = tmp.name
        self.store = FolderStore(self.root)

    def consumer(self, name="trainer", **kw):
        return Consumer(self.store, JOB, name, poll=0.001, max_poll=0.01, **kw)

    def test_batches_in_order_verified(self):
        for n in range(3):
            commit_batch(self.root, JOB, n, versions=("v0", f"v{n}") if n else ("v0",),
                         failures=[{"episode": 1, "error_class": "EpisodeTimeout"}] if n == 2 else None)
        c = self.consumer()
        got = []
        for _ in range(3):
            b = c.next(timeout=5)
            got.append(b)
            c.ack(b)
        self.assertEqual([b.number for b in got], [0, 1, 2])
        files = batch_files(JOB, 1)
        self.assertEqual(got[1].file_bytes("turns"), files["shards/part-00001.turns.parquet"])
        self.assertEqual(got[1].file_bytes("episodes"), files["shards/part-00001.episodes.parquet"])
        self.assertIsNone(got[1].file_bytes("failures"))
        self.assertEqual(got[1].failures(), [])
        self.assertEqual(got[2].failures(), [{"episode": 1, "error_class": "EpisodeTimeout"}])
        self.assertEqual(got[1].policy_versions, ["v0", "v1"])
        self.assertEqual(got[1].turn_rows_count, 6)
        self.assertEqual(got[1].manifest["norm_scheme"], "rebn")
        with self.assertRaisesRegex(ValueError, "file kind"):
            got[0].file_bytes("logs")

    def test_cursor_missing_is_zero_and_ack_writes_it(self):
        c = self.consumer()
        self.assertEqual(c.cursor(), {"schema_version": 1, "job": JOB, "consumer": "trainer", "next_batch": 0})
        commit_batch(self.root, JOB, 0)
        c.ack(c.next(timeout=5))
        with open(os.path.join(self.root, JOB, "_consumers", "trainer.json")) as f:
            self.assertEqual(json.load(f), {"schema_version": 1, "job": JOB, "consumer": "trainer", "next_batch": 1})

    def test_blocking_next_returns_when_batch_commits(self):
        store = WatchedStore(self.root)
        c = Consumer(store, JOB, "trainer", poll=0.001, max_poll=0.01)
        result, done = {}, threading.Event()

        def consume():
            try:
                result["batch"] = c.next(timeout=30)
            except BaseException as e:  # reported to the test thread
                result["error"] = e
            done.set()

        t = threading.Thread(target=consume)
        t.start()
        self.addCleanup(t.join)
        self.assertTrue(store.missed.wait(10), "next() never looked for batch 0")
        self.assertFalse(done.is_set(), "next() returned before batch 0 was committed")
        commit_batch(self.root, JOB, 0)
        self.assertTrue(done.wait(10), "next() did not return after batch 0 was committed")
        self.assertNotIn("error", result)
        self.assertEqual(result["batch"].number, 0)

    def test_timeout(self):
        with self.assertRaisesRegex(TimeoutError, "batch 0 of job 'online-test' not committed"):
            self.consumer().next(timeout=0.02)

    def test_restart_after_ack_continues_after_last_ack(self):
        for n in range(4):
            commit_batch(self.root, JOB, n)
        first = self.consumer()
        first.ack(first.next(timeout=5))
        first.ack(first.next(timeout=5))
        first.next(timeout=5)  # batch 2 delivered, never acked: the trainer crashed
        restarted = self.consumer()
        self.assertEqual(restarted.next(timeout=5).number, 2)

    def test_two_consumers_each_see_every_batch(self):
        for n in range(3):
            commit_batch(self.root, JOB, n)
        a, b = self.consumer("trainer-a"), self.consumer("trainer-b")
        seen_a = []
        for batch in a:
            seen_a.append(batch.number)
            a.ack(batch)
            if batch.number == 2:
                break
        seen_b = [b.next(timeout=5).number for _ in range(3)]
        self.assertEqual(seen_a, [0, 1, 2])
        self.assertEqual(seen_b, [0, 1, 2])
        self.assertEqual(a.cursor()["next_batch"], 3)
        self.assertEqual(b.cursor()["next_batch"], 0)

    def test_corruption_refused(self):
        commit_batch(self.root, JOB, 0)
        path = os.path.join(self.root, JOB, "shards", "part-00000.turns.parquet")
        with open(path, "r+b") as f:
            f.write(b"X")  # same size, different bytes
        with self.assertRaisesRegex(BatchCorrupt, r"part-00000\.turns\.parquet: .* sha256"):
            self.consumer().next(timeout=5)
        with open(path, "ab") as f:
            f.write(b"more")
        with self.assertRaisesRegex(BatchCorrupt, "bytes with sha256"):
            self.consumer().next(timeout=5)
        os.unlink(path)
        with self.assertRaisesRegex(BatchCorrupt, "missing from the store"):
            self.consumer().next(timeout=5)
        # A refused batch is not skipped: the cursor did not move.
        self.assertEqual(self.consumer().cursor()["next_batch"], 0)

    def test_manifest_of_another_batch_refused(self):
        m = commit_batch(self.root, JOB, 0)
        m["batch"] = 7
        self.store.put(f"{JOB}/_manifest/part-00000.json", json.dumps(m).encode())
        with self.assertRaisesRegex(BatchCorrupt, "want .'online-test', 0."):
            self.consumer().next(timeout=5)

    def test_end_of_stream(self):
        for n in range(2):
            commit_batch(self.root, JOB, n)
        end_stream(self.root, JOB, 2)
        c = self.consumer()
        self.assertEqual([b.number for b in c], [0, 1])
        with self.assertRaisesRegex(EndOfStream, "ended after 2 batches"):
            c.next(timeout=5)

    def test_end_of_stream_with_timeout_none_does_not_wait(self):
        end_stream(self.root, JOB, 0)
        with self.assertRaises(EndOfStream):
            self.consumer().next()

    def test_ack_rules_and_extra_fields_kept(self):
        for n in range(3):
            commit_batch(self.root, JOB, n)
        c = self.consumer()
        b0 = c.next(timeout=5)
        with self.assertRaisesRegex(ValueError, "cursor is at batch 0: ack batches in order"):
            c.ack(2)
        c.ack(b0, trainer_step=10, run="exp-1")
        self.assertEqual(c.cursor()["trainer_step"], 10)
        # Acking a batch the cursor is past changes nothing.
        before = self.store.get(f"{JOB}/_consumers/trainer.json")
        self.assertEqual(c.ack(0, trainer_step=99)["next_batch"], 1)
        self.assertEqual(self.store.get(f"{JOB}/_consumers/trainer.json"), before)
        c.ack(c.next(timeout=5), trainer_step=11)
        cur = c.cursor()
        self.assertEqual((cur["next_batch"], cur["trainer_step"], cur["run"]), (2, 11, "exp-1"))
        c.ack(c.next(timeout=5))
        self.assertEqual(c.cursor()["run"], "exp-1")  # kept by an ack without extras
        with self.assertRaisesRegex(ValueError, "cursor's own"):
            c.ack(3, next_batch=9)

    def test_ack_moves_position_past_a_batch_not_delivered_here(self):
        # A restarted trainer re-acks the batch its checkpoint says it trained.
        for n in range(3):
            commit_batch(self.root, JOB, n)
        c = self.consumer()
        c.ack(0)
        self.assertEqual(c.next(timeout=5).number, 1)

    def test_large_batch_numbers_use_more_digits(self):
        self.store.put(f"{JOB}/_consumers/trainer.json",
                       json.dumps({"schema_version": 1, "job": JOB, "consumer": "trainer",
                                   "next_batch": 100000}).encode())
        commit_batch(self.root, JOB, 100000)
        self.assertTrue(os.path.exists(os.path.join(self.root, JOB, "_manifest", "part-100000.json")))
        self.assertEqual(self.consumer().next(timeout=5).number, 100000)

    def test_bad_names_refused(self):
        for name in ["", "-x", "a/b", "x" * 65, "a b"]:
            with self.assertRaisesRegex(ValueError, "consumer name", msg=name):
                Consumer(self.store, JOB, name)
        for job in ["a/b", "", "Upper", "..", "-x", "x" * 64]:
            with self.assertRaisesRegex(ValueError, "job .*: want the job id", msg=job):
                Consumer(self.store, job, "trainer")

    def test_bad_cursor_refused(self):
        self.store.put(f"{JOB}/_consumers/trainer.json", b'{"next_batch": -1}')
        with self.assertRaisesRegex(ValueError, "next_batch -1"):
            self.consumer().cursor()

    def test_rows_need_pyarrow(self):
        commit_batch(self.root, JOB, 0)
        b = self.consumer().next(timeout=5)
        self.assertIsInstance(b, Batch)
        # As on a machine without pyarrow, whether or not this one has it.
        with mock.patch.dict("sys.modules", {"pyarrow": None, "pyarrow.parquet": None}):
            for read in (b.turn_rows, b.episode_rows, b.turn_table, b.episode_table):
                with self.assertRaisesRegex(ImportError, "needs pyarrow .* pip install pyarrow"):
                    read()


if __name__ == "__main__":
    unittest.main()
