#!/bin/bash
tac /app/input.txt > /app/output.txt

wc -l < /app/input.txt > /app/count.txt
