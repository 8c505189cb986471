[ "$(cat /app/docs/a.txt)" = 'The color of the sky. A colorful color.' ]
[ "$(cat /app/docs/guide/c.txt)" = 'Pick a color.' ]
[ "$(cat /app/docs/b.txt)" = 'No match here.' ]
