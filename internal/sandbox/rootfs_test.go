package sandbox

import (
	"context"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// testRootFS is the root filesystem scripts/build-rootfs.sh builds (make
// test builds it through scripts/deps/rootfs.sh).
func testRootFS(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("bash", "../../scripts/build-rootfs.sh", "--print-path").Output()
	if err != nil {
		t.Fatalf("build-rootfs.sh --print-path: %v", err)
	}
	dir := strings.TrimSpace(string(out))
	if _, err := os.Stat(dir + "/.quarry-rootfs"); err != nil {
		t.Fatalf("no root filesystem at %s: run scripts/deps/rootfs.sh", dir)
	}
	return dir
}

func TestRootWorkspaceKeepsStateAndSeesOnlyTheRoot(t *testing.T) {
	root := testRootFS(t)
	s := newTestSandbox(t, Options{Slots: 2, UIDBase: 61450})
	ctx := context.Background()
	ws, err := s.NewRootWorkspace(ctx, RootFS{Dir: root})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	run := func(script string) Result {
		t.Helper()
		res, err := ws.Run(ctx, Cmd{Args: []string{"/bin/bash", "-c", script}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	// State persists across runs in every writable path.
	if res := run(`echo one > /app/a && echo two > /tmp/b && echo three > ~/c && mkdir -p /logs/verifier`); res.ExitCode != 0 {
		t.Fatalf("write: exit %d: %s", res.ExitCode, res.Stderr)
	}
	res := run(`cat /app/a /tmp/b /home/agent/c && pwd && id -u && id -un && python3 -c 'print(6*7)'`)
	if got, want := string(res.Stdout), "one\ntwo\nthree\n/app\n1000\nagent\n42\n"; got != want {
		t.Fatalf("second run saw %q (stderr %s), want %q", got, res.Stderr, want)
	}
	if p, ok := ws.HostPath("/app/a"); !ok {
		t.Fatal("HostPath(/app/a) not found")
	} else if b, err := os.ReadFile(p); err != nil || string(b) != "one\n" {
		t.Fatalf("host copy of /app/a: %q, %v", b, err)
	}
	if _, ok := ws.HostPath("/etc/passwd"); ok {
		t.Fatal("HostPath(/etc/passwd): the root is not writable, want not found")
	}
	// The root is read-only, even where its files would let uid 0 write.
	if res := run(`echo x > /etc/quarry-test`); res.ExitCode == 0 {
		t.Fatal("wrote into the root's /etc")
	}
	if res := run(`echo x > /usr/bin/quarry-test`); res.ExitCode == 0 {
		t.Fatal("wrote into the root's /usr")
	}
	// The host's files do not exist inside: the root is Debian's tree, not
	// the host's, and no host path is bound.
	marker := searchableTempDir(t) + "/host-secret"
	if err := os.WriteFile(marker, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	for _, p := range []string{marker, wd, s.opts.BaseDir, ws.Dir(), "/var/cache/quarry", "/root"} {
		res, err := ws.Run(ctx, Cmd{Args: []string{"/bin/sh", "-c", `cat "$1" 2>/dev/null || ls "$1" 2>/dev/null && echo visible`, "sh", p}})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(res.Stdout), "visible") || strings.Contains(string(res.Stdout), "secret") {
			t.Fatalf("host path %s is visible inside: %q", p, res.Stdout)
		}
	}
}

func TestRootWorkspaceHasNoNetwork(t *testing.T) {
	root := testRootFS(t)
	s := newTestSandbox(t, Options{Slots: 1, UIDBase: 61460})
	ctx := context.Background()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("host\n"))
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	ws, err := s.NewRootWorkspace(ctx, RootFS{Dir: root})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	// The host's loopback listener is unreachable; the sandbox's own
	// loopback works (a task's service and its test talk over it).
	script := `
import socket, sys, threading
try:
    socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2).recv(10)
    print("host reachable")
except OSError:
    print("host unreachable")
srv = socket.socket(); srv.bind(("127.0.0.1", 0)); srv.listen(1)
def serve():
    c, _ = srv.accept(); c.sendall(b"inside"); c.close()
threading.Thread(target=serve).start()
print(socket.create_connection(srv.getsockname(), timeout=2).recv(10).decode())
try:
    socket.create_connection(("1.1.1.1", 80), timeout=2)
    print("internet reachable")
except OSError:
    print("internet unreachable")
`
	res, err := ws.Run(ctx, Cmd{Args: []string{"/usr/bin/python3", "-c", script, strconv.Itoa(port)}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(res.Stdout), "host unreachable\ninside\ninternet unreachable\n"; got != want {
		t.Fatalf("got %q (stderr %s), want %q", got, res.Stderr, want)
	}
}

func TestRootFSChecks(t *testing.T) {
	s := newTestSandbox(t, Options{Slots: 1, UIDBase: 61470})
	ctx := context.Background()
	for _, r := range []RootFS{
		{Dir: "relative"},
		{Dir: t.TempDir()}, // no /bin/sh
		{Dir: testRootFS(t), Writable: []string{"/no-such-dir"}},
		{Dir: testRootFS(t), Writable: []string{"/proc"}},
	} {
		if ws, err := s.NewRootWorkspace(ctx, r); err == nil {
			ws.Close()
			t.Errorf("NewRootWorkspace(%+v) succeeded, want an error", r)
		}
	}
}
