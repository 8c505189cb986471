#!/bin/bash
set -euo pipefail
mkdir -p /app/docs
echo one > '/app/docs/meeting notes.txt'
echo two > /app/docs/plan.txt
echo three > '/app/docs/q3 budget final.csv'
cat > /app/backup.sh <<'EOF'
#!/bin/bash
mkdir -p /app/backup
for f in $(ls /app/docs); do
  cp /app/docs/$f /app/backup/
done
EOF
chmod +x /app/backup.sh
