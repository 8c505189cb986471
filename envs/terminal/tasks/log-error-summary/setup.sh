#!/bin/bash
set -euo pipefail
cat > /app/server.log <<'EOF'
INFO started
ERROR disk full
WARN slow request
ERROR timeout
ERROR disk full
INFO request served
ERROR connection reset
ERROR timeout
ERROR disk full
INFO stopped
EOF
