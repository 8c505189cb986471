#!/bin/bash
mkdir -p /logs/verifier
if [ "$(cat /app/upper.txt 2>/dev/null)" = "$(printf 'ALPHA BETA\nGAMMA')" ]; then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
