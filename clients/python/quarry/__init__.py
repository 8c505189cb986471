"""Quarry's Python client: consume an online job's batches, announce policy
versions, and turn batches into the layouts RL trainers take.

Standard library only for the store protocol on a folder, cursors and
control; pyarrow (Parquet rows, Flight) and boto3 (S3) are imported when
used.
"""

from .consumer import Batch, BatchCorrupt, Consumer, EndOfStream
from .control import CLIControl, ControlError, HTTPControl
from .store import FolderStore, S3Store, open_store

__all__ = [
    "Batch",
    "BatchCorrupt",
    "CLIControl",
    "Consumer",
    "ControlError",
    "EndOfStream",
    "FolderStore",
    "HTTPControl",
    "S3Store",
    "open_store",
]
__version__ = "0.1.0"
