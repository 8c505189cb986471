import subprocess
assert subprocess.run(["python3", "/app/fizzbuzz.py", "1"], capture_output=True, text=True, timeout=10).stdout == "1\n"
