#!/bin/bash
tr '[:lower:]' '[:upper:]' < /app/words.txt > /app/upper.txt
