package main

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
	"syscall"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/quarry-rl/quarry/internal/blob"
)

// versitygw is a local S3 server started the way internal/s3test starts it
// (that package needs a testing.TB; this is a program).
type versitygw struct {
	endpoint string
	cmd      *exec.Cmd
	done     chan struct{}
}

const (
	s3Key    = "quarrybench"
	s3Secret = "quarrybench-secret-key"
	s3Region = "us-east-1"
	s3Bucket = "quarry-bench"
)

func startVersitygw(ctx context.Context, dir string) (*versitygw, error) {
	bin, err := exec.LookPath("versitygw")
	if err != nil {
		gopath, _ := exec.Command("go", "env", "GOPATH").Output()
		bin = filepath.Join(string(bytes.TrimSpace(gopath)), "bin", "versitygw")
		if _, err := os.Stat(bin); err != nil {
			return nil, errors.New("versitygw not found: run scripts/deps/versitygw.sh (or make deps)")
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := l.Addr().String()
	l.Close()
	data := filepath.Join(dir, "s3")
	if err := os.MkdirAll(data, 0o755); err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "--port", addr, "--quiet", "--health", "/health", "posix", data)
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY="+s3Key, "ROOT_SECRET_KEY="+s3Secret, "VGW_REGION="+s3Region)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start versitygw: %w", err)
	}
	v := &versitygw{endpoint: "http://" + addr, cmd: cmd, done: make(chan struct{})}
	go func() { cmd.Wait(); close(v.done) }()
	if err := v.waitReady(ctx); err != nil {
		v.stop()
		return nil, err
	}
	client := s3.New(s3.Options{
		BaseEndpoint: aws.String(v.endpoint), Region: s3Region, UsePathStyle: true,
		Credentials: credentials.NewStaticCredentialsProvider(s3Key, s3Secret, ""),
	})
	if _, err := client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(s3Bucket)}); err != nil {
		v.stop()
		return nil, fmt.Errorf("create bucket: %w", err)
	}
	return v, nil
}

func (v *versitygw) waitReady(ctx context.Context) error {
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-v.done:
			return errors.New("versitygw exited before serving")
		default:
		}
		req, _ := http.NewRequestWithContext(ctx, "GET", v.endpoint+"/health", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return errors.New("versitygw not serving after 20s")
}

func (v *versitygw) open(ctx context.Context, prefix string) (blob.Store, error) {
	return blob.Open(ctx, "s3://"+s3Bucket+"/"+prefix, blob.WithEndpoint(v.endpoint), blob.WithRegion(s3Region),
		blob.WithStaticCredentials(s3Key, s3Secret, ""))
}

func (v *versitygw) stop() {
	_ = v.cmd.Process.Kill()
	<-v.done
}
