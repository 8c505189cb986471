package s3test_test

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/quarry-rl/quarry/internal/s3test"
)

func TestStartStopRestart(t *testing.T) {
	ctx := context.Background()
	srv := s3test.Start(t)
	if srv.Endpoint == "" || srv.Bucket == "" || srv.AccessKey == "" || srv.SecretKey == "" {
		t.Fatalf("incomplete server description: %+v", srv)
	}
	c := srv.Client()
	put := func() error {
		_, err := c.PutObject(ctx, &s3.PutObjectInput{
			Bucket: aws.String(srv.Bucket), Key: aws.String("a/b"), Body: strings.NewReader("kept"),
		})
		return err
	}
	get := func() (string, error) {
		out, err := c.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(srv.Bucket), Key: aws.String("a/b")})
		if err != nil {
			return "", err
		}
		defer out.Body.Close()
		b, err := io.ReadAll(out.Body)
		return string(b), err
	}
	if err := put(); err != nil {
		t.Fatalf("put into the bucket Start created: %v", err)
	}

	endpoint := srv.Endpoint
	srv.Stop(t)
	if _, err := get(); err == nil {
		t.Fatal("a stopped server still answers")
	}
	srv.Restart(t)
	if srv.Endpoint != endpoint {
		t.Fatalf("endpoint moved across a restart: %s, then %s", endpoint, srv.Endpoint)
	}
	if got, err := get(); err != nil || got != "kept" {
		t.Fatalf("after a restart Get = %q, %v; want the object stored before", got, err)
	}
}

// fatalTB records the failure that ends a helper, the way testing.T would.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}
func (f *fatalTB) Fatal(args ...any) {
	f.msg = fmt.Sprint(args...)
	runtime.Goexit()
}
func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func TestMissingBinaryFailsTheTest(t *testing.T) {
	empty := t.TempDir()
	t.Setenv("PATH", empty)
	t.Setenv("GOPATH", empty)
	fake := &fatalTB{TB: t}
	done := make(chan bool)
	go func() {
		defer close(done)
		s3test.Start(fake)
		done <- true // reached only if Start returned
	}()
	if <-done {
		t.Fatal("Start returned without the versitygw binary")
	}
	const want = "versitygw not found: run scripts/deps/versitygw.sh (or make deps)"
	if fake.msg != want {
		t.Fatalf("Start failed with %q, want %q", fake.msg, want)
	}
}
