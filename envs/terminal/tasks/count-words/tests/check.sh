[ "$(tr -d ' \n' < /app/count.txt)" = "30" ]
