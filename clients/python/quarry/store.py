"""Object stores a consumer reads: a folder, or S3 through boto3.

A store maps keys ("job/_manifest/part-00000.json", always with "/") to bytes.
Every implementation offers the same four calls:

- ``get(key)`` -> bytes, or None when the key does not exist;
- ``put(key, data)`` writes the object whole and atomically (a reader sees
  the old object or the new one, never part of one);
- ``exists(key)`` -> bool;
- ``list(prefix)`` -> sorted keys that start with prefix.

``open_store`` picks one from a URL: ``file:///path``, a plain path, or
``s3://bucket/prefix``.
"""

from __future__ import annotations

import os
import tempfile
import urllib.parse

__all__ = ["FolderStore", "S3Store", "open_store"]

# Temporary files of an atomic write start with this; list() skips them.
_TEMP_PREFIX = ".quarry-tmp-"


def _check_key(key: str) -> str:
    if not isinstance(key, str) or key == "":
        raise ValueError(f"store key {key!r}: want a non-empty string")
    parts = key.split("/")
    if key.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise ValueError(f"store key {key!r}: want a relative key of non-empty parts without '.' or '..'")
    return key


class FolderStore:
    """A store over a local folder (what ``--output /path`` writes)."""

    def __init__(self, root: str | os.PathLike):
        self.root = os.path.abspath(os.fspath(root))

    def __repr__(self) -> str:
        return f"FolderStore({self.root!r})"

    def _path(self, key: str) -> str:
        return os.path.join(self.root, *_check_key(key).split("/"))

    def get(self, key: str) -> bytes | None:
        try:
            with open(self._path(key), "rb") as f:
                return f.read()
        except FileNotFoundError:
            return None
        except NotADirectoryError:
            return None

    def exists(self, key: str) -> bool:
        return os.path.isfile(self._path(key))

    def put(self, key: str, data: bytes) -> None:
        """Write data at key atomically: a temporary file in the same folder,
        flushed to disk, then renamed over the key (os.replace)."""
        path = self._path(key)
        folder = os.path.dirname(path)
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=_TEMP_PREFIX, dir=folder)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(bytes(data))
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            raise
        _fsync_dir(folder)

    def list(self, prefix: str = "") -> list[str]:
        """Keys under the folder that start with prefix, sorted; temporary
        files of writes in progress are never listed."""
        head, _, _ = prefix.rpartition("/")
        base = os.path.join(self.root, *head.split("/")) if head else self.root
        out = []
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames.sort()
            rel = os.path.relpath(dirpath, self.root)
            rel = "" if rel == "." else rel.replace(os.sep, "/") + "/"
            for name in filenames:
                if name.startswith(_TEMP_PREFIX):
                    continue
                key = rel + name
                if key.startswith(prefix):
                    out.append(key)
        out.sort()
        return out


def _fsync_dir(folder: str) -> None:
    # Make the rename itself durable; some filesystems refuse to fsync a
    # directory, which only weakens durability, never atomicity.
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _boto3():
    try:
        import boto3  # noqa: PLC0415 (lazy: boto3 is optional)
    except ImportError as e:
        raise ImportError(
            "S3Store needs boto3, which is not installed: pip install boto3 "
            "(or consume a local folder with FolderStore / a file:// URL)"
        ) from e
    return boto3


class S3Store:
    """A store over ``s3://bucket/prefix`` through boto3 (imported lazily).

    endpoint_url points at an S3-compatible server (versitygw, MinIO);
    ``client`` may be a ready boto3 S3 client (then the keyword arguments
    are unused); other keyword arguments go to ``boto3.client("s3", ...)``.
    """

    def __init__(self, url: str, endpoint_url: str | None = None, client=None, **client_kwargs):
        u = urllib.parse.urlparse(url)
        if u.scheme != "s3" or not u.netloc:
            raise ValueError(f"S3Store url {url!r}: want s3://bucket[/prefix]")
        self.bucket = u.netloc
        self.prefix = u.path.strip("/")
        if self.prefix:
            self.prefix += "/"
        if client is None:
            if endpoint_url is not None:
                client_kwargs["endpoint_url"] = endpoint_url
            client = _boto3().client("s3", **client_kwargs)
        self.client = client

    def __repr__(self) -> str:
        return f"S3Store('s3://{self.bucket}/{self.prefix}')"

    def _key(self, key: str) -> str:
        return self.prefix + _check_key(key)

    @staticmethod
    def _missing(err) -> bool:
        code = getattr(err, "response", {}).get("Error", {}).get("Code", "")
        return code in ("NoSuchKey", "404", "NotFound")

    def get(self, key: str) -> bytes | None:
        try:
            resp = self.client.get_object(Bucket=self.bucket, Key=self._key(key))
        except Exception as e:  # botocore's ClientError; boto3 may be absent at import time
            if self._missing(e):
                return None
            raise
        return resp["Body"].read()

    def exists(self, key: str) -> bool:
        try:
            self.client.head_object(Bucket=self.bucket, Key=self._key(key))
        except Exception as e:
            if self._missing(e):
                return False
            raise
        return True

    def put(self, key: str, data: bytes) -> None:
        """One PUT: S3 makes an object visible whole or not at all."""
        self.client.put_object(Bucket=self.bucket, Key=self._key(key), Body=bytes(data))

    def list(self, prefix: str = "") -> list[str]:
        out = []
        paginator = self.client.get_paginator("list_objects_v2")
        for page in paginator.paginate(Bucket=self.bucket, Prefix=self.prefix + prefix):
            for obj in page.get("Contents", []):
                out.append(obj["Key"][len(self.prefix):])
        out.sort()
        return out


def open_store(url: str | os.PathLike, **kwargs):
    """A store for a URL: ``file:///abs/path``, a plain path, or
    ``s3://bucket/prefix`` (keyword arguments go to S3Store)."""
    url = os.fspath(url)
    if url.startswith("s3://"):
        return S3Store(url, **kwargs)
    if kwargs:
        raise TypeError(f"open_store: options {sorted(kwargs)} apply only to s3:// URLs")
    if url.startswith("file://"):
        u = urllib.parse.urlparse(url)
        if u.netloc not in ("", "localhost"):
            raise ValueError(f"store url {url!r}: a file:// URL names a local path (file:///abs/path)")
        return FolderStore(urllib.parse.unquote(u.path))
    if "://" in url:
        raise ValueError(f"store url {url!r}: want file:///path, a plain path or s3://bucket/prefix")
    return FolderStore(url)
