printf 'bea\nli\nmaria\nzoe\n' | diff - /app/adults.txt
