// Package tclient dials Temporal the same way for every Quarry command: a
// local or self-hosted cluster, or Temporal Cloud with mTLS or an API key.
// Keys are read from environment variables named on the command line, never
// passed as flag values (which would show in process listings).
//
// Every connection setting has a flag and an environment variable, named as
// Temporal's own CLI names them (TEMPORAL_ADDRESS, TEMPORAL_TLS_CA_PATH, …);
// a flag given on the command line overrides its variable. Any TLS setting
// implies TLS: a CA bundle or a server name never connects in plaintext.
package tclient

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strconv"

	"github.com/spf13/pflag"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
)

// Environment variables of the connection settings (flags override them).
const (
	EnvAddress       = "TEMPORAL_ADDRESS"
	EnvNamespace     = "TEMPORAL_NAMESPACE"
	EnvTaskQueue     = "TEMPORAL_TASK_QUEUE"
	EnvTLS           = "TEMPORAL_TLS"
	EnvTLSCert       = "TEMPORAL_TLS_CERT_PATH"
	EnvTLSKey        = "TEMPORAL_TLS_KEY_PATH"
	EnvTLSCA         = "TEMPORAL_TLS_CA_PATH"
	EnvTLSServerName = "TEMPORAL_TLS_SERVER_NAME"
	// EnvAPIKeyEnv names the variable holding the API key, as --api-key-env
	// does. EnvAPIKey is Temporal's CLI variable holding the key itself:
	// when it is set and no other variable is named, the key is read there.
	EnvAPIKeyEnv = "QUARRY_TEMPORAL_API_KEY_ENV"
	EnvAPIKey    = "TEMPORAL_API_KEY"
)

// Defaults of the connection settings.
const (
	DefaultAddress   = "127.0.0.1:7233"
	DefaultNamespace = "default"
)

// Options select a Temporal cluster.
type Options struct {
	Address       string
	Namespace     string
	TLSCert       string // client certificate file (mTLS)
	TLSKey        string
	TLSCA         string // CA bundle for the server, when not a public CA
	TLSServerName string // name the server's certificate must hold (default: the address's host)
	// TLS asks for TLS without any other TLS setting (a public CA, an API
	// key). Off with any other TLS setting given is an error, not plaintext.
	TLS       bool
	APIKeyEnv string // environment variable holding a Temporal Cloud API key
	// MetricsHandler receives the SDK's metrics (internal/metrics); not a flag.
	MetricsHandler client.MetricsHandler

	tlsSet bool // TLS was given (flag or variable), so false means "off"
	// loopback: the embedded server in this process (Local). Its calls go
	// uncompressed: gzip costs CPU on both ends and saves nothing on
	// loopback (issue 15: ~2 % of a turn's CPU).
	loopback bool

	envErr error // a connection variable that does not parse, reported by Dial
}

// AddFlags registers the connection flags on fs, with defaults from the
// environment (see the Env* constants).
func (o *Options) AddFlags(fs *pflag.FlagSet) { o.addFlags(fs, os.LookupEnv) }

func (o *Options) addFlags(fs *pflag.FlagSet, lookup func(string) (string, bool)) {
	env := func(name, def string) string {
		if v, ok := lookup(name); ok && v != "" {
			return v
		}
		return def
	}
	fs.StringVar(&o.Address, "address", env(EnvAddress, DefaultAddress), "Temporal frontend host:port ($"+EnvAddress+")")
	fs.StringVar(&o.Namespace, "namespace", env(EnvNamespace, DefaultNamespace), "Temporal namespace ($"+EnvNamespace+")")
	fs.StringVar(&o.TLSCert, "tls-cert", env(EnvTLSCert, ""), "client certificate for mTLS; implies TLS ($"+EnvTLSCert+")")
	fs.StringVar(&o.TLSKey, "tls-key", env(EnvTLSKey, ""), "client key for mTLS ($"+EnvTLSKey+")")
	fs.StringVar(&o.TLSCA, "tls-ca", env(EnvTLSCA, ""), "CA bundle that signed the server's certificate; implies TLS ($"+EnvTLSCA+")")
	fs.StringVar(&o.TLSServerName, "tls-server-name", env(EnvTLSServerName, ""), "name the server's certificate must hold (default: the host of --address); implies TLS ($"+EnvTLSServerName+")")
	fs.Var(&tlsFlag{o}, "tls", "use TLS; implied by every other TLS setting and by an API key ($"+EnvTLS+")")
	fs.Lookup("tls").NoOptDefVal = "true"
	if v, ok := lookup(EnvTLS); ok && v != "" {
		if err := (&tlsFlag{o}).Set(v); err != nil {
			o.envErr = fmt.Errorf("$%s: %w", EnvTLS, err)
		}
	}
	keyEnv := env(EnvAPIKeyEnv, "")
	if v, ok := lookup(EnvAPIKey); keyEnv == "" && ok && v != "" {
		keyEnv = EnvAPIKey
	}
	fs.StringVar(&o.APIKeyEnv, "api-key-env", keyEnv, "name of the environment variable holding a Temporal Cloud API key; implies TLS ($"+EnvAPIKeyEnv+", or $"+EnvAPIKey+" holding the key)")
}

// tlsFlag is --tls: a bool that remembers it was given, so --tls=false
// beside a CA bundle is refused rather than ignored.
type tlsFlag struct{ o *Options }

func (f *tlsFlag) String() string {
	if f.o == nil {
		return "false"
	}
	return strconv.FormatBool(f.o.TLS)
}

