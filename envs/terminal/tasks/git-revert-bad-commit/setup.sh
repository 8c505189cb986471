#!/bin/bash
set -euo pipefail
cd /app/repo 2>/dev/null || { mkdir -p /app/repo && cd /app/repo; }
git init -q
printf 'debug=false\nport=80\n' > config.ini
git add config.ini && git commit -q -m 'add config'
sed -i 's/debug=false/debug=true/' config.ini
git commit -q -am 'break config'
echo 'docs' > README.md
git add README.md && git commit -q -m 'add readme'
