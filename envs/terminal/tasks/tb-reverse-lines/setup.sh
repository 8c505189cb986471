#!/bin/bash
printf 'first\nsecond\nthird\nfourth\n' > /app/input.txt
