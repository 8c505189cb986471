package tclient

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"io"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spf13/pflag"
	"go.temporal.io/sdk/client"

	"github.com/quarry-rl/quarry/internal/localserver"
)

// parse registers the flags with env as the environment and parses args.
func parse(t *testing.T, env map[string]string, args ...string) Options {
	t.Helper()
	var o Options
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	o.addFlags(fs, func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err := fs.Parse(args); err != nil {
		t.Fatalf("parse %q: %v", args, err)
	}
	return o
}

func TestSettingsFromEnvAndFlags(t *testing.T) {
	env := map[string]string{
		EnvAddress: "temporal.example:7233", EnvNamespace: "rl", EnvTLSCA: "/etc/ca.pem",
		EnvTLSServerName: "frontend.internal", EnvAPIKey: "secret",
	}
	o := parse(t, env)
	if o.Address != "temporal.example:7233" || o.Namespace != "rl" || o.TLSCA != "/etc/ca.pem" ||
		o.TLSServerName != "frontend.internal" || o.APIKeyEnv != EnvAPIKey {
		t.Errorf("from the environment: %+v", o)
	}
	o = parse(t, env, "--address", "other:7233", "--namespace", "ns2", "--tls-server-name", "x.internal", "--api-key-env", "MY_KEY")
	if o.Address != "other:7233" || o.Namespace != "ns2" || o.TLSServerName != "x.internal" || o.APIKeyEnv != "MY_KEY" {
		t.Errorf("flags must override the environment: %+v", o)
	}
	o = parse(t, map[string]string{EnvAPIKeyEnv: "CLOUD_KEY", EnvAPIKey: "ignored"})
	if o.APIKeyEnv != "CLOUD_KEY" {
		t.Errorf("$%s must name the key's variable over $%s: got %q", EnvAPIKeyEnv, EnvAPIKey, o.APIKeyEnv)
	}
	o = parse(t, nil)
	if o.Address != DefaultAddress || o.Namespace != DefaultNamespace || o.UsesTLS() {
		t.Errorf("defaults: %+v (TLS %v)", o, o.UsesTLS())
	}
	var queue string
	fs := pflag.NewFlagSet("q", pflag.ContinueOnError)
	addTaskQueueFlag(fs, &queue, "quarry", "queue", func(k string) (string, bool) { return "rl-queue", k == EnvTaskQueue })
	if err := fs.Parse(nil); err != nil || queue != "rl-queue" {
		t.Errorf("task queue from $%s: %q, %v", EnvTaskQueue, queue, err)
	}
}

func TestEveryTLSSettingImpliesTLS(t *testing.T) {
	for _, args := range [][]string{
		{"--tls-ca", "ca.pem"}, {"--tls-server-name", "x"}, {"--api-key-env", "K"}, {"--tls"},
	} {
		if o := parse(t, nil, args...); !o.UsesTLS() {
			t.Errorf("%q: plaintext", args)
		}
	}
	if o := parse(t, map[string]string{EnvTLSCA: "ca.pem"}); !o.UsesTLS() {
		t.Errorf("$%s alone: plaintext", EnvTLSCA)
	}
	if o := parse(t, map[string]string{EnvTLS: "true"}); !o.UsesTLS() {
		t.Errorf("$%s=true: plaintext", EnvTLS)
	}
}

func TestContradictoryTLSSettingsAreRefused(t *testing.T) {
	for _, c := range []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"tls off beside a CA", nil, []string{"--tls=false", "--tls-ca", "ca.pem"}, "--tls=false"},
		{"tls off in env beside a server name", map[string]string{EnvTLS: "false"}, []string{"--tls-server-name", "x"}, "--tls-server-name"},
		{"unparsable TEMPORAL_TLS", map[string]string{EnvTLS: "yes please"}, nil, EnvTLS},
		{"cert without key", nil, []string{"--tls-cert", "c.pem"}, "--tls-key"},
		{"CA file missing", nil, []string{"--tls-ca", filepath.Join(t.TempDir(), "none.pem")}, "--tls-ca"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := parse(t, c.env, c.args...).TLSConfig()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("TLSConfig error %v: want one naming %s", err, c.want)
			}
		})
	}
	if cfg, err := parse(t, nil, "--tls=false").TLSConfig(); err != nil || cfg != nil {
		t.Errorf("--tls=false alone: %v, %v; want plaintext", cfg, err)
	}
}

func TestLocalDropsTLS(t *testing.T) {
	o := parse(t, map[string]string{EnvTLSCA: "ca.pem", EnvTLSServerName: "x", EnvAPIKey: "k"}).Local("127.0.0.1:1", "default")
	if o.UsesTLS() || o.Address != "127.0.0.1:1" {
		t.Errorf("Local: %+v", o)
	}
}

