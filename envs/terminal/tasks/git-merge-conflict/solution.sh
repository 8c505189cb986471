#!/bin/bash
cd /app/repo && git merge feature >/dev/null 2>&1; printf 'apple\navocado\nbanana\ncherry\n' > list.txt

cd /app/repo && git add list.txt && git commit -q --no-edit
