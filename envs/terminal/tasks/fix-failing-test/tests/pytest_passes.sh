cd /app/calc && grep -q 'assert mean(\[1, 2, 3\]) == 2' test_calc.py && python3 -I -m pytest -q -p no:cacheprovider test_calc.py
