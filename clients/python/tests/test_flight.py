import json
import unittest
from unittest import mock

from quarry import BatchCorrupt
from quarry.flight import FlightConsumer, action_body, batch_metadata, parse_cursor, ticket


class EncodingTest(unittest.TestCase):
    def test_ticket_is_the_services_json(self):
        self.assertEqual(json.loads(ticket("online-demo", "trainer")),
                         {"job": "online-demo", "consumer": "trainer", "table": "turns", "wait_ms": 0})
        self.assertEqual(ticket("j", "t", "episodes", 250), b'{"job":"j","consumer":"t","table":"episodes","wait_ms":250}')

    def test_ticket_refuses_bad_fields(self):
        for kwargs, msg in [({"table": "logs"}, "table 'logs'"), ({"wait_ms": -1}, "wait_ms -1"),
                            ({"wait_ms": 1.5}, "wait_ms 1.5")]:
            with self.assertRaisesRegex(ValueError, msg):
                ticket("j", "t", **kwargs)
        with self.assertRaisesRegex(ValueError, "consumer name"):
            ticket("j", "bad name")

    def test_action_bodies(self):
        self.assertEqual(action_body("j", "t", 4), b'{"job":"j","consumer":"t","batch":4}')
        self.assertEqual(action_body("j", "t"), b'{"job":"j","consumer":"t"}')
        with self.assertRaisesRegex(ValueError, "batch -1"):
            action_body("j", "t", -1)

    def test_parse_cursor(self):
        self.assertEqual(parse_cursor(b'{"schema_version":1,"job":"j","consumer":"t","next_batch":3}')["next_batch"], 3)
        with self.assertRaisesRegex(ValueError, "not JSON"):
            parse_cursor(b"nope")
        with self.assertRaisesRegex(ValueError, "next_batch"):
            parse_cursor(b"{}")

    def test_batch_metadata(self):
        manifest = {"schema_version": 1, "job": "j", "batch": 7, "turn_rows": 12}
        md = {b"quarry.batch": b"7", b"quarry.manifest": json.dumps(manifest).encode(), b"quarry.table": b"turns"}
        self.assertEqual(batch_metadata(md), (7, manifest))
        self.assertEqual(batch_metadata({"quarry.batch": "7", "quarry.manifest": json.dumps(manifest)})[0], 7)
        with self.assertRaisesRegex(BatchCorrupt, "lacks quarry.batch"):
            batch_metadata({})
        with self.assertRaisesRegex(BatchCorrupt, "quarry.batch 8 but the manifest is batch 7"):
            batch_metadata({b"quarry.batch": b"8", b"quarry.manifest": json.dumps(manifest).encode()})

    def test_without_pyarrow_says_so(self):
        with mock.patch.dict("sys.modules", {"pyarrow": None, "pyarrow.flight": None}):
            with self.assertRaisesRegex(ImportError, "pip install pyarrow"):
                FlightConsumer("grpc://127.0.0.1:8815", "j", "trainer")


if __name__ == "__main__":
    unittest.main()
