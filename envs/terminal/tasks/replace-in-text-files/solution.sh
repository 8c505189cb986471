#!/bin/bash
find /app/docs -name '*.txt' -exec sed -i 's/colour/color/g' {} +
