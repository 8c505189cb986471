[ "$(cat /app/docs/guide/d.md)" = 'colour stays in markdown' ]
