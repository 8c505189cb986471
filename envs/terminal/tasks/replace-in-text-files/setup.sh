#!/bin/bash
set -euo pipefail
mkdir -p /app/docs/guide
echo 'The colour of the sky. A colourful colour.' > /app/docs/a.txt
echo 'No match here.' > /app/docs/b.txt
echo 'Pick a colour.' > /app/docs/guide/c.txt
echo 'colour stays in markdown' > /app/docs/guide/d.md
