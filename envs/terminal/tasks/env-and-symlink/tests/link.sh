[ -L /app/current ] && [ "$(readlink -f /app/current)" = /app/releases/v3 ]
