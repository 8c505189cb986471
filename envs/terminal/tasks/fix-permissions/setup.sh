#!/bin/bash
set -euo pipefail
mkdir -p /app/bin
printf '#!/bin/sh\necho run\n' > /app/bin/run.sh
printf '#!/bin/sh\necho stop\n' > /app/bin/stop.sh
echo data > /app/bin/data.txt
chmod 644 /app/bin/*
echo s3cret > /app/secret.txt
chmod 666 /app/secret.txt
