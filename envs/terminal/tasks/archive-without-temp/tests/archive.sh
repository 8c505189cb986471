tar -tzf /app/backup.tar.gz | grep -v '/$' | sort | tr '\n' ' ' | grep -qx 'data/a.txt data/logs/b.log '
