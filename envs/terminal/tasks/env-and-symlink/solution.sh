#!/bin/bash
ln -sfn /app/releases/v3 /app/current

/app/current/version.sh > /app/deployed.txt
