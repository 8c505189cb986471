#!/bin/bash
set -euo pipefail
mkdir -p /app/photos
for f in beach sunset 'family trip' cat; do echo "$f" > "/app/photos/$f.jpeg"; done
echo keep > /app/photos/notes.txt
echo png > /app/photos/logo.png
