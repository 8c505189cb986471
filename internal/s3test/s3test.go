// Package s3test runs a real S3 server — versitygw on a temporary folder —
// for tests, on a free loopback port.
//
// A missing versitygw binary fails the test: the S3 suites are part of CI,
// and a skip would hide that they did not run. Install it with
// scripts/deps/versitygw.sh (make deps).
package s3test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// Credentials and region of every server Start launches. They exist only
// inside the test's server.
const (
	AccessKey = "quarrytest"
	SecretKey = "quarrytest-secret-key"
	Region    = "us-east-1"
	Bucket    = "quarry-test"
)

// notFound is the failure message when the binary is absent.
const notFound = "versitygw not found: run scripts/deps/versitygw.sh (or make deps)"

// readyTimeout bounds how long a start may take before the test fails.
const readyTimeout = 20 * time.Second

// Server is one running versitygw.
type Server struct {
	Endpoint  string // http://127.0.0.1:PORT
	AccessKey string
	SecretKey string
	Region    string
	Bucket    string // created by Start
	Dir       string // the POSIX folder the server stores buckets in

	bin  string
	addr string
	log  string // the server's combined output

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{} // closed when cmd has exited
}

// Start launches versitygw on a free 127.0.0.1 port over a fresh temporary
// folder, waits until it serves, creates Bucket, and stops the server when
// the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := binary()
	if err != nil {
		t.Fatal(notFound)
	}
	root := t.TempDir()
	s := &Server{
		AccessKey: AccessKey,
		SecretKey: SecretKey,
		Region:    Region,
		Bucket:    Bucket,
		Dir:       filepath.Join(root, "data"),
		bin:       bin,
		addr:      freeAddr(t),
		log:       filepath.Join(root, "versitygw.log"),
	}
	if err := os.Mkdir(s.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s.Endpoint = "http://" + s.addr
	t.Cleanup(func() { s.stop() })
	s.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	defer cancel()
	if _, err := s.Client().CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(s.Bucket)}); err != nil {
		t.Fatalf("s3test: create bucket %q: %v%s", s.Bucket, err, s.logTail())
	}
	return s
}

// binary finds versitygw on PATH or where scripts/deps/versitygw.sh puts it.
func binary() (string, error) {
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p, nil
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
			gopath = string(bytes.TrimSpace(out))
		}
	}
	if gopath == "" {
		home, _ := os.UserHomeDir()
		gopath = filepath.Join(home, "go")
	}
	for _, dir := range filepath.SplitList(gopath) {
		p := filepath.Join(dir, "bin", "versitygw")
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", errors.New(notFound)
}

// freeAddr picks a loopback port nobody listens on. The port is reused
// across restarts, so a restarted server is found where clients left it.
func freeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("s3test: find a free port: %v", err)
	}
	defer l.Close()
	return l.Addr().String()
}

// URL returns the s3:// URL of prefix in the server's bucket.
func (s *Server) URL(prefix string) string {
	if prefix == "" {
		return "s3://" + s.Bucket
	}
	return "s3://" + s.Bucket + "/" + prefix
}

// Client returns an S3 client for the server, for tests that inspect the
// bucket independently of the code under test.
func (s *Server) Client() *s3.Client {
	return s3.New(s3.Options{
		BaseEndpoint: aws.String(s.Endpoint),
		Region:       s.Region,
		Credentials:  credentials.NewStaticCredentialsProvider(s.AccessKey, s.SecretKey, ""),
		UsePathStyle: true,
	})
}

// Start launches the server if it is not running (Start(t) has already
// called it once) and waits until it answers.
func (s *Server) Start(t testing.TB) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return
	}
	logf, err := os.OpenFile(s.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	cmd := exec.Command(s.bin, "--port", s.addr, "--quiet", "--health", "/health", "posix", s.Dir)
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY="+s.AccessKey, "ROOT_SECRET_KEY="+s.SecretKey, "VGW_REGION="+s.Region)
	cmd.Stdout, cmd.Stderr = logf, logf
	setPdeathsig(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatalf("s3test: start versitygw: %v", err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	s.cmd, s.done = cmd, done

	if err := s.waitReady(done); err != nil {
		s.killLocked()
		t.Fatalf("s3test: versitygw on %s: %v%s", s.addr, err, s.logTail())
	}
}

// waitReady polls the health endpoint until it answers 200.
func (s *Server) waitReady(exited <-chan struct{}) error {
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(readyTimeout)
	for {
		select {
		case <-exited:
			return errors.New("exited before serving")
		default:
		}
		resp, err := client.Get(s.Endpoint + "/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not serving after %s (last error: %v)", readyTimeout, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop kills the server (SIGKILL, as a crash would) and waits until the
// process is gone. Its folder, and so its buckets, objects and incomplete
// uploads, stay for the next Start.
func (s *Server) Stop(t testing.TB) {
	t.Helper()
	s.stop()
}

// Restart stops and starts the server on the same port and folder.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	s.stop()
	s.Start(t)
}

func (s *Server) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.killLocked()
}

func (s *Server) killLocked() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	<-s.done
	s.cmd, s.done = nil, nil
}

// logTail returns the end of the server's output, for failure messages.
func (s *Server) logTail() string {
	data, err := os.ReadFile(s.log)
	if err != nil || len(data) == 0 {
		return ""
	}
	const max = 2000
	if len(data) > max {
		data = data[len(data)-max:]
	}
	return "\nversitygw output (last " + strconv.Itoa(len(data)) + " bytes):\n" + string(data)
}

// SetAWSEnv points the standard AWS configuration of the test's process at
// s, as a user would for a job writing to s3://: the endpoint, the static
// credentials and the region in AWS_* variables, and no config or
// credentials file of the host's.
func (s *Server) SetAWSEnv(t testing.TB) {
	t.Helper()
	type setenv interface{ Setenv(key, value string) }
	e, ok := t.(setenv)
	if !ok {
		t.Fatal("s3test: SetAWSEnv needs a *testing.T or *testing.B")
	}
	empty := filepath.Join(t.TempDir(), "none")
	for _, kv := range [][2]string{
		{"AWS_CONFIG_FILE", empty}, {"AWS_SHARED_CREDENTIALS_FILE", empty}, {"AWS_PROFILE", ""},
		{"AWS_ENDPOINT_URL", s.Endpoint}, {"AWS_ACCESS_KEY_ID", s.AccessKey},
		{"AWS_SECRET_ACCESS_KEY", s.SecretKey}, {"AWS_REGION", s.Region},
	} {
		e.Setenv(kv[0], kv[1])
	}
}
