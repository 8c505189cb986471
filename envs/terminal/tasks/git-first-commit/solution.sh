#!/bin/bash
cd /app/project && git init -q

cd /app/project && git add -A && git commit -q -m 'initial commit'
