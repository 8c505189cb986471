import subprocess, time, urllib.request
p = subprocess.Popen(["python3", "/app/service.py"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    body = None
    for _ in range(30):
        try:
            body = urllib.request.urlopen("http://127.0.0.1:8123/greeting", timeout=1).read().decode()
            break
        except OSError:
            time.sleep(0.1)
    assert body == "hello from quarry", body
finally:
    p.kill()
