cd /app/project && git rev-parse --git-dir >/dev/null
