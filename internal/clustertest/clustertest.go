//go:build linux

// Package clustertest runs Quarry on a real multi-process Temporal cluster —
// PostgreSQL, the frontend, history, matching and worker services, and
// versitygw, all started by scripts/cluster/cluster.sh — with `worker` and
// `submit` as separate processes, the way an operator runs them. The cluster
// test (cluster_test.go, build tag "cluster", `make cluster-test`) and the
// cluster benchmark (bench/cluster) share it.
package clustertest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Services are the cluster's processes, as cluster.sh names them.
var Services = []string{"postgres", "history", "matching", "frontend", "worker", "s3"}

// Repo is a checkout of Quarry: its root and the binaries built from it.
type Repo struct {
	Root string // the module root (holds go.mod)
	Bin  string // worker, submit, temporal-cluster
}

// FindRepo returns the checkout holding dir (a folder inside it).
func FindRepo(dir string) (*Repo, error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for {
		if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && bytes.HasPrefix(data, []byte("module github.com/quarry-rl/quarry\n")) {
			return &Repo{Root: d}, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return nil, fmt.Errorf("no Quarry checkout above %s", dir)
		}
		d = parent
	}
}

// Build builds worker, submit and temporal-cluster into bin.
func (r *Repo) Build(ctx context.Context, bin string) error {
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return err
	}
	for _, cmd := range []string{"worker", "submit"} {
		if err := r.run(ctx, "go", "build", "-o", filepath.Join(bin, cmd), "./cmd/"+cmd); err != nil {
			return fmt.Errorf("build %s: %w", cmd, err)
		}
	}
	if err := r.run(ctx, "bash", "scripts/cluster/build.sh", filepath.Join(bin, "temporal-cluster")); err != nil {
		return fmt.Errorf("build temporal-cluster: %w", err)
	}
	r.Bin = bin
	return nil
}

func (r *Repo) run(ctx context.Context, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = r.Root
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, out)
	}
	return nil
}

// Cluster is one cluster.sh state folder.
type Cluster struct {
	Dir  string
	Env  []string // the process environment plus cluster.env
	repo *Repo
}

// Up starts a cluster in dir (an empty or absent folder) on free loopback
// ports, with shards history shards.
func (r *Repo) Up(ctx context.Context, dir string, shards int) (*Cluster, error) {
	c := &Cluster{Dir: dir, repo: r}
	env := []string{"QUARRY_CLUSTER_FREE_PORTS=1", "TEMPORAL_HISTORY_SHARDS=" + strconv.Itoa(shards)}
	if err := c.script(ctx, env, "up"); err != nil {
		return c, err
	}
	vars, err := readEnv(filepath.Join(dir, "cluster.env"))
	if err != nil {
		return c, err
	}
	c.Env = append(c.baseEnv(), vars...)
	return c, nil
}

// baseEnv is the environment with the built binaries first on PATH.
func (c *Cluster) baseEnv() []string {
	env := os.Environ()
	for i, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			env[i] = "PATH=" + c.repo.Bin + ":" + kv[len("PATH="):]
			return env
		}
	}
	return append(env, "PATH="+c.repo.Bin)
}

func (c *Cluster) script(ctx context.Context, env []string, args ...string) error {
	cmd := exec.CommandContext(ctx, "bash", append([]string{filepath.Join(c.repo.Root, "scripts/cluster/cluster.sh"), args[0], c.Dir}, args[1:]...)...)
	cmd.Env = append(c.baseEnv(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// The script's services run in sessions of their own with their output
	// in log files; should one still hold the script's output, Wait returns
	// a second after the script has exited.
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("cluster.sh %s: %w\n%s", strings.Join(args, " "), err, out.String())
	}
	return nil
}

// Kill SIGKILLs one service and waits until it is gone.
func (c *Cluster) Kill(ctx context.Context, service string) error {
	return c.script(ctx, nil, "kill", service)
}

// Start starts one service and waits until it serves.
func (c *Cluster) Start(ctx context.Context, service string) error {
	return c.script(ctx, nil, "start", service)
}

// Down stops every service. It uses a context of its own so that it runs
// on every exit path, including a cancelled test.
func (c *Cluster) Down() error {
	return c.script(context.Background(), nil, "down")
}

// Pid returns the pid of a running service.
func (c *Cluster) Pid(service string) (int, error) {
	f := filepath.Join(c.Dir, "run", service+".pid")
	if service == "postgres" {
		f = filepath.Join(c.Dir, "pg", "data", "postmaster.pid")
	}
	data, err := os.ReadFile(f)
	if err != nil {
		return 0, fmt.Errorf("pid of %s: %w", service, err)
	}
	line, _, _ := strings.Cut(string(data), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		return 0, fmt.Errorf("pid of %s: %q: %w", service, line, err)
	}
	return pid, nil
}

// BucketDir is the folder versitygw stores bucket's objects in.
func (c *Cluster) BucketDir(bucket string) string { return filepath.Join(c.Dir, "s3", bucket) }

// Getenv returns a variable of the cluster's environment.
func (c *Cluster) Getenv(name string) string {
	for i := len(c.Env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(c.Env[i], name+"="); ok {
			return v
		}
	}
	return ""
}

// readEnv reads the `export NAME=value` lines of cluster.env.
func readEnv(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var vars []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if kv, ok := strings.CutPrefix(sc.Text(), "export "); ok {
			vars = append(vars, kv)
		}
	}
	return vars, sc.Err()
}

// Proc is a child process (a worker or submit): killed when this process
// dies (Pdeathsig), reaped by Wait or Kill.
type Proc struct {
	Name string
	cmd  *exec.Cmd
	done chan struct{}
	err  error // valid once done is closed
	once sync.Once
}

// StartProc starts bin with args in the cluster's environment, output to
// log (appended).
func (c *Cluster) StartProc(name, log string, bin string, args ...string) (*Proc, error) {
	out, err := os.OpenFile(log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer out.Close()
	cmd := exec.Command(filepath.Join(c.repo.Bin, bin), args...)
	cmd.Env = c.Env
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &Proc{Name: name, cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// Pid is the process id.
func (p *Proc) Pid() int { return p.cmd.Process.Pid }

// Done is closed when the process has exited and been reaped.
func (p *Proc) Done() <-chan struct{} { return p.done }

// Err is the exit error; valid once Done is closed.
func (p *Proc) Err() error { return p.err }

// Kill SIGKILLs the process and waits until it is reaped.
func (p *Proc) Kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// Stop sends SIGTERM and waits until the process is reaped; it returns the
// exit error, nil for a clean exit.
func (p *Proc) Stop(ctx context.Context) error {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		return p.err
	case <-ctx.Done():
		p.Kill()
		return fmt.Errorf("%s did not stop: %w", p.Name, ctx.Err())
	}
}

// Wait waits for the process to exit.
func (p *Proc) Wait(ctx context.Context) error {
	select {
	case <-p.done:
		if p.err != nil {
			return fmt.Errorf("%s: %w", p.Name, p.err)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s still running: %w", p.Name, ctx.Err())
	}
}

// Killed reports whether the process's exit error was a SIGKILL.
func Killed(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

// CPU is the user+system time of the process once it has exited.
func (p *Proc) CPU() time.Duration {
	<-p.done
	return p.cmd.ProcessState.UserTime() + p.cmd.ProcessState.SystemTime()
}
