#!/bin/bash
set -euo pipefail
cat > /app/text.txt <<'EOF'
The quick brown fox jumps over the lazy dog.
A journey of a thousand miles begins with a single step.

To be, or not to be: that is the question.
EOF
