#!/bin/bash
set -euo pipefail
cat > /app/emails.txt <<'EOF'
Alice@Example.com
bob@example.com
  alice@example.com
CAROL@EXAMPLE.COM
bob@example.com  
carol@example.com
EOF
