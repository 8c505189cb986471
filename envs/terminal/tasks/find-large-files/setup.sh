#!/bin/bash
set -euo pipefail
mkdir -p /app/data/a/b /app/data/c
head -c 500 /dev/zero > /app/data/small.bin
head -c 2000 /dev/zero > /app/data/big.bin
head -c 1000 /dev/zero > /app/data/a/exact.bin
head -c 1001 /dev/zero > /app/data/a/b/just-over.bin
head -c 5000 /dev/zero > /app/data/c/huge.log
echo tiny > /app/data/c/note.txt
