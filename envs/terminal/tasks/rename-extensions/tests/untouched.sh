[ "$(cat /app/photos/notes.txt)" = keep ] && [ -f /app/photos/logo.png ]
