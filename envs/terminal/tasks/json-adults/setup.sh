#!/bin/bash
set -euo pipefail
cat > /app/users.json <<'EOF'
[{"name": "zoe", "age": 31}, {"name": "adam", "age": 17}, {"name": "maria", "age": 18},
 {"name": "li", "age": 44}, {"name": "tom", "age": 9}, {"name": "bea", "age": 65}]
EOF
