[ "$(cat /app/deployed.txt)" = v3 ]
