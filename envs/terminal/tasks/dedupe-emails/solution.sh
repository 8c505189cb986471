#!/bin/bash
sed 's/^[[:space:]]*//; s/[[:space:]]*$//' /app/emails.txt | tr 'A-Z' 'a-z' | sort -u > /app/unique.txt
