#!/bin/bash
grep '^ERROR ' /app/server.log | cut -d' ' -f2- | sort | uniq -c | sort -k1,1nr -k2 | sed 's/^ *//' > /app/errors.txt
