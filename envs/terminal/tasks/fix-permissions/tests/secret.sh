[ "$(stat -c %a /app/secret.txt)" = 600 ]
