import os
import tempfile
import unittest
from unittest import mock

from quarry.store import FolderStore, S3Store, open_store


class FolderStoreTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.store = FolderStore(self.tmp.name)

    def test_put_get_exists(self):
        self.assertIsNone(self.store.get("job/_consumers/a.json"))
        self.assertFalse(self.store.exists("job/_consumers/a.json"))
        self.store.put("job/_consumers/a.json", b"one")
        self.assertEqual(self.store.get("job/_consumers/a.json"), b"one")
        self.assertTrue(self.store.exists("job/_consumers/a.json"))
        self.store.put("job/_consumers/a.json", b"two")
        self.assertEqual(self.store.get("job/_consumers/a.json"), b"two")

    def test_put_leaves_no_temporary_file(self):
        self.store.put("job/x.json", b"data")
        self.assertEqual(os.listdir(os.path.join(self.tmp.name, "job")), ["x.json"])

    def test_failed_put_keeps_old_object(self):
        self.store.put("job/x.json", b"old")
        with mock.patch("os.replace", side_effect=OSError("disk gone")):
            with self.assertRaises(OSError):
                self.store.put("job/x.json", b"new")
        self.assertEqual(self.store.get("job/x.json"), b"old")
        self.assertEqual(os.listdir(os.path.join(self.tmp.name, "job")), ["x.json"])

    def test_list_prefix(self):
        for k in ["job/_manifest/part-00001.json", "job/_manifest/part-00000.json", "job/shards/a", "other/x"]:
            self.store.put(k, b"")
        # A write in progress is never listed.
        open(os.path.join(self.tmp.name, "job", "_manifest", ".quarry-tmp-123"), "w").close()
        self.assertEqual(self.store.list("job/_manifest/"),
                         ["job/_manifest/part-00000.json", "job/_manifest/part-00001.json"])
        self.assertEqual(self.store.list("job/_man"),
                         ["job/_manifest/part-00000.json", "job/_manifest/part-00001.json"])
        self.assertEqual(len(self.store.list("")), 4)
        self.assertEqual(self.store.list("missing/"), [])

    def test_bad_keys_refused(self):
        for key in ["", "/abs", "a/../b", "a//b", "./a"]:
            with self.assertRaises(ValueError, msg=key):
                self.store.get(key)


class OpenStoreTest(unittest.TestCase):
    def test_paths_and_file_urls(self):
        self.assertEqual(open_store("/data/out").root, "/data/out")
        self.assertEqual(open_store("file:///data/out").root, "/data/out")
        self.assertIsInstance(open_store("relative/dir"), FolderStore)

    def test_bad_urls(self):
        for url in ["http://host/x", "file://remote/x"]:
            with self.assertRaises(ValueError, msg=url):
                open_store(url)

    def test_s3_without_boto3_says_so(self):
        with mock.patch.dict("sys.modules", {"boto3": None}):
            with self.assertRaisesRegex(ImportError, "pip install boto3"):
                open_store("s3://bucket/prefix")

    def test_s3_store_over_a_client(self):
        # The S3 calls boto3 would make, answered by a dict.
        class NoSuchKey(Exception):
            response = {"Error": {"Code": "NoSuchKey"}}

        class Body:
            def __init__(self, b):
                self.b = b

            def read(self):
                return self.b

        class Client:
            def __init__(self):
                self.objects = {}

            def put_object(self, Bucket, Key, Body):
                self.objects[(Bucket, Key)] = Body

            def get_object(self, Bucket, Key):
                if (Bucket, Key) not in self.objects:
                    raise NoSuchKey()
                return {"Body": Body(self.objects[(Bucket, Key)])}

            def head_object(self, Bucket, Key):
                if (Bucket, Key) not in self.objects:
                    raise NoSuchKey()

            def get_paginator(self, name):
                assert name == "list_objects_v2"
                objects = self.objects

                class P:
                    def paginate(self, Bucket, Prefix):
                        keys = sorted(k for b, k in objects if b == Bucket and k.startswith(Prefix))
                        yield {"Contents": [{"Key": k} for k in keys]}

                return P()

        c = Client()
        s = S3Store("s3://bkt/root/", client=c)
        self.assertIsNone(s.get("job/a"))
        self.assertFalse(s.exists("job/a"))
        s.put("job/a", b"x")
        self.assertEqual(c.objects, {("bkt", "root/job/a"): b"x"})
        self.assertEqual(s.get("job/a"), b"x")
        self.assertTrue(s.exists("job/a"))
        self.assertEqual(s.list("job/"), ["job/a"])


if __name__ == "__main__":
    unittest.main()
