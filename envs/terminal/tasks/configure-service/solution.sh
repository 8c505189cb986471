#!/bin/bash
cat > /app/service.ini <<'EOF'
[server]
host = 127.0.0.1
port = 8123
route = greeting
message = hello from quarry
EOF
