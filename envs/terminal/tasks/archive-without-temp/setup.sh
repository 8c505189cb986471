#!/bin/bash
set -euo pipefail
mkdir -p /app/data/logs
echo a > /app/data/a.txt
echo b > /app/data/logs/b.log
echo junk > /app/data/scratch.tmp
echo junk > /app/data/logs/cache.tmp
