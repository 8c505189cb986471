#!/bin/bash
cat > /app/backup.sh <<'EOF'
#!/bin/bash
mkdir -p /app/backup
for f in /app/docs/*; do
  cp -- "$f" /app/backup/
done
EOF

rm -rf /app/backup && bash /app/backup.sh
