#!/bin/bash
python3 - <<'EOF'
import sqlite3
db = sqlite3.connect('/app/shop.db')
rows = db.execute('SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.id ORDER BY SUM(o.amount) DESC LIMIT 3').fetchall()
open('/app/top.txt', 'w').write(''.join(r[0] + '\n' for r in rows))
EOF
