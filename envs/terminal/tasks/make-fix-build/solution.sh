#!/bin/bash
cd /app/build && sed -i 's/^    /\t/' Makefile

cd /app/build && make
