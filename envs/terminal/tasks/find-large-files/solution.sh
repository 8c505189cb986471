#!/bin/bash
cd /app/data && find . -type f -size +1000c | sed 's|^\./||' | sort > /app/large.txt
