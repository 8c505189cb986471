[ "$(cat /app/hello.txt)" = "Hello, World!" ]
[ "$(wc -l < /app/hello.txt)" -eq 1 ]
