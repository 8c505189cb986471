#!/bin/bash
cd /app/calc && sed -i 's|sum(values) / (len(values) + 1)|sum(values) / len(values)|' calc.py
