#!/bin/bash
set -euo pipefail
python3 - <<'EOF'
import sqlite3
db = sqlite3.connect('/app/shop.db')
db.executescript('''
CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE orders(id INTEGER PRIMARY KEY, customer_id INTEGER, amount REAL);
INSERT INTO customers VALUES (1,'ada'),(2,'ben'),(3,'cy'),(4,'dee'),(5,'eve');
INSERT INTO orders(customer_id, amount) VALUES (1,10),(2,50),(3,5),(4,30),(5,20),(1,45),(3,2),(4,1),(5,40),(2,1);
''')
db.commit()
EOF
