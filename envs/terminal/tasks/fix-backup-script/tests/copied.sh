cd /app/docs && for f in *; do cmp -s "$f" "/app/backup/$f"; done
[ "$(ls /app/backup | wc -l)" -eq 3 ]
