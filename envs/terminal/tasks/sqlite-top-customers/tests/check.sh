printf 'eve\nada\nben\n' | diff - /app/top.txt
