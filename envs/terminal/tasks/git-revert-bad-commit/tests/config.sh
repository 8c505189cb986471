cd /app/repo && grep -qx 'debug=false' config.ini && grep -qx 'port=80' config.ini
