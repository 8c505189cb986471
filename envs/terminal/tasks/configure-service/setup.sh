#!/bin/bash
set -euo pipefail
cat > /app/service.py <<'EOF'
import configparser, http.server

cfg = configparser.ConfigParser()
cfg.read("/app/service.ini")
s = cfg["server"]

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/" + s.get("route", "hello"):
            body = s.get("message", "hi").encode()
            self.send_response(200)
        else:
            body = b"not found"
            self.send_response(404)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass

http.server.HTTPServer((s.get("host", "0.0.0.0"), s.getint("port", 80)), Handler).serve_forever()
EOF
cat > /app/service.ini <<'EOF'
[server]
host = 0.0.0.0
port = 80
route = hello
message = hi
EOF
