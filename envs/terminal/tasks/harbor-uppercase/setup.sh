#!/bin/bash
printf 'alpha beta\ngamma\n' > /app/words.txt
