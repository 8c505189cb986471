#!/bin/bash
set -euo pipefail
mkdir -p /app/repo && cd /app/repo
git init -q -b main
printf 'apple\nbanana\n' > list.txt
git add list.txt && git commit -q -m base
git checkout -q -b feature
printf 'apple\nbanana\ncherry\n' > list.txt
git commit -q -am 'add cherry'
git checkout -q main
printf 'apple\nbanana\navocado\n' > list.txt
git commit -q -am 'add avocado'
