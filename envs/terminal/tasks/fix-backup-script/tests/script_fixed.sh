rm -rf /app/backup && echo four > '/app/docs/new file.txt' && bash /app/backup.sh && [ "$(cat '/app/backup/new file.txt')" = four ]
