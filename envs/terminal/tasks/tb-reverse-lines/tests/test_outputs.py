from pathlib import Path


def test_reversed():
    assert Path("/app/output.txt").read_text().split() == ["fourth", "third", "second", "first"]


def test_count():
    assert Path("/app/count.txt").read_text().strip() == "4"