func (f *tlsFlag) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("%q: want true or false", s)
	}
	f.o.TLS, f.o.tlsSet = v, true
	return nil
}

func (f *tlsFlag) Type() string     { return "bool" }
func (f *tlsFlag) IsBoolFlag() bool { return true }

// Local is o pointed at an embedded server: its address and namespace, no
// TLS and no key, whatever the flags or environment say.
func (o Options) Local(address, namespace string) Options {
	return Options{Address: address, Namespace: namespace, loopback: true}
}

// UsesTLS reports whether the connection uses TLS: asked for, or implied by
// any TLS setting or an API key.
func (o Options) UsesTLS() bool {
	return o.TLS || o.implied() != ""
}

// implied names the first setting that implies TLS, or "".
func (o Options) implied() string {
	switch {
	case o.TLSCert != "":
		return "--tls-cert"
	case o.TLSKey != "":
		return "--tls-key"
	case o.TLSCA != "":
		return "--tls-ca"
	case o.TLSServerName != "":
		return "--tls-server-name"
	case o.APIKeyEnv != "":
		return "--api-key-env"
	}
	return ""
}

// TLSConfig is the TLS configuration of the connection, nil for plaintext.
func (o Options) TLSConfig() (*tls.Config, error) {
	if o.envErr != nil {
		return nil, fmt.Errorf("temporal: %w", o.envErr)
	}
	if by := o.implied(); o.tlsSet && !o.TLS && by != "" {
		return nil, fmt.Errorf("temporal: --tls=false (or $%s=false) contradicts %s, which needs TLS: drop one of them", EnvTLS, by)
	}
	if !o.UsesTLS() {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: o.TLSServerName}
	if (o.TLSCert == "") != (o.TLSKey == "") {
		return nil, errors.New("temporal: mTLS needs both --tls-cert and --tls-key (or $" + EnvTLSCert + " and $" + EnvTLSKey + ")")
	}
	if o.TLSCert != "" {
		cert, err := tls.LoadX509KeyPair(o.TLSCert, o.TLSKey)
		if err != nil {
			return nil, fmt.Errorf("temporal: load client certificate (--tls-cert, --tls-key): %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	if o.TLSCA != "" {
		pem, err := os.ReadFile(o.TLSCA)
		if err != nil {
			return nil, fmt.Errorf("temporal: read CA bundle (--tls-ca): %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("temporal: --tls-ca %s holds no PEM certificate", o.TLSCA)
		}
		cfg.RootCAs = pool
	}
	return cfg, nil
}

// Dial connects to the cluster.
func (o Options) Dial(log *slog.Logger) (client.Client, error) {
	return o.DialContext(context.Background(), log)
}

// DialContext connects to the cluster, checking it answers before ctx ends.
// A nil log discards the SDK's messages.
func (o Options) DialContext(ctx context.Context, log *slog.Logger) (client.Client, error) {
	co, err := o.clientOptions(log)
	if err != nil {
		return nil, err
	}
	c, err := client.DialContext(ctx, co)
	if err != nil {
		return nil, fmt.Errorf("temporal: connect to %s (namespace %s, %s): %w", o.Address, o.Namespace, o.describeTLS(), err)
	}
	return c, nil
}

// clientOptions are the SDK's options for o.
func (o Options) clientOptions(log *slog.Logger) (client.Options, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	co := client.Options{HostPort: o.Address, Namespace: o.Namespace, Logger: sdklog.NewStructuredLogger(log), MetricsHandler: o.MetricsHandler}
	cfg, err := o.TLSConfig()
	if err != nil {
		return co, err
	}
	co.ConnectionOptions.TLS = cfg
	if o.loopback {
		co.ConnectionOptions.GrpcCompression = &client.GrpcCompressionNone{}
	}
	if o.APIKeyEnv != "" {
		key := os.Getenv(o.APIKeyEnv)
		if key == "" {
			return co, fmt.Errorf("temporal: environment variable %s (from --api-key-env) is empty", o.APIKeyEnv)
		}
		co.Credentials = client.NewAPIKeyStaticCredentials(key)
	}
	return co, nil
}

// describeTLS says how the connection was made, for errors: a TLS failure
// names the settings to check.
func (o Options) describeTLS() string {
	if !o.UsesTLS() {
		return "plaintext; give --tls-ca or --tls if the server speaks TLS"
	}
	name := o.TLSServerName
	if name == "" {
		name = o.Address
		if host, _, err := net.SplitHostPort(o.Address); err == nil {
			name = host
		}
	}
	ca := "system roots"
	if o.TLSCA != "" {
		ca = o.TLSCA
	}
	return fmt.Sprintf("TLS expecting server name %q (--tls-server-name) signed by %s (--tls-ca)", name, ca)
}

// AddTaskQueueFlag registers --task-queue on fs, defaulting to
// $TEMPORAL_TASK_QUEUE or def.
func AddTaskQueueFlag(fs *pflag.FlagSet, queue *string, def, usage string) {
	addTaskQueueFlag(fs, queue, def, usage, os.LookupEnv)
}

func addTaskQueueFlag(fs *pflag.FlagSet, queue *string, def, usage string, lookup func(string) (string, bool)) {
	if v, ok := lookup(EnvTaskQueue); ok && v != "" {
		def = v
	}
	fs.StringVar(queue, "task-queue", def, usage+" ($"+EnvTaskQueue+")")
}
