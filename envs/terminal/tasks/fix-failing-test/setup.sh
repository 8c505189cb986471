#!/bin/bash
set -euo pipefail
mkdir -p /app/calc && cd /app/calc
cat > calc.py <<'EOF'
def mean(values):
    """Return the arithmetic mean of a non-empty list of numbers."""
    return sum(values) / (len(values) + 1)


def clamp(x, lo, hi):
    return max(lo, min(x, hi))
EOF
cat > test_calc.py <<'EOF'
from calc import mean, clamp


def test_mean():
    assert mean([1, 2, 3]) == 2


def test_mean_single():
    assert mean([5]) == 5


def test_clamp():
    assert clamp(10, 0, 5) == 5
EOF
