printf '3 disk full\n2 timeout\n1 connection reset\n' | diff - /app/errors.txt
