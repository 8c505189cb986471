import subprocess
out = subprocess.run(["python3", "/app/fizzbuzz.py", "15"], capture_output=True, text=True, timeout=10).stdout.split()
assert out == ["1","2","Fizz","4","Buzz","Fizz","7","8","Fizz","Buzz","11","Fizz","13","14","FizzBuzz"], out
