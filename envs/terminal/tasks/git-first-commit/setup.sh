#!/bin/bash
set -euo pipefail
mkdir -p /app/project/src
echo '# Project' > /app/project/README.md
echo 'print("hi")' > /app/project/src/main.py
echo 'MIT' > /app/project/LICENSE