// TestDialThroughTLS connects to the embedded server behind a
// TLS-terminating proxy whose certificate a CA made here signed: --tls-ca
// alone connects over TLS, the certificate's other name connects, and a
// name the certificate does not hold fails naming the setting to check.
func TestDialThroughTLS(t *testing.T) {
	srv, err := localserver.Start(localserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	dir := t.TempDir()
	caPath, serverCert := testPKI(t, dir)
	proxy := startTLSProxy(t, serverCert, srv.HostPort())

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, args := range [][]string{
		{"--address", proxy.addr, "--tls-ca", caPath},
		{"--address", proxy.addr, "--tls-ca", caPath, "--tls-server-name", "temporal.test"},
	} {
		before := proxy.handshakes.Load()
		c, err := parse(t, nil, args...).DialContext(ctx, nil)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		if _, err := c.CheckHealth(ctx, nil); err != nil {
			t.Errorf("%q: health: %v", args, err)
		}
		c.Close()
		if proxy.handshakes.Load() == before {
			t.Errorf("%q: connected without a TLS handshake", args)
		}
	}

	wctx, wcancel := context.WithTimeout(ctx, 15*time.Second)
	defer wcancel()
	_, err = parse(t, nil, "--address", proxy.addr, "--tls-ca", caPath, "--tls-server-name", "wrong.test").DialContext(wctx, nil)
	if err == nil {
		t.Fatal("a server name the certificate does not hold connected")
	}
	t.Logf("wrong server name: %v", err)
	for _, want := range []string{`"wrong.test"`, "--tls-server-name", "--tls-ca"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
}

// testPKI writes a CA certificate to dir and returns its path and a server
// certificate it signed for 127.0.0.1 and temporal.test.
func testPKI(t *testing.T, dir string) (string, tls.Certificate) {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "quarry test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		t.Fatal(err)
	}
	caPath := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(caPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	leaf := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "temporal.test"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour),
		DNSNames: []string{"temporal.test"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, leaf, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	return caPath, tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

type tlsProxy struct {
	addr       string
	handshakes atomic.Int64
}

// startTLSProxy terminates TLS on a loopback port and forwards the bytes to
// upstream (the embedded server's plaintext gRPC port). Every connection
// and goroutine ends when the test does.
func startTLSProxy(t *testing.T, cert tls.Certificate, upstream string) *tlsProxy {
	t.Helper()
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"h2"}})
	if err != nil {
		t.Fatal(err)
	}
	p := &tlsProxy{addr: ln.Addr().String()}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	track := func(c net.Conn) bool {
		mu.Lock()
		defer mu.Unlock()
		if conns == nil {
			return false // closed
		}
		conns = append(conns, c)
		return true
	}
	conns = []net.Conn{}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if !track(c) {
				c.Close()
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				p.forward(c.(*tls.Conn), upstream, track)
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		conns = nil
		mu.Unlock()
		wg.Wait()
	})
	return p
}

func (p *tlsProxy) forward(c *tls.Conn, upstream string, track func(net.Conn) bool) {
	defer c.Close()
	if err := c.Handshake(); err != nil {
		return
	}
	p.handshakes.Add(1)
	up, err := net.Dial("tcp", upstream)
	if err != nil {
		return
	}
	defer up.Close()
	if !track(up) {
		return
	}
	done := make(chan struct{}, 2)
	cp := func(dst, src net.Conn) {
		_, err := io.Copy(dst, src)
		if err != nil && !errors.Is(err, net.ErrClosed) {
			_ = err // a reset connection ends the pair, as a close does
		}
		done <- struct{}{}
	}
	go cp(up, c)
	go cp(c, up)
	<-done
	c.Close()
	up.Close()
	<-done
}

// The embedded server's client sends its calls uncompressed (gzip costs
// CPU and saves nothing on loopback); a remote cluster's keeps the SDK's
// gzip.
func TestLocalDialsWithoutCompression(t *testing.T) {
	local, err := Options{}.Local("127.0.0.1:7233", "default").clientOptions(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := local.ConnectionOptions.GrpcCompression.(*client.GrpcCompressionNone); !ok {
		t.Fatalf("local client compression %T, want none", local.ConnectionOptions.GrpcCompression)
	}
	remote, err := Options{Address: "temporal.example:7233", Namespace: "default"}.clientOptions(nil)
	if err != nil {
		t.Fatal(err)
	}
	if remote.ConnectionOptions.GrpcCompression != nil {
		t.Fatalf("remote client compression %T, want the SDK default (gzip)", remote.ConnectionOptions.GrpcCompression)
	}
}
