# Forks 64 children that each touch 32 MiB, report their pid and wait; prints
# how many reported and are still alive once every child either reported or
# died. The sandbox's and the python tool's memory-limit tests both run it.
import os, select, signal
r, w = os.pipe()
for i in range(64):
    if os.fork() == 0:
        os.close(r)
        with open("/proc/self/oom_score_adj", "w") as f:
            f.write("1000")  # the OOM killer takes children, not the parent
        b = b"x" * (32 << 20)  # written, so it is resident
        os.write(w, b"%d\n" % os.getpid())
        signal.pause()
os.close(w)
reported, dead, buf = set(), set(), b""
while len(reported | dead) < 64:
    if select.select([r], [], [], 0.05)[0]:
        buf += os.read(r, 4096)
        *lines, buf = buf.split(b"\n")
        reported.update(int(l) for l in lines)
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            break
        dead.add(pid)
print("holding", len(reported - dead))
