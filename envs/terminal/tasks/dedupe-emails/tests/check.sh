printf 'alice@example.com\nbob@example.com\ncarol@example.com\n' | diff - /app/unique.txt
