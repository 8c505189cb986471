#!/bin/bash
set -euo pipefail
mkdir -p /app/build/data
cd /app/build
printf 'alpha\n' > data/a.txt
printf 'beta\n' > data/b.txt
cat > Makefile <<'EOF'
out/report.txt: data/a.txt data/b.txt
    mkdir -p out
    cat data/a.txt data/b.txt | sort > out/report.txt

clean:
    rm -rf out
EOF
