[ "$(stat -c %a /app/bin/run.sh)" = 755 ] && [ "$(stat -c %a /app/bin/stop.sh)" = 755 ] && [ "$(stat -c %a /app/bin/data.txt)" = 644 ]
