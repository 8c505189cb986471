#!/bin/bash
set -euo pipefail
for v in v1 v2 v3; do mkdir -p /app/releases/$v; printf '#!/bin/sh\necho %s\n' "$v" > /app/releases/$v/version.sh; chmod +x /app/releases/$v/version.sh; done
ln -s /app/releases/v1 /app/current
