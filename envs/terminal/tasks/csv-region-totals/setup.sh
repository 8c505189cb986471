#!/bin/bash
set -euo pipefail
cat > /app/sales.csv <<'EOF'
region,amount
north,120
south,75
east,40
north,30
west,5
south,25
east,60
north,50
EOF
